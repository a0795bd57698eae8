import { INestApplicationContext } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { AppModule } from '../../src/app.module';
import { loadServiceConfig } from '../../src/service-config';
import { Upcasters } from '../../src/infrastructure/event-sourcing/upcasters';
import { EVENT_STORE, EventStore } from '../../src/shared/ports/event-store.port';
import { ProjectionRunner } from '../../src/infrastructure/projections/projection-runner';
import { Projection, ReadModelProjection } from '../../src/infrastructure/projections/projection';
import { ProjectionBatches } from '../../src/infrastructure/projections/projection-batches';
import { DocumentStore, READ_STORE } from '../../src/shared/ports/document-store.port';
import { MongoDocumentStore } from '../../src/infrastructure/read-store/mongo-document-store';
import { requiredAssistantSettings } from '../../src/testing/assistant.fixture';
import { MongoStandIn } from '../../src/testing/mongo-stand-in';
import { KEY_STORE } from '../../src/shared/ports/key-store.port';
import { MongoKeyStore } from '../../src/infrastructure/sealing/mongo-key-store';

/** The data keys' collection, on a server of its own (the read models' servers are emptied between runs). */
const keysServer = new MongoStandIn();
import { eventually } from '../support/fake-provider';
import { startTestApp } from '../support/test-app';
import { allDayCampaign } from '../support/all-day-campaign';

/** The store as it was before the projections' lease: every instance's batches run at once. */
const unlocked = (store: MongoDocumentStore): DocumentStore =>
  Object.assign(Object.create(store) as MongoDocumentStore, {
    exclusive: async <R>(_lock: string, work: () => Promise<R>) => ({ ran: true as const, result: await work() }),
  });

interface Instance {
  context: INestApplicationContext;
  batches: ProjectionBatches;
  projections: ReadModelProjection[];
  handledBy: Map<ReadModelProjection, ReadonlySet<string>>;
}

/**
 * docs/distributed-mode.md: several instances projecting into one MongoDB. Every read model of
 * the service is projected from one event log (a campaign dialed to its end, leads deleted, a
 * do-not-call list, an import, keys and members) by three instances at once into a stand-in of
 * the server whose round trips are held up unevenly, and must end as one instance alone leaves it.
 */
describe('several instances projecting into one MongoDB', () => {
  let dataDir: string;
  let events: EventStore;
  let close: () => Promise<void>;
  const contexts: INestApplicationContext[] = [];

  beforeAll(async () => {
    const t = await startTestApp({
      DIAL_INTERVAL_MS: '20',
      SIMULATED_CALL_STEP_SECONDS: '0',
      SIMULATED_DIALER_ODDS: 'human:1,machine:1,busy:1,no-answer:1,failed:1',
    });
    const { token } = await t.createUser();
    const campaign = await allDayCampaign(t, token, { name: 'Instances', max_retries: 1, retry_delay_seconds: 0, max_concurrent_calls: 3 });
    await t.request('POST', '/api/user/dnc', { token, body: { phone_numbers: ['+12015551105'] } });
    const imported = await t.request('POST', `/api/user/campaigns/${campaign}/leads/import`, {
      token,
      headers: { 'content-type': 'text/csv' },
      body: ['phone_number,first_name', ...Array.from({ length: 12 }, (_, i) => `+1201555${1100 + i},Lead${i}`), 'not-a-number,Bad'].join('\n'),
    });
    const importId = imported.body.data?.id ?? imported.body.id;
    await eventually(async () => (await t.request('GET', `/api/user/lead-imports/${importId}`, { token })).body.status !== 'running', 15_000, 'the import');
    const leads = (await t.request('GET', `/api/user/leads?campaign_id=${campaign}`, { token })).body;
    await t.request('DELETE', `/api/user/leads/${leads[0].id}`, { token });
    await t.request('POST', '/api/user/api-keys', { token, body: { name: 'ci', scopes: ['leads:read'] } });
    await t.request('POST', '/api/user/campaigns/update-status', { token, body: { campaign_id: campaign, action: 'start' } });
    await eventually(
      async () => (await t.request('GET', `/api/user/campaigns/${campaign}`, { token })).body.status === 'completed',
      30_000,
      'campaign to complete',
    );
    dataDir = t.dataDir;
    await t.stop();
    close = async () => {
      await Promise.all(contexts.map((c) => c.close()));
      await t.close();
    };
  }, 60_000);
  afterAll(() => close?.());

  /** An instance: the service's modules over the shared event log and its own connection to the server. */
  async function instance(store: MongoDocumentStore): Promise<Instance> {
    const config = loadServiceConfig({
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      READ_STORE: 'mongodb',
      MONGODB_URL: 'mongodb://stand-in/voice',
      DATA_KEYS: `k1:${'A'.repeat(43)}=`,
    });
    const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot({ config, background: false, projectAtStart: false })] })
      .overrideProvider(READ_STORE)
      .useValue(store)
      .overrideProvider(KEY_STORE)
      .useValue(new MongoKeyStore(keysServer.connection()))
      .compile();
    const context = await moduleRef.init();
    contexts.push(context);
    events = context.get<EventStore>(EVENT_STORE);
    const projections = context
      .get(DiscoveryService)
      .getProviders({ metadataKey: Projection.KEY })
      .filter((wrapper) => wrapper.instance)
      .map((wrapper) => wrapper.instance as ReadModelProjection);
    return {
      context,
      projections,
      batches: new ProjectionBatches(events, store, context.get(Upcasters)),
      handledBy: new Map(projections.map((p) => [p, new Set(p.eventTypes)])),
    };
  }

  /** Projects until every projection is at the head, as the runner does: a batch, or a look again soon while another instance holds the lease. */
  async function catchUp(one: Instance, head: number): Promise<void> {
    for (;;) {
      const outcome = await one.batches.run(one.projections, one.handledBy, 50, (p) => p.name, false);
      if (outcome.ran && outcome.result.position >= head) return;
      if (!outcome.ran) await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }

  const readModels = (server: MongoStandIn) => JSON.stringify(Object.fromEntries(Object.entries(server.dump()).filter(([name]) => name !== 'leases')));

  /** Each document two dumps hold differently, as `<collection>/<id>: <one> | <other>`. */
  function differences(one: string, other: string, compared: (collection: string) => boolean = () => true): string[] {
    const [a, b] = [JSON.parse(one), JSON.parse(other)] as Array<Record<string, Array<{ _id: string }>>>;
    const byId = (docs: Array<{ _id: string }> = []) => new Map(docs.map((doc) => [doc._id, JSON.stringify(doc)]));
    return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter(compared).flatMap((name) => {
      const [x, y] = [byId(a[name]), byId(b[name])];
      return [...new Set([...x.keys(), ...y.keys()])].filter((id) => x.get(id) !== y.get(id)).map((id) => `${name}/${id}: ${x.get(id)} | ${y.get(id)}`);
    });
  }

  /** From an empty server, `instances` project the whole log at once; what they leave. */
  async function projectFrom(server: MongoStandIn, instances: Instance[], delayedShare: number): Promise<string> {
    server.reset();
    server.options = { delayedShare };
    const head = await events.headPosition();
    await Promise.all(instances.map((one) => catchUp(one, head)));
    return readModels(server);
  }

  it('three instances, 2 % of round trips held up 5–15 ms, end as one alone: 100 runs of 100', async () => {
    const server = new MongoStandIn();
    const instances = await Promise.all([0, 1, 2].map(() => instance(MongoDocumentStore.over(server.connection()))));
    const alone = await projectFrom(server, instances.slice(0, 1), 0);
    expect(Object.keys(JSON.parse(alone)).filter((name) => name.startsWith('rm_')).length).toBeGreaterThan(10);
    expect(alone).toContain('"completed"');
    let equal = 0;
    for (let run = 0; run < 100; run++) if ((await projectFrom(server, instances, 0.02)) === alone) equal++;
    expect(equal).toBe(100);
  }, 600_000);

  it('the same instances without the lease miscount: the harness sees what the lease prevents', async () => {
    const server = new MongoStandIn();
    const instances = await Promise.all([0, 1, 2].map(() => instance(MongoDocumentStore.over(server.connection()))));
    const alone = await projectFrom(server, instances.slice(0, 1), 0);
    // The same projections, their batches taken without the lease.
    const withoutLease = instances.map((one) => ({
      ...one,
      batches: new ProjectionBatches(events, unlocked(MongoDocumentStore.over(server.connection())), one.context.get(Upcasters)),
    }));
    let differing = 0;
    for (let run = 0; run < 20 && !differing; run++) if ((await projectFrom(server, withoutLease, 0.05)) !== alone) differing++;
    expect(differing).toBe(1);
  }, 600_000);

  it('a rebuild beside two projecting instances, while leads are written, hands over without a lost update', async () => {
    const server = new MongoStandIn();
    const [reference, ...services] = await Promise.all([0, 1, 2].map(() => instance(MongoDocumentStore.over(server.connection()))));
    // Each collection is switched while the rebuild holds the projections' lease: no service batch between its last batch and the switch.
    const rebuilderConnection = server.connection();
    const switchedUnleased: string[] = [];
    const rename = rebuilderConnection.db!.renameCollection.bind(rebuilderConnection.db);
    rebuilderConnection.db!.renameCollection = (async (from: string, to: string, options: object) => {
      const lease = server.dump().leases?.find((held) => held._id === 'exclusive:projections');
      if (!lease || (lease.expires_at as number) <= Date.now()) switchedUnleased.push(to);
      return rename(from, to, options);
    }) as never;
    const rebuilder = await instance(MongoDocumentStore.over(rebuilderConnection));
    const writer = await startTestApp({}, { dataDir });
    try {
      const { token } = await writer.createUser('rebuild-writer@example.com');
      const assistant = (await writer.request('POST', '/api/user/assistant', { token, body: requiredAssistantSettings })).body.data.id;
      for (let run = 0; run < 3; run++) {
        await projectFrom(server, services, 0.02);
        const campaign = (await writer.request('POST', '/api/user/campaigns', { token, body: { name: `Rebuilt ${run}`, assistant_id: assistant } })).body.data
          .id;
        let writing = true;
        const serve = async (one: Instance) => {
          while (writing) {
            const outcome = await one.batches.run(one.projections, one.handledBy, 50, (p) => p.name, false);
            if (!outcome.ran || outcome.result.count === 0) await new Promise((resolve) => setTimeout(resolve, 2));
          }
        };
        const served = services.map(serve);
        const written = (async () => {
          for (let i = 0; i < 40; i++)
            await writer.request('POST', '/api/user/lead', {
              token,
              body: { campaign_id: campaign, phone_number: `+1201556${run}${String(i).padStart(3, '0')}` },
            });
        })();
        await new Promise((resolve) => setTimeout(resolve, 30));
        await rebuilder.context.get(ProjectionRunner).rebuild(rebuilder.context.get(ProjectionRunner).names());
        await written;
        writing = false;
        await Promise.all(served);
        await catchUp(services[0], await events.headPosition());
        const rebuilt = readModels(server);
        const alone = await projectFrom(server, [reference], 0);
        expect(differences(rebuilt, alone, (name) => name.startsWith('rm_'))).toEqual([]);
        expect(switchedUnleased).toEqual([]);
      }
    } finally {
      await writer.stop();
    }
  }, 600_000);
});
