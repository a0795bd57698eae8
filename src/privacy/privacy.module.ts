import { Module } from '@nestjs/common';
import { CallsModule } from '../calls/calls.module';
import { CampaignsModule } from '../campaigns/campaigns.module';
import { DoNotCallModule } from '../do-not-call/do-not-call.module';
import { LeadImportsModule } from '../lead-imports/lead-imports.module';
import { LeadsModule } from '../leads/leads.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { PrivacyController } from './privacy.controller';
import { SubjectAccess } from './subject-access';
import { SubjectLeadsProjection } from './subject-leads.projection';
import { EraseSubjectsReactor } from './erasure/erase-subjects.reactor';
import { ErasuresController } from './erasure/erasures.controller';
import { ErasuresProjection } from './erasure/erasures.projection';
import { RequestErasureHandler } from './erasure/request-erasure';
import { SubjectHoldings } from './erasure/subject-holdings';
import { RetentionSweep } from './retention/retention-sweep';

/** docs/privacy.md: what is held on a person, and its erasure, on request. */
@Module({
  imports: [CallsModule, CampaignsModule, DoNotCallModule, LeadImportsModule, LeadsModule, WebhooksModule],
  controllers: [PrivacyController, ErasuresController],
  providers: [SubjectLeadsProjection, SubjectAccess, ErasuresProjection, SubjectHoldings, EraseSubjectsReactor, RequestErasureHandler, RetentionSweep],
})
export class PrivacyModule {}
