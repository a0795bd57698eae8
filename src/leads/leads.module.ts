import { Module, forwardRef } from '@nestjs/common';
import { CampaignsModule } from '../campaigns/campaigns.module';
import { CreateLeadHandler } from './commands/create-lead';
import { DeleteLeadHandler } from './commands/delete-lead';
import { FinishLeadCallHandler } from './commands/finish-lead-call';
import { StartLeadCallHandler } from './commands/start-lead-call';
import { UpdateLeadHandler } from './commands/update-lead';
import { LeadsController } from './leads.controller';
import { LeadNumbers } from './lead-numbers';
import { LeadsMetrics } from './leads.metrics';
import { LeadsProjection } from './leads.projection';

@Module({
  imports: [forwardRef(() => CampaignsModule)],
  controllers: [LeadsController],
  providers: [LeadsProjection, LeadsMetrics, LeadNumbers, CreateLeadHandler, UpdateLeadHandler, DeleteLeadHandler, StartLeadCallHandler, FinishLeadCallHandler],
  exports: [LeadsProjection],
})
export class LeadsModule {}
