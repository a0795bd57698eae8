import { Module } from '@nestjs/common';
import { AssistantsModule } from '../assistants/assistants.module';
import { CampaignAssistants } from './campaign-assistants';
import { CampaignView } from './campaign-view';
import { CampaignsController } from './campaigns.controller';
import { CampaignsProjection } from './campaigns.projection';
import { CampaignsQueries } from './campaigns.queries';
import { ChangeCampaignStatusHandler } from './commands/change-campaign-status';
import { RecordDialingFailureHandler, RecordDialingRecoveryHandler } from './commands/record-dialing-health';
import { TripFailureBreakerHandler } from './commands/trip-failure-breaker';
import { CompleteCampaignHandler } from './commands/complete-campaign';
import { CreateCampaignHandler } from './commands/create-campaign';
import { UpdateCampaignHandler } from './commands/update-campaign';

@Module({
  imports: [AssistantsModule],
  controllers: [CampaignsController],
  providers: [
    CampaignsProjection,
    CampaignsQueries,
    CampaignAssistants,
    CampaignView,
    CreateCampaignHandler,
    UpdateCampaignHandler,
    ChangeCampaignStatusHandler,
    CompleteCampaignHandler,
    RecordDialingFailureHandler,
    RecordDialingRecoveryHandler,
    TripFailureBreakerHandler,
  ],
  exports: [CampaignsQueries, CampaignAssistants],
})
export class CampaignsModule {}
