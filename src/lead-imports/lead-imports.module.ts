import { Module } from '@nestjs/common';
import { CampaignsModule } from '../campaigns/campaigns.module';
import { LeadsModule } from '../leads/leads.module';
import { StartLeadImportHandler } from './commands/start-lead-import';
import { ImportSpool } from './import-spool';
import { LeadImportProcessor } from './lead-import-processor';
import { LeadImportWorker } from './lead-import-worker';
import { LeadImportsController } from './lead-imports.controller';
import { LeadImportsProjection } from './lead-imports.projection';
import { LeadImportsQueries } from './lead-imports.queries';

/** Contract §15: bulk lead import. */
@Module({
  imports: [CampaignsModule, LeadsModule],
  controllers: [LeadImportsController],
  providers: [LeadImportsProjection, LeadImportsQueries, ImportSpool, LeadImportProcessor, LeadImportWorker, StartLeadImportHandler],
  exports: [LeadImportsQueries, LeadImportProcessor, ImportSpool],
})
export class LeadImportsModule {}
