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

/** docs/privacy.md: what is held on a person, on request. */
@Module({
  imports: [CallsModule, CampaignsModule, DoNotCallModule, LeadImportsModule, LeadsModule, WebhooksModule],
  controllers: [PrivacyController],
  providers: [SubjectLeadsProjection, SubjectAccess],
})
export class PrivacyModule {}
