import { Module } from '@nestjs/common';
import { CampaignsModule } from '../campaigns/campaigns.module';
import { CampaignHistory } from './campaign-history';
import { HistoryController } from './history.controller';

@Module({
  imports: [CampaignsModule],
  controllers: [HistoryController],
  providers: [CampaignHistory],
  exports: [CampaignHistory],
})
export class HistoryModule {}
