import { DynamicModule, Module, OnApplicationShutdown, Provider } from '@nestjs/common';
import { AppConfig } from '../infrastructure/config/app-config';
import { logAuditTrail } from '../infrastructure/infrastructure.module';
import { SqliteAuditTrail } from '../infrastructure/event-store/sqlite-audit-trail';
import { AUDIT_TRAIL, AuditFilter, AuditPage, AuditTrail } from '../shared/ports/audit-trail.port';
import { DocumentStore, READ_STORE } from '../shared/ports/document-store.port';
import { EVENT_STORE } from '../shared/ports/event-store.port';
import { AuditController } from './audit.controller';
import { AUDIT_COLLECTIONS, AuditProjection } from './audit.projection';

/** The log's own trail, closed with the app. */
class LogAuditTrail implements AuditTrail, OnApplicationShutdown {
  constructor(private readonly trail: SqliteAuditTrail) {}

  page(filter: AuditFilter, skip: number, limit: number): Promise<AuditPage> {
    return this.trail.page(filter, skip, limit);
  }

  onApplicationShutdown(): Promise<void> {
    return this.trail.close();
  }
}

/**
 * docs/teams.md: the trail from the log's own index where it keeps one (the embedded store), else
 * from its projection. A read store that held the projection beside the embedded log (before the
 * log indexed it) is emptied of it.
 */
@Module({})
export class AuditModule {
  static forRoot(config: AppConfig): DynamicModule {
    const openTrail = logAuditTrail(config);
    const providers: Provider[] = openTrail
      ? [
          {
            provide: AUDIT_TRAIL,
            // After the event store: it brings the log's index up to date first.
            inject: [EVENT_STORE, READ_STORE],
            useFactory: async (_events: unknown, reads: DocumentStore) => {
              for (const name of AUDIT_COLLECTIONS) {
                reads.collection(name);
                await reads.clearCollection(name);
              }
              return new LogAuditTrail(openTrail());
            },
          },
        ]
      : [AuditProjection, { provide: AUDIT_TRAIL, useExisting: AuditProjection }];
    return { module: AuditModule, controllers: [AuditController], providers };
  }
}
