import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DiscoveryService } from '@nestjs/core';
import { Upcasters } from '../event-sourcing/upcasters';
import { RecordedEvent } from '../event-store/event-store.port';
import { SqliteEventStore } from '../event-store/sqlite-event-store';
import { ProjectionRunner } from '../projections/projection-runner';
import { SqliteDocumentStore } from '../read-store/sqlite-document-store';
import { Reactor } from './reactor';
import { ReactorRunner } from './reactor-runner';

describe('ReactorRunner', () => {
  let dir: string;
  let events: SqliteEventStore;
  let readStore: SqliteDocumentStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'reactors-'));
    events = new SqliteEventStore(join(dir, 'events.db'), { pollIntervalMs: 10 });
    readStore = new SqliteDocumentStore(join(dir, 'read.db'));
  });

  afterEach(async () => {
    await events.close();
    await readStore.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts the reactors only once the projections have caught up with the store', async () => {
    await events.append('lead-1', [{ type: 'LeadCreated', data: { id: 1 } }], 'no_stream');
    const seen: string[] = [];
    const reactor: Reactor = { name: 'seen', eventTypes: ['LeadCreated'], react: async (e: RecordedEvent) => void seen.push(e.stream) };
    const discovery = { getProviders: () => [{ instance: reactor }] } as unknown as DiscoveryService;
    let caughtUp!: () => void;
    const projections = { caughtUpAtStart: new Promise<void>((resolve) => (caughtUp = resolve)) } as unknown as ProjectionRunner;
    const runner = new ReactorRunner(discovery, events, readStore, new Upcasters(), projections, true);

    const started = runner.onApplicationBootstrap();
    try {
      await new Promise((r) => setTimeout(r, 100));
      expect(seen).toEqual([]);

      caughtUp();
      await started;
      for (const deadline = Date.now() + 2000; seen.length === 0 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 10));
      expect(seen).toEqual(['lead-1']);
    } finally {
      caughtUp();
      await started;
      await runner.onModuleDestroy();
    }
  });
});
