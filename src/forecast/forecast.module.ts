import { Module } from '@nestjs/common';
import { CallsModule } from '../calls/calls.module';
import { CampaignsModule } from '../campaigns/campaigns.module';
import { DialingModule } from '../dialing/dialing.module';
import { DoNotCallModule } from '../do-not-call/do-not-call.module';
import { CampaignForecasts } from './campaign-forecast';
import { ForecastController } from './forecast.controller';

/** docs/forecast.md: a campaign's dials forecast by the dialer's own rules. */
@Module({
  imports: [CallsModule, CampaignsModule, DialingModule, DoNotCallModule],
  controllers: [ForecastController],
  providers: [CampaignForecasts],
})
export class ForecastModule {}
