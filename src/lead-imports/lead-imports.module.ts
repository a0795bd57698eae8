import { Module } from '@nestjs/common';
import { CampaignsModule } from '../campaigns/campaigns.module';
import { LeadsModule } from '../leads/leads.module';
import { StartLeadImportHandler } from './commands/start-lead-import';
import { DncImportsController } from './dnc-imports.controller';
import { ImportRequests } from './import-requests';
import { ImportSpool } from './import-spool';
import { LeadImportProcessor } from './lead-import-processor';
import { LeadImportWorker } from './lead-import-worker';
import { LeadImportsController } from './lead-imports.controller';
import { LeadImportsProjection } from './lead-imports.projection';
import { LeadImportsQueries } from './lead-imports.queries';

/** docs/imports.md: bulk import of leads, and of numbers for the do-not-call list. */
@Module({
  imports: [CampaignsModule, LeadsModule],
  controllers: [LeadImportsController, DncImportsController],
  providers: [ImportRequests, LeadImportsProjection, LeadImportsQueries, ImportSpool, LeadImportProcessor, LeadImportWorker, StartLeadImportHandler],
  exports: [LeadImportsQueries, LeadImportProcessor, ImportSpool],
})
export class LeadImportsModule {}
