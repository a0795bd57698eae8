import { Module } from '@nestjs/common';
import { CallsModule } from '../calls/calls.module';
import { CampaignsModule } from '../campaigns/campaigns.module';
import { LeadsModule } from '../leads/leads.module';
import { ReportsController } from './reports.controller';

@Module({ imports: [CallsModule, CampaignsModule, LeadsModule], controllers: [ReportsController] })
export class ReportsModule {}
