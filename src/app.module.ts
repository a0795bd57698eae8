import { DynamicModule, Module, OnApplicationBootstrap } from '@nestjs/common';
import { useVoices } from './catalog/catalog';
import { CqrsModule } from '@nestjs/cqrs';
import { ScheduleModule } from '@nestjs/schedule';
import { ThrottlerModule } from '@nestjs/throttler';
import { SharedRateLimitStorage } from './access/shared-rate-limit-storage';
import { HealthController } from './health/health.controller';
import { MetricsController } from './health/metrics.controller';
import { InfrastructureModule, InfrastructureOptions } from './infrastructure/infrastructure.module';
import { ReactorRunner } from './infrastructure/reactors/reactor-runner';
import { AssistantsModule } from './assistants/assistants.module';
import { AuditModule } from './audit/audit.module';
import { CallsModule } from './calls/calls.module';
import { CampaignsModule } from './campaigns/campaigns.module';
import { CatalogController } from './catalog/catalog.controller';
import { DashboardModule } from './dashboard/dashboard.module';
import { LeadImportsModule } from './lead-imports/lead-imports.module';
import { DoNotCallModule } from './do-not-call/do-not-call.module';
import { DialingModule } from './dialing/dialing.module';
import { VoiceRuntimesModule } from './voice-runtimes/voice-runtimes.module';
import { HistoryModule } from './history/history.module';
import { ReportsModule } from './reports/reports.module';
import { LeadsModule } from './leads/leads.module';
import { PhoneNumbersModule } from './phone-numbers/phone-numbers.module';
import { ToolsModule } from './tools/tools.module';
import { UsersModule } from './users/users.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { PrivacyModule } from './privacy/privacy.module';
import { ForecastModule } from './forecast/forecast.module';
import { ServiceConfig, featureSettingsModule } from './service-config';
import { AccessModule } from './access/access.module';
import { IdempotencyModule } from './idempotency/idempotency.module';
import { ReservationsModule } from './reservations/reservations.module';

/** The features and their plumbing; the HTTP app and the CLI both start from here. */
@Module({})
export class AppModule implements OnApplicationBootstrap {
  constructor(private readonly reactors: ReactorRunner) {}

  /** The root module boots last, once every command handler is registered: the reactors start then. */
  async onApplicationBootstrap(): Promise<void> {
    await this.reactors.start();
  }

  static forRoot(options: InfrastructureOptions & { config: ServiceConfig }): DynamicModule {
    useVoices(options.config.voices);
    return {
      module: AppModule,
      imports: [
        InfrastructureModule.forRoot(options),
        featureSettingsModule(options.config.features),
        AccessModule,
        IdempotencyModule,
        ReservationsModule,
        CqrsModule.forRoot(),
        ScheduleModule.forRoot(),
        ThrottlerModule.forRootAsync({
          imports: [AccessModule],
          inject: [SharedRateLimitStorage],
          useFactory: (storage: SharedRateLimitStorage) => ({
            throttlers: [{ ttl: 60_000, limit: options.config.rateLimitPerMinute }],
            errorMessage: 'Too Many Attempts.',
            storage,
          }),
        }),
        VoiceRuntimesModule.forRoot(options.config.runtime),
        UsersModule,
        AuditModule.forRoot(options.config),
        ToolsModule,
        PhoneNumbersModule,
        AssistantsModule,
        CampaignsModule,
        LeadsModule,
        CallsModule,
        DialingModule,
        WebhooksModule,
        PrivacyModule,
        ForecastModule,
        HistoryModule,
        ReportsModule,
        DoNotCallModule,
        LeadImportsModule,
        DashboardModule,
      ],
      controllers: [HealthController, MetricsController, CatalogController],
    };
  }
}

export type { ServiceConfig };
