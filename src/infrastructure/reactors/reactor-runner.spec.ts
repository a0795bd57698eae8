import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DiscoveryService } from '@nestjs/core';
import { Upcasters } from '../event-sourcing/upcasters';
import { RecordedEvent } from '../../shared/ports/event-store.port';
import { SqliteEventStore } from '../event-store/sqlite-event-store';
import { ProjectionRunner } from '../projections/projection-runner';
import { SqliteDocumentStore } from '../read-store/sqlite-document-store';
import { Reactor } from './reactor';
import { CommandRunner } from '../event-sourcing/command-runner';
import { SystemClock } from '../../shared/clock';
import { ReactorRunner } from './reactor-runner';
import { workLeasesOn } from '../../testing/work-leases.fixture';

describe('ReactorRunner', () => {
  let dir: string;
  let events: SqliteEventStore;
  let readStore: SqliteDocumentStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'reactors-'));
    events = new SqliteEventStore(join(dir, 'events.db'), { pollIntervalMs: 10 });
    readStore = new SqliteDocumentStore(join(dir, 'read.db'));
  });

  /** The runner on this spec's stores, with the discovered reactors and the projections given. */
  const runnerOf = (discovery: DiscoveryService, projections: ProjectionRunner) => {
    const upcasters = new Upcasters();
    const leases = workLeasesOn(readStore);
    const clock = new SystemClock();
    const runner = new ReactorRunner(discovery, events, readStore, upcasters, projections, true, new CommandRunner(events, clock, upcasters), clock, leases);
    return { runner, leases };
  };

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
    const projections = {
      caughtUpAtStart: new Promise<void>((resolve) => (caughtUp = resolve)),
      projected: async () => undefined,
    } as unknown as ProjectionRunner;
    const { runner, leases } = runnerOf(discovery, projections);

    const started = runner.start();
    try {
      await new Promise((r) => setTimeout(r, 100));
      expect(seen).toEqual([]);

      caughtUp();
      await started;
      for (const deadline = Date.now() + 2000; seen.length === 0 && Date.now() < deadline;) await new Promise((r) => setTimeout(r, 10));
      expect(seen).toEqual(['lead-1']);
    } finally {
      caughtUp();
      await started;
      await runner.onModuleDestroy();
      await leases.onModuleDestroy();
    }
  });

  it("parks a failing campaign's events, goes on with the others, and handles the parked ones in order once they succeed, each try as of its event", async () => {
    const lead = (campaign: number, n: number) => ({ type: 'LeadCreated', data: { campaign_id: campaign, n } });
    await events.append('lead-1', [lead(1, 1), lead(2, 1), lead(1, 2), lead(2, 2), lead(1, 3)], 'no_stream');
    const seen: string[] = [];
    const parkedNotes: string[] = [];
    let poisoned = true;
    const reactor: Reactor = {
      name: 'picky',
      eventTypes: ['LeadCreated'],
      react: async (e: RecordedEvent) => {
        if (!settled.has(e.position)) readUnsettled.push(e.position);
        settled.delete(e.position);
        if (poisoned && e.data.campaign_id === 1) throw new Error(`campaign 1 cannot be handled`);
        seen.push(`${e.data.campaign_id}.${e.data.n}`);
      },
      onParked: async (e: RecordedEvent, error: string) => void parkedNotes.push(`${e.data.campaign_id}.${e.data.n}: ${error}`),
    };
    const discovery = { getProviders: () => [{ instance: reactor }] } as unknown as DiscoveryService;
    // Each try of an event, parked ones' included, reads the read models only once they reached it.
    const settled = new Set<number>();
    const readUnsettled: number[] = [];
    let settles = 0;
    const projected = async (position: number) => {
      settles++;
      settled.add(position);
    };
    const projections = { caughtUpAtStart: Promise.resolve(), projected } as unknown as ProjectionRunner;
    const { runner, leases } = runnerOf(discovery, projections);
    const until = async (check: () => boolean | Promise<boolean>) => {
      for (const deadline = Date.now() + 5000; !(await check()) && Date.now() < deadline;) await new Promise((r) => setTimeout(r, 10));
    };
    // Every look at the parked events after the first reads only what was appended since.
    const readsFromStart: number[] = [];
    const readStream = events.readStream.bind(events);
    jest.spyOn(events, 'readStream').mockImplementation(async (stream, from) => {
      if (stream === 'reactor_parked-picky' && !from) readsFromStart.push(Date.now());
      return readStream(stream, from);
    });
    await runner.start();
    try {
      await until(() => seen.length === 2);
      expect(seen).toEqual(['2.1', '2.2']);
      // Only the first failure is the campaign's news; the later events queue behind it untried.
      expect(parkedNotes).toEqual(['1.1: campaign 1 cannot be handled']);
      // Four retry ticks with the partition still parked.
      await new Promise((r) => setTimeout(r, 2000));
      poisoned = false;
      await until(() => seen.length === 5);
      expect(seen).toEqual(['2.1', '2.2', '1.1', '1.2', '1.3']);
      // A recovery is written once its reaction has returned: the last may follow `seen` by a moment.
      await until(async () => (await readStream('reactor_parked-picky')).filter((e) => e.type === 'ReactorEventRecovered').length === 3);
      const trail = (await events.readStream('reactor_parked-picky')).map((e) => e.type);
      expect(trail.filter((t) => t === 'ReactorEventParked')).toHaveLength(3);
      expect(trail.filter((t) => t === 'ReactorEventRecovered')).toHaveLength(3);
      expect(readUnsettled).toEqual([]);
      expect(settles).toBeGreaterThan(5);
      expect(readsFromStart.length).toBeLessThanOrEqual(4);
    } finally {
      await runner.onModuleDestroy();
      await leases.onModuleDestroy();
    }
  });

  it('waits through a projection lag many times the read-your-writes bound: nothing parked, the event handled as soon as the lag ends', async () => {
    await events.append('lead-1', [{ type: 'LeadCreated', data: { campaign_id: 1 } }], 'no_stream');
    const handledAt: number[] = [];
    const reactor: Reactor = { name: 'patient', eventTypes: ['LeadCreated'], react: async () => void handledAt.push(Date.now()) };
    const discovery = { getProviders: () => [{ instance: reactor }] } as unknown as DiscoveryService;
    // The real wait of ProjectionRunner over projections that time out (50 ms bounds) for 1.5 s: 30 bounds of lag.
    const lagEndsAt = Date.now() + 1500;
    let timeouts = 0;
    const projections = {
      caughtUpAtStart: Promise.resolve(),
      stopped: false,
      waitFor: async () => {
        await new Promise((r) => setTimeout(r, 50));
        if (Date.now() < lagEndsAt) timeouts++;
        return Date.now() >= lagEndsAt;
      },
      projected: ProjectionRunner.prototype.projected,
      get isStopped() {
        return false;
      },
    } as unknown as ProjectionRunner;
    const { runner, leases } = runnerOf(discovery, projections);
    await runner.start();
    try {
      for (const deadline = Date.now() + 5000; !handledAt.length && Date.now() < deadline;) await new Promise((r) => setTimeout(r, 10));
      expect(timeouts).toBeGreaterThanOrEqual(20);
      expect(handledAt).toHaveLength(1);
      expect(handledAt[0] - lagEndsAt).toBeLessThan(1000);
      expect(await events.readStream('reactor_parked-patient')).toEqual([]);
    } finally {
      await runner.onModuleDestroy();
      await leases.onModuleDestroy();
    }
  });
});
