import { Module, forwardRef } from '@nestjs/common';
import { AssistantsModule } from '../assistants/assistants.module';
import { LeadsModule } from '../leads/leads.module';
import { CampaignAssistants } from './campaign-assistants';
import { CampaignView } from './campaign-view';
import { CampaignsController } from './campaigns.controller';
import { CampaignsProjection } from './campaigns.projection';
import { ChangeCampaignStatusHandler } from './commands/change-campaign-status';
import { RecordDialingFailureHandler, RecordDialingRecoveryHandler } from './commands/record-dialing-health';
import { CompleteCampaignHandler } from './commands/complete-campaign';
import { CreateCampaignHandler } from './commands/create-campaign';
import { UpdateCampaignHandler } from './commands/update-campaign';

@Module({
  imports: [AssistantsModule, forwardRef(() => LeadsModule)],
  controllers: [CampaignsController],
  providers: [CampaignsProjection, CampaignAssistants, CampaignView, CreateCampaignHandler, UpdateCampaignHandler, ChangeCampaignStatusHandler, CompleteCampaignHandler, RecordDialingFailureHandler, RecordDialingRecoveryHandler],
  exports: [CampaignsProjection, CampaignAssistants],
})
export class CampaignsModule {}
