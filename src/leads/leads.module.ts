import { LeadsExportController } from './leads-export.controller';
import { Global, Module } from '@nestjs/common';
import { CAMPAIGN_LEADS } from '../campaigns/campaign-leads';
import { CampaignsModule } from '../campaigns/campaigns.module';
import { DoNotCallModule } from '../do-not-call/do-not-call.module';
import { CreateLeadHandler } from './commands/create-lead';
import { CreateImportedLeadHandler } from './commands/create-imported-lead';
import { LeadCreation } from './commands/lead-creation';
import { DeleteLeadHandler } from './commands/delete-lead';
import { FinishLeadCallHandler } from './commands/finish-lead-call';
import { StopLeadHandler } from './commands/stop-lead';
import { StartLeadCallHandler } from './commands/start-lead-call';
import { UpdateLeadHandler } from './commands/update-lead';
import { LeadsController } from './leads.controller';
import { LeadNumbers } from './lead-numbers';
import { LeadsMetrics } from './leads.metrics';
import { LeadsProjection } from './leads.projection';
import { LeadsQueries } from './leads.queries';
import { LeadStates } from './lead-states';

/** Global for the answer it gives campaigns (CAMPAIGN_LEADS): they stand below leads and do not import them. */
@Global()
@Module({
  imports: [CampaignsModule, DoNotCallModule],
  controllers: [LeadsExportController, LeadsController],
  providers: [
    LeadsProjection,
    LeadsQueries,
    LeadStates,
    { provide: CAMPAIGN_LEADS, useExisting: LeadsQueries },
    LeadsMetrics,
    LeadNumbers,
    LeadCreation,
    CreateLeadHandler,
    CreateImportedLeadHandler,
    UpdateLeadHandler,
    DeleteLeadHandler,
    StartLeadCallHandler,
    FinishLeadCallHandler,
    StopLeadHandler,
  ],
  exports: [LeadsQueries, LeadStates, CAMPAIGN_LEADS],
})
export class LeadsModule {}
