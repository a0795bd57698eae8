import { ErasuresFollower } from './erasure/erasures-follower';
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
import { AppConfig } from '../infrastructure/config/app-config';
import { EVENT_STORE } from '../shared/ports/event-store.port';
import { Sealer } from '../shared/sealing/sealer';
import { CompactAfterSealing, SECRETS_SEALED, sealEarlierEmbeddedStore } from './upgrades/secrets-upgrade';

/** docs/privacy.md: what is held on a person, and its erasure, on request. */
@Module({
  imports: [CallsModule, CampaignsModule, DoNotCallModule, LeadImportsModule, LeadsModule, WebhooksModule],
  controllers: [PrivacyController, ErasuresController],
  providers: [
    SubjectLeadsProjection,
    SubjectAccess,
    ErasuresProjection,
    SubjectHoldings,
    EraseSubjectsReactor,
    RequestErasureHandler,
    RetentionSweep,
    ErasuresFollower,
    // A store of an earlier version sealed in place: after the event store has made its tables,
    // before anything reads the log (every provider is made before any starts).
    {
      provide: SECRETS_SEALED,
      inject: [AppConfig, Sealer, EVENT_STORE],
      useFactory: (config: AppConfig, sealer: Sealer) => sealEarlierEmbeddedStore(config, sealer),
    },
    CompactAfterSealing,
  ],
})
export class PrivacyModule {}
