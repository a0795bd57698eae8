import { mkdtempSync, rmSync } from 'node:fs';
import { AddressInfo, createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from './config/app-config';
import { EventStoreDbEventStore } from './event-store/eventstoredb-event-store';
import { SqliteEventStore } from './event-store/sqlite-event-store';
import { InfrastructureModule, openEventStore, openReadStore } from './infrastructure.module';
import { SqliteDocumentStore } from './read-store/sqlite-document-store';

describe('opening the configured stores', () => {
  const dir = mkdtempSync(join(tmpdir(), 'open-stores-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

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
      const opening = openReadStore(loadConfig({ DATA_DIR: dir, READ_STORE: 'mongodb', MONGODB_URL: `mongodb://127.0.0.1:${port}/voice` }));
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
