import { DynamicModule, Global, Inject, Injectable, Module, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Clock, SystemClock } from '../shared/clock';
import { AppConfig } from './config/app-config';
import { CommandRunner } from './event-sourcing/command-runner';
import { ServiceInstances } from './instances/service-instances';
import { WorkLeases } from './leases/work-leases';
import { Metrics } from './metrics/metrics';
import { RunnerLagMetrics } from './metrics/runner-lag-metrics';
import { PublicTargets } from './outbound/public-targets';
import { Upcasters } from './event-sourcing/upcasters';
import { EVENT_STORE, EventStore } from '../shared/ports/event-store.port';
import { SqliteEventStore } from './event-store/sqlite-event-store';
import { SqliteAuditTrail } from './event-store/sqlite-audit-trail';
import { OutboundHttp } from './outbound/outbound-http';
import { PROJECT_AT_START, ProjectionRunner } from './projections/projection-runner';
import { BACKGROUND_WORK } from './reactors/reactor';
import { ReactorRunner } from './reactors/reactor-runner';
import { DocumentStore, READ_STORE } from '../shared/ports/document-store.port';
import { SqliteDocumentStore } from './read-store/sqlite-document-store';
import { WalCheckpointer } from './sqlite/wal-checkpointer';
import { KEY_STORE, KeyStore } from '../shared/ports/key-store.port';
import { KEYS_FILE, masterKeys, openKeyStore, openSealer } from './sealing/open-sealer';
import { Sealer } from '../shared/sealing/sealer';
import { OpeningEventStore } from './sealing/opening-event-store';
import { OpenedReadAhead, openedReadsScript } from './sealing/opened-read-ahead';

const eventsFile = (config: AppConfig) => join(config.dataDir, 'events.db');
const readsFile = (config: AppConfig) => join(config.dataDir, 'read.db');
const keysFile = (config: AppConfig) => join(config.dataDir, KEYS_FILE);

// The EventStoreDB and MongoDB clients are loaded only when configured: on the embedded default
// they would cost about 40 MB of memory and 0.3 s of every start (560 modules), unused.
export async function openEventStore(config: AppConfig): Promise<EventStore> {
  if (config.eventStore === 'eventstoredb') {
    const { EventStoreDbEventStore } = await import('./event-store/eventstoredb-event-store');
    return new EventStoreDbEventStore(config.eventStoreDbUrl!);
  }
  mkdirSync(config.dataDir, { recursive: true });
  return new SqliteEventStore(eventsFile(config));
}

/**
 * docs/teams.md: the embedded log answers the audit trail from an index of its own (opened once
 * the event store is); a log that keeps none (EventStoreDB) has no opener, and the trail is
 * projected into the read store.
 */
export function logAuditTrail(config: AppConfig): (() => SqliteAuditTrail) | undefined {
  return config.eventStore === 'embedded' ? () => new SqliteAuditTrail(eventsFile(config)) : undefined;
}

export async function openReadStore(config: AppConfig): Promise<DocumentStore> {
  if (config.readStore === 'mongodb') {
    const { MongoDocumentStore } = await import('./read-store/mongo-document-store');
    return MongoDocumentStore.connect(config.mongodbUrl!);
  }
  mkdirSync(config.dataDir, { recursive: true });
  return new SqliteDocumentStore(readsFile(config));
}

/**
 * A rebuild on the embedded stores (alone on them: refused beside a service) reads and opens the
 * log on a thread of its own (bench/README.md); elsewhere each reader reads as it goes.
 */
export function rebuildReadsAhead(config: AppConfig, projectAtStart: boolean, script = openedReadsScript()): OpenedReadAhead | undefined {
  if (projectAtStart || !script || config.eventStore !== 'embedded' || config.readStore !== 'embedded') return undefined;
  return new OpenedReadAhead(script, { events: eventsFile(config), keys: keysFile(config) }, masterKeys(config));
}

@Injectable()
class StoreLifecycle implements OnModuleInit, OnApplicationShutdown {
  private checkpointer?: WalCheckpointer;

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: DocumentStore,
    @Inject(KEY_STORE) private readonly keys: KeyStore,
    @Inject(BACKGROUND_WORK) private readonly background: boolean,
    private readonly config: AppConfig,
    private readonly projections: ProjectionRunner,
  ) {}

  /**
   * The service checkpoints its embedded files from a worker thread, from before the catch-up
   * at start. Not the CLI: its commands are short, and a rebuild holds the read store alone.
   */
  async onModuleInit(): Promise<void> {
    // Every projection has opened its collections by now: an index the store refuses stops the start here.
    await this.reads.ready();
    // The key store is the read store's neighbour: a file beside it, or a collection of its database.
    const embeddedReads = this.config.readStore === 'embedded';
    const files = [
      this.config.eventStore === 'embedded' && eventsFile(this.config),
      embeddedReads && readsFile(this.config),
      embeddedReads && keysFile(this.config),
    ];
    const embedded = files.filter((file): file is string => file !== false);
    if (!this.background || !embedded.length) return;
    this.checkpointer = new WalCheckpointer(embedded);
    await this.checkpointer.started;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.projections.stop();
    await this.checkpointer?.stop();
    await this.reads.close();
    await this.events.close();
    await this.keys.close();
  }
}

export interface InfrastructureOptions {
  config: AppConfig;
  clock?: Clock;
  /** Dialing, sweeps and deliveries run unless this is false (the CLI). */
  background?: boolean;
  /** The projections catch up before the app starts unless this is false (a rebuild, with no background work). */
  projectAtStart?: boolean;
}

/** Storage, time, the command path and the projection runner, shared by every feature. */
@Global()
@Module({})
export class InfrastructureModule {
  static forRoot({ config, clock, background = true, projectAtStart = true }: InfrastructureOptions): DynamicModule {
    // Reactors start once the projections have caught up at start: without that they would wait for ever.
    if (background && !projectAtStart) throw new Error('Background work needs the projections caught up at start');
    return {
      module: InfrastructureModule,
      imports: [DiscoveryModule],
      providers: [
        { provide: AppConfig, useValue: config },
        { provide: Clock, useValue: clock ?? new SystemClock() },
        { provide: KEY_STORE, useFactory: () => openKeyStore(config) },
        { provide: Sealer, inject: [KEY_STORE], useFactory: (keys: KeyStore) => openSealer(config, keys) },
        // Every reader of the log sees personal values opened (docs/privacy.md).
        {
          provide: EVENT_STORE,
          inject: [Sealer],
          useFactory: async (sealer: Sealer) => new OpeningEventStore(await openEventStore(config), sealer, rebuildReadsAhead(config, projectAtStart)),
        },
        { provide: READ_STORE, useFactory: () => openReadStore(config) },
        Upcasters,
        CommandRunner,
        ProjectionRunner,
        { provide: PROJECT_AT_START, useValue: projectAtStart },
        { provide: BACKGROUND_WORK, useValue: background },
        ReactorRunner,
        { provide: OutboundHttp, inject: [AppConfig], useFactory: (c: AppConfig) => new OutboundHttp(c) },
        { provide: PublicTargets, inject: [AppConfig], useFactory: (c: AppConfig) => new PublicTargets(c.allowPrivateTargets) },
        StoreLifecycle,
        ServiceInstances,
        WorkLeases,
        Metrics,
        RunnerLagMetrics,
      ],
      exports: [
        AppConfig,
        Clock,
        EVENT_STORE,
        READ_STORE,
        KEY_STORE,
        Sealer,
        BACKGROUND_WORK,
        Upcasters,
        CommandRunner,
        ProjectionRunner,
        ReactorRunner,
        OutboundHttp,
        PublicTargets,
        ServiceInstances,
        WorkLeases,
        Metrics,
      ],
    };
  }
}
