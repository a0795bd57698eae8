import { Test } from '@nestjs/testing';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { AddressInfo, createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from './config/app-config';
import { EventStoreDbEventStore } from './event-store/eventstoredb-event-store';
import { SqliteEventStore } from './event-store/sqlite-event-store';
import { EVENT_STORE, EventStore } from '../shared/ports/event-store.port';
import { InfrastructureModule, openEventStore, openReadStore, rebuildReadsAhead } from './infrastructure.module';
import { OpenedReadAhead } from './sealing/opened-read-ahead';
import { DocumentStore, READ_STORE } from '../shared/ports/document-store.port';
import { SqliteDocumentStore } from './read-store/sqlite-document-store';

describe('opening the configured stores', () => {
  const dir = mkdtempSync(join(tmpdir(), 'open-stores-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // bench/README.md: the rebuild's reading thread, and no one else's.
  it('reads ahead on a thread for a rebuild on the embedded stores alone', () => {
    const script = join(dir, 'opened-reads.worker.js');
    const embedded = loadConfig({ DATA_DIR: dir, DATA_KEYS: `k1:${Buffer.alloc(32, 1).toString('base64')}` });
    expect(rebuildReadsAhead(embedded, false, script)).toBeInstanceOf(OpenedReadAhead);
    expect(rebuildReadsAhead(embedded, true, script)).toBeUndefined();
    expect(rebuildReadsAhead(embedded, false, undefined)).toBeUndefined();
    for (const other of [{ eventStore: 'eventstoredb' }, { readStore: 'mongodb' }])
      expect(rebuildReadsAhead({ ...embedded, ...other } as typeof embedded, false, script)).toBeUndefined();
  });

  it('opens both embedded stores in DATA_DIR by default', async () => {
    const config = loadConfig({ DATA_DIR: dir });
    const [events, reads] = await Promise.all([openEventStore(config), openReadStore(config)]);
    expect(events).toBeInstanceOf(SqliteEventStore);
    expect(reads).toBeInstanceOf(SqliteDocumentStore);
    await Promise.all([events.close(), reads.close()]);
  });

  // The client connects on its first request, so this needs no server.
  it('loads the EventStoreDB adapter when EVENT_STORE=eventstoredb', async () => {
    const events = await openEventStore(loadConfig({ DATA_DIR: dir, EVENT_STORE: 'eventstoredb', EVENTSTOREDB_URL: 'esdb://127.0.0.1:2113?tls=false' }));
    expect(events).toBeInstanceOf(EventStoreDbEventStore);
    await events.close();
  });

  // No MongoDB server here: a TCP listener that never answers shows the client dialing the configured URL.
  it('loads the MongoDB adapter when READ_STORE=mongodb and connects to MONGODB_URL', async () => {
    const sockets: Socket[] = [];
    const server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const opening = openReadStore(
        loadConfig({ DATA_DIR: dir, READ_STORE: 'mongodb', MONGODB_URL: `mongodb://127.0.0.1:${port}/voice`, DATA_KEYS: `k1:${'A'.repeat(43)}=` }),
      );
      await expect(opening).rejects.toMatchObject({ name: 'MongooseServerSelectionError' });
      expect(sockets.length).toBeGreaterThan(0);
    } finally {
      sockets.forEach((socket) => socket.destroy());
      await new Promise((resolve) => server.close(resolve));
    }
  }, 15_000);
});

describe('InfrastructureModule options', () => {
  it('refuses background work with projections that do not catch up at start: its reactors would wait for them for ever', () => {
    const config = loadConfig({ DATA_DIR: tmpdir() });
    expect(() => InfrastructureModule.forRoot({ config, projectAtStart: false })).toThrow('Background work needs the projections caught up at start');
    expect(() => InfrastructureModule.forRoot({ config, projectAtStart: false, background: false })).not.toThrow();
  });
});

describe('checkpoints of the embedded files', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'checkpoints-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const started = async (background: boolean) => {
    const app = await Test.createTestingModule({
      imports: [InfrastructureModule.forRoot({ config: loadConfig({ DATA_DIR: dir }), background, projectAtStart: background })],
    }).compile();
    await app.init();
    return app;
  };

  it('given the service, then what its commits add reaches the events file long before the log is full', async () => {
    const app = await started(true);
    try {
      const file = join(dir, 'events.db');
      const before = statSync(file).size;
      // About 250 pages, where the log is checkpointed on the writing connection at 8,000.
      await app.get<EventStore>(EVENT_STORE).append('bulk-1', [{ type: 'Bulk', data: { text: 'x'.repeat(1_000_000) } }], 'no_stream');
      let size = before;
      for (const deadline = Date.now() + 10_000; size < before + 1_000_000 && Date.now() < deadline; await new Promise((r) => setTimeout(r, 20)))
        size = statSync(file).size;
      expect(size).toBeGreaterThan(before + 1_000_000);
    } finally {
      await app.close();
    }
  });

  it('given the CLI, then no other connection holds the read store: a rebuild is swapped in', async () => {
    const app = await started(false);
    try {
      const rebuilding = join(dir, `read.db.rebuild-${process.pid}`);
      expect(await app.get<DocumentStore>(READ_STORE).refill([], async () => existsSync(rebuilding))).toBe(true);
      expect(existsSync(rebuilding)).toBe(false);
    } finally {
      await app.close();
    }
  });
});
