import { Inject, Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../config/app-config';
import { EVENT_STORE, EventStore, RecordedEvent } from '../../shared/ports/event-store.port';
import { SqliteEventStore } from '../event-store/sqlite-event-store';
import { InfrastructureModule } from '../infrastructure.module';
import { Collection, DocumentStore, READ_STORE } from '../../shared/ports/document-store.port';
import { Projection, ReadModelProjection } from './projection';
import { ProjectionRunner } from './projection-runner';
import { ReadModelBehind } from './read-model-behind';

let failNext = 0;
/** The types of the events `TotalsProjection` was handed. */
let handed: string[] = [];

@Projection()
@Injectable()
class TotalsProjection implements ReadModelProjection {
  readonly name = 'totals';
  readonly collections = ['totals'];
  readonly eventTypes = ['Added'];
  readonly totals: Collection<{ stream: string; sum: number }>;
  constructor(@Inject(READ_STORE) store: DocumentStore) {
    this.totals = store.collection('totals');
  }
  async apply(event: RecordedEvent) {
    handed.push(event.type);
    if (failNext > 0) {
      failNext -= 1;
      throw new Error('projection hiccup');
    }
    const current = await this.totals.get(event.stream);
    await this.totals.upsert(event.stream, { stream: event.stream, sum: (current?.sum ?? 0) + event.data.n }, event.position);
  }
}

@Module({ providers: [TotalsProjection] })
class TotalsModule {}

describe('ProjectionRunner', () => {
  let dir: string;
  const boot = async ({ projectAtStart = true, background = true } = {}) => {
    const config = loadConfig({ DATA_DIR: dir, READ_YOUR_WRITES_TIMEOUT_MS: '2000' });
    const moduleRef = await Test.createTestingModule({
      imports: [InfrastructureModule.forRoot({ config, projectAtStart, background }), TotalsModule],
    }).compile();
    moduleRef.enableShutdownHooks();
    await moduleRef.init();
    return {
      moduleRef,
      events: moduleRef.get<EventStore>(EVENT_STORE),
      runner: moduleRef.get(ProjectionRunner),
      totals: moduleRef.get(TotalsProjection).totals,
      reads: moduleRef.get<DocumentStore>(READ_STORE),
    };
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'projections-'));
    failNext = 0;
    handed = [];
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('discovers projections and answers a write only once it is projected (read-your-writes)', async () => {
    const { moduleRef, events, runner, totals } = await boot();
    expect(runner.names()).toEqual(['totals']);
    const { position } = await events.append(
      'sum-a',
      [
        { type: 'Added', data: { n: 2 } },
        { type: 'Added', data: { n: 3 } },
      ],
      'no_stream',
    );
    expect(await runner.waitFor(position)).toBe(true);
    expect(await totals.get('sum-a')).toEqual({ stream: 'sum-a', sum: 5 });
    await moduleRef.close();
  });

  it('hands a projection only the event types it names, and moves its checkpoint past the others too', async () => {
    const { moduleRef, events, runner, reads, totals } = await boot();
    await events.append(
      'sum-c',
      [
        { type: 'Added', data: { n: 4 } },
        { type: 'Renamed', data: { n: 100 } },
      ],
      'no_stream',
    );
    const { position } = await events.append('other-1', [{ type: 'Removed', data: {} }], 'no_stream');
    await runner.settle(position);
    expect(handed).toEqual(['Added']);
    expect(await totals.get('sum-c')).toEqual({ stream: 'sum-c', sum: 4 });
    expect(await reads.getCheckpoint('totals')).toBe(position);
    await moduleRef.close();
  });

  it('writes the checkpoint with the changes and resumes after a restart without applying twice', async () => {
    const first = await boot();
    const a = await first.events.append('sum-a', [{ type: 'Added', data: { n: 1 } }], 'no_stream');
    await first.runner.waitFor(a.position);
    expect(await first.reads.getCheckpoint('totals')).toBe(a.position);
    await first.moduleRef.close();

    // Written while nothing was projecting.
    const offline = await boot();
    await offline.moduleRef.close();
    const second = await boot();
    const b = await second.events.append('sum-a', [{ type: 'Added', data: { n: 10 } }], 0);
    await second.runner.waitFor(b.position);
    expect(await second.totals.get('sum-a')).toEqual({ stream: 'sum-a', sum: 11 });
    await second.moduleRef.close();
  });

  it('retries a failing batch without skipping or doubling an event', async () => {
    const { moduleRef, events, runner, totals } = await boot();
    failNext = 1;
    const { position } = await events.append('sum-b', [{ type: 'Added', data: { n: 7 } }], 'no_stream');
    expect(await runner.waitFor(position, 5000)).toBe(true);
    expect(await totals.get('sum-b')).toEqual({ stream: 'sum-b', sum: 7 });
    await moduleRef.close();
  });

  it('gives up waiting after the bound and says so', async () => {
    const { moduleRef, runner } = await boot();
    expect(await runner.waitFor(10_000, 50)).toBe(false);
    await moduleRef.close();
  });

  it('rebuilds a read model to the same content from the events', async () => {
    const { moduleRef, events, runner, totals } = await boot({ background: false });
    for (let i = 1; i <= 1200; i++) await events.append(`sum-${i % 7}`, [{ type: 'Added', data: { n: i } }], 'any');
    await runner.waitFor(await events.headPosition());
    const before = await totals.find({}, { sort: [['stream', 'asc']] });
    const applied = await runner.rebuild(['totals']);
    expect(applied).toBe(1200);
    expect(await totals.find({}, { sort: [['stream', 'asc']] })).toEqual(before);
    await moduleRef.close();
  });

  it('given events stored before a start that does not project (a rebuild), then none is projected until the rebuild projects them', async () => {
    const before = new SqliteEventStore(join(dir, 'events.db'));
    await before.append('sum-a', [{ type: 'Added', data: { n: 2 } }], 'no_stream');
    await before.close();
    const { moduleRef, runner, reads, totals } = await boot({ projectAtStart: false, background: false });
    expect(await reads.getCheckpoint('totals')).toBe(0);
    expect(await totals.get('sum-a')).toBeNull();
    expect(await runner.rebuild(['totals'])).toBe(1);
    expect(await totals.get('sum-a')).toEqual({ stream: 'sum-a', sum: 2 });
    await moduleRef.close();
  });

  it('projects a projection again from the first event when its version changes', async () => {
    const first = await boot();
    const { position } = await first.events.append('sum-v', [{ type: 'Added', data: { n: 2 } }], 'no_stream');
    await first.runner.settle(position);
    // A document the current shape would not write: only a fresh projection removes it.
    await first.totals.upsert('stale', { stream: 'stale', sum: -1 }, position + 1000);
    await first.moduleRef.close();
    const projection = TotalsProjection.prototype as { version?: number };
    projection.version = 2;
    try {
      const second = await boot();
      expect(await second.totals.get('stale')).toBeNull();
      expect(await second.totals.get('sum-v')).toEqual({ stream: 'sum-v', sum: 2 });
      await second.moduleRef.close();
      const third = await boot();
      await third.totals.upsert('kept', { stream: 'kept', sum: 1 }, position + 2000);
      await third.moduleRef.close();
      const fourth = await boot();
      expect(await fourth.totals.get('kept')).toEqual({ stream: 'kept', sum: 1 });
      await fourth.moduleRef.close();
    } finally {
      delete projection.version;
    }
  });

  it('takes turns with another instance: a batch that instance is running is looked at again, and a write still settles', async () => {
    const { moduleRef, events, runner, totals, reads } = await boot();
    const exclusive = reads.exclusive.bind(reads);
    let busy = 3;
    // As MongoDB's store answers while another instance holds the projections' lease.
    const spy = jest
      .spyOn(reads, 'exclusive')
      .mockImplementation((lock, work) => (busy-- > 0 ? Promise.resolve({ ran: false as const }) : exclusive(lock, work)));
    const { position } = await events.append('sum-t', [{ type: 'Added', data: { n: 5 } }], 'no_stream');
    expect(await runner.waitFor(position)).toBe(true);
    expect(await totals.get('sum-t')).toEqual({ stream: 'sum-t', sum: 5 });
    expect(busy).toBeLessThan(0);
    spy.mockRestore();
    await moduleRef.close();
  });

  it('waits longer between batches while only background work waits, and no more than 2 ms once a request waits', async () => {
    const { moduleRef, events, runner, totals } = await boot({ background: false });
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    try {
      const add = (n: number, expected: number | 'no_stream') => events.append('sum-l', [{ type: 'Added', data: { n } }], expected);
      await runner.settle((await add(1, 'no_stream')).position, { background: true });
      // The batch that projected it found one event: the next waits 20 ms, no answer waiting.
      let projected = false;
      void runner.settle((await add(2, 0)).position, { background: true }).then(() => (projected = true));
      await jest.advanceTimersByTimeAsync(18);
      expect(projected).toBe(false);
      await jest.advanceTimersByTimeAsync(3);
      expect(projected).toBe(true);
      // A request comes to wait during the next 20 ms: the batch runs 2 ms after the last.
      let answered = false;
      void runner.waitFor((await add(3, 1)).position).then(() => (answered = true));
      await jest.advanceTimersByTimeAsync(3);
      expect(answered).toBe(true);
      expect(await totals.get('sum-l')).toEqual({ stream: 'sum-l', sum: 6 });
      // The last wait between batches ends under the fake clock, before the real one is back.
      await jest.advanceTimersByTimeAsync(30);
    } finally {
      jest.useRealTimers();
    }
    await moduleRef.close();
  });

  it('settles a write once projected, and refuses with ReadModelBehind (503) when the read models do not get there in time', async () => {
    const { moduleRef, events, runner } = await boot();
    const { position } = await events.append('sum-s', [{ type: 'Added', data: { n: 1 } }], 'no_stream');
    await expect(runner.settle(position)).resolves.toBeUndefined();
    failNext = 1_000_000;
    const stuck = await events.append('sum-s', [{ type: 'Added', data: { n: 1 } }], 0);
    const refusal = await runner.settle(stuck.position).catch((e) => e);
    expect(refusal).toBeInstanceOf(ReadModelBehind);
    expect(refusal.getStatus()).toBe(503);
    failNext = 0;
    await moduleRef.close();
  });

  it('projects what is stored before it stops, so a write answering during shutdown reads itself', async () => {
    const { moduleRef, events, runner } = await boot();
    // Batches keep failing until the shutdown begins; the event is stored but not projected.
    failNext = 1_000_000;
    const { position } = await events.append('sum-d', [{ type: 'Added', data: { n: 4 } }], 'no_stream');
    const waiting = runner.waitFor(position, 60_000);
    await new Promise((r) => setTimeout(r, 100));
    failNext = 0;
    await moduleRef.close();
    expect(await waiting).toBe(true);
    const reopened = await boot();
    expect(await reopened.totals.get('sum-d')).toEqual({ stream: 'sum-d', sum: 4 });
    await reopened.moduleRef.close();
  });

  it('answers a wait asked after it stopped at once, so a request in flight does not hold up the shutdown', async () => {
    const { moduleRef, events, runner } = await boot();
    await runner.stop();
    const { position } = await events.append('sum-e', [{ type: 'Added', data: { n: 5 } }], 'no_stream');
    const answer = await Promise.race([runner.waitFor(position, 60_000), new Promise((r) => setTimeout(() => r('still waiting'), 1000))]);
    expect(answer).toBe(false);
    await moduleRef.close();
  });
});
