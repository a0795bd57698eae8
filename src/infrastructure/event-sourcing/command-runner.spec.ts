import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../shared/clock';
import { DomainError } from '../../shared/domain-error';
import { ConcurrencyError } from '../../shared/ports/event-store.errors';
import { EventStore } from '../../shared/ports/event-store.port';
import { SqliteEventStore } from '../event-store/sqlite-event-store';
import { asSystem, inContext } from '../../shared/event-sourcing/actor';
import { CommandRunner } from './command-runner';
import { Decider, DomainEvent } from '../../shared/event-sourcing/decider';
import { Upcasters } from './upcasters';

type Counted = DomainEvent<'Counted', { by: number }>;
type Command = { by: number; max?: number; below?: number };
const counter: Decider<Command, { total: number }, Counted> = {
  initialState: { total: 0 },
  decide: (command, state) => {
    if (command.max !== undefined && state.total + command.by > command.max) throw DomainError.validation('by', 'too much');
    if (command.below !== undefined && state.total >= command.below) return [];
    return command.by === 0 ? [] : [{ type: 'Counted', data: { by: command.by } }];
  },
  evolve: (state, event) => ({ total: state.total + event.data.by }),
};

describe('CommandRunner', () => {
  let dir: string;
  let store: EventStore;
  let clock: ManualClock;
  let upcasters: Upcasters;
  let runner: CommandRunner;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'runner-'));
    store = new SqliteEventStore(join(dir, 'events.db'));
    clock = new ManualClock(new Date('2025-03-01T10:00:00Z'));
    upcasters = new Upcasters();
    runner = new CommandRunner(store, clock, upcasters);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads, folds, decides and appends with the time of the clock and the given metadata', async () => {
    await runner.run('counter-1', counter, { by: 2 });
    clock.advance(1000);
    const result = await runner.run('counter-1', counter, { by: 3 }, { metadata: { user_id: 9 } });
    expect(result.state).toEqual({ total: 5 });
    expect(result.revision).toBe(1);
    const events = await store.readStream('counter-1');
    expect(events[1].occurredAt).toBe('2025-03-01T10:00:01.000Z');
    expect(events[1].metadata.user_id).toBe(9);
    expect(result.position).toBe(events[1].position);
    expect(result.occurredAt).toBe(events[1].occurredAt);
  });

  describe('stamps every event with the organisation and the actor (docs/teams.md)', () => {
    const stamps = async (stream: string) =>
      (await store.readStream(stream)).map((e) => ({ organisation: e.metadata.organisation_id, actor: e.metadata.actor }));

    it("in a request: the caller's organisation and the caller, with nothing passed by the handler", async () => {
      await inContext({ organisationId: 5, actor: { type: 'user', id: 9 } }, () => runner.run('counter-1', counter, { by: 1 }));
      expect(await stamps('counter-1')).toEqual([{ organisation: 5, actor: { type: 'user', id: 9 } }]);
    });

    it("as the system: the stream's organisation, from its stored events or from a state it remembers", async () => {
      await inContext({ organisationId: 5, actor: { type: 'api_key', id: 3 } }, () => runner.run('counter-1', counter, { by: 1 }));
      await asSystem(() => runner.run('counter-1', counter, { by: 1 }));
      await asSystem(() => new CommandRunner(store, clock, upcasters).run('counter-1', counter, { by: 1 }));
      expect((await stamps('counter-1')).slice(1)).toEqual([
        { organisation: 5, actor: undefined },
        { organisation: 5, actor: undefined },
      ]);
    });

    it('as the system on a new stream: the organisation its events name, or none', async () => {
      const named: Decider<Command, object, DomainEvent<'Opened', { user_id: number }>> = {
        initialState: {},
        decide: () => [{ type: 'Opened', data: { user_id: 4 } }],
        evolve: (state) => state,
      };
      await asSystem(() => runner.run('thing-1', named, { by: 1 }));
      await asSystem(() => runner.run('counter-2', counter, { by: 1 }));
      expect(await stamps('thing-1')).toEqual([{ organisation: 4, actor: undefined }]);
      expect(await stamps('counter-2')).toEqual([{ organisation: undefined, actor: undefined }]);
    });

    it('a reaction for an organisation stamps it, whatever the stream held', async () => {
      await asSystem(() => runner.run('counter-1', counter, { by: 1 }), 7);
      expect(await stamps('counter-1')).toEqual([{ organisation: 7, actor: undefined }]);
    });
  });

  it('appends nothing when the decision is empty', async () => {
    const result = await runner.run('counter-1', counter, { by: 0 });
    expect(result).toMatchObject({ events: [], position: null, revision: null });
    expect(await store.readStream('counter-1')).toEqual([]);
  });

  it('lets a domain refusal through and writes nothing', async () => {
    await expect(runner.run('counter-1', counter, { by: 5, max: 4 })).rejects.toThrow(DomainError);
    expect(await store.headPosition()).toBe(0);
  });

  /** A store that lets another writer slip in between the read and the append, `times` times. */
  const racing = (times: number): EventStore => {
    let left = times;
    return new Proxy(store, {
      get(target, prop, receiver) {
        if (prop === 'append') {
          return async (...args: Parameters<EventStore['append']>) => {
            if (left-- > 0) await target.append(args[0], [{ type: 'Counted', data: { by: 100 } }], 'any');
            return target.append(...args);
          };
        }
        const value = Reflect.get(target, prop, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  };

  it('decides again on the fresh state after a conflict, when retries are allowed', async () => {
    const result = await new CommandRunner(racing(2), clock, upcasters).run('counter-1', counter, { by: 1, max: 1000 }, { retries: 3 });
    expect(result.state.total).toBe(201);
  });

  it('after a conflict reads only what others appended since the state it decided from, not the stream from its start', async () => {
    const writes = new CommandRunner(store, clock, upcasters);
    for (let i = 0; i < 50; i++) await writes.run('counter-1', counter, { by: 1 });
    const reads = jest.spyOn(store, 'readStream');
    const result = await new CommandRunner(racing(3), clock, upcasters).run('counter-1', counter, { by: 1, max: 10_000 }, { retries: 5 });
    expect(result.state.total).toBe(351);
    // One read of the whole stream for a runner that knew nothing of it, then only tails.
    expect(reads.mock.calls.map(([, from]) => from ?? 0)).toEqual([0, 50, 51, 52]);
    reads.mockRestore();
  });

  it('runs commands given at once on one stream one after the other: none meets a conflict, each decides from the one before', async () => {
    await runner.run('counter-1', counter, { by: 1 });
    const appends = jest.spyOn(store, 'append');
    const results = await Promise.all(
      Array.from({ length: 10 }, () => runner.run('counter-1', counter, { by: 1, max: 8 }, { retries: 0 }).catch((e: Error) => e)),
    );
    expect(results.filter((r) => r instanceof DomainError)).toHaveLength(3);
    expect(results.filter((r) => !(r instanceof Error)).map((r) => (r as { revision: number }).revision)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(appends).toHaveBeenCalledTimes(7);
    appends.mockRestore();
  });

  it('refuses on the first conflict when the command allows no retry, and re-checks the rule on retry', async () => {
    await expect(new CommandRunner(racing(1), clock, upcasters).run('counter-1', counter, { by: 1 }, { retries: 0 })).rejects.toBeInstanceOf(ConcurrencyError);
    // The winner took the room; deciding again on the fresh state refuses the command.
    await expect(new CommandRunner(racing(1), clock, upcasters).run('counter-2', counter, { by: 1, max: 50 }, { retries: 1 })).rejects.toThrow(DomainError);
  });

  describe('on a stream it wrote recently', () => {
    const reads = () => jest.spyOn(store, 'readStream');

    it('decides from the state it left the stream in, without reading it again', async () => {
      await runner.run('counter-1', counter, { by: 2 });
      const spy = reads();
      const result = await runner.run('counter-1', counter, { by: 3 });
      expect(spy).not.toHaveBeenCalled();
      expect(result).toMatchObject({ state: { total: 5 }, revision: 1 });
      expect(await runner.load('counter-1', counter)).toEqual({ state: { total: 5 }, revision: 1 });
    });

    it('reads the stream again when another writer moved it on', async () => {
      await runner.run('counter-1', counter, { by: 1 });
      await store.append('counter-1', [{ type: 'Counted', data: { by: 100 } }], 'any');
      const result = await runner.run('counter-1', counter, { by: 1 }, { retries: 1 });
      expect(result).toMatchObject({ state: { total: 102 }, revision: 2 });
    });

    it('checks a refusal against the stored stream before it refuses', async () => {
      await runner.run('counter-1', counter, { by: 5 });
      await store.append('counter-1', [{ type: 'Counted', data: { by: -5 } }], 'any');
      const result = await runner.run('counter-1', counter, { by: 3, max: 4 });
      expect(result.state.total).toBe(3);
      await expect(runner.run('counter-1', counter, { by: 3, max: 4 })).rejects.toThrow(DomainError);
    });

    it('checks an empty decision against the stored stream before it decides nothing', async () => {
      await runner.run('counter-1', counter, { by: 5 });
      await store.append('counter-1', [{ type: 'Counted', data: { by: -5 } }], 'any');
      const result = await runner.run('counter-1', counter, { by: 1, below: 5 });
      expect(result).toMatchObject({ state: { total: 1 }, revision: 2 });
      expect(await runner.run('counter-1', counter, { by: 1, below: 1 })).toMatchObject({ events: [], position: null, revision: 2 });
    });

    const readFrom = (spy: jest.SpyInstance) => spy.mock.calls.map(([, from]) => from ?? 0);

    it('for a command allowed no retry, whose conflict is a refusal, reads what was appended since the state it remembers', async () => {
      await runner.run('counter-1', counter, { by: 1 });
      const spy = reads();
      await runner.run('counter-1', counter, { by: 1 }, { retries: 0 });
      await store.append('counter-1', [{ type: 'Counted', data: { by: 100 } }], 'any');
      expect((await runner.run('counter-1', counter, { by: 1 }, { retries: 0 })).state.total).toBe(103);
      expect(readFrom(spy)).toEqual([1, 2]);
    });

    it('for a command allowed no retry, reads the whole stream before it refuses', async () => {
      await runner.run('counter-1', counter, { by: 5 });
      const spy = reads();
      await expect(runner.tryRun('counter-1', counter, { by: 3, max: 4 })).rejects.toThrow(DomainError);
      expect(readFrom(spy)).toEqual([1, 0]);
    });

    it("for a check that writes nothing, reads only what was appended since, another writer's events among them", async () => {
      await runner.run('counter-1', counter, { by: 2 });
      await store.append('counter-1', [{ type: 'Counted', data: { by: 100 } }], 'any');
      const spy = reads();
      expect(await runner.current('counter-1', counter)).toEqual({ state: { total: 102 }, revision: 1 });
      expect(await runner.current('counter-1', counter)).toEqual({ state: { total: 102 }, revision: 1 });
      expect(readFrom(spy)).toEqual([1, 2]);
      expect(await new CommandRunner(store, clock, upcasters).current('counter-1', counter)).toEqual({ state: { total: 102 }, revision: 1 });
      expect(readFrom(spy)).toEqual([1, 2, 0]);
    });
  });

  describe('on a stream expected new', () => {
    it('decides from the initial state without reading, and appends expecting no stream', async () => {
      const spy = jest.spyOn(store, 'readStream');
      const result = await runner.run('counter-1', counter, { by: 2 }, { retries: 0, newStream: true });
      expect(spy).not.toHaveBeenCalled();
      expect(result).toMatchObject({ state: { total: 2 }, revision: 0 });
    });

    it('meets a stream that exists as a conflict: refused with no retry, null from tryRun', async () => {
      await store.append('counter-1', [{ type: 'Counted', data: { by: 100 } }], 'no_stream');
      await expect(runner.run('counter-1', counter, { by: 1 }, { retries: 0, newStream: true })).rejects.toThrow(ConcurrencyError);
      expect(await runner.tryRun('counter-1', counter, { by: 1 }, { newStream: true })).toBeNull();
      expect(await runner.load('counter-1', counter)).toEqual({ state: { total: 100 }, revision: 0 });
    });

    it('reads the stream after such a conflict when retries are allowed', async () => {
      await store.append('counter-1', [{ type: 'Counted', data: { by: 100 } }], 'no_stream');
      const result = await runner.run('counter-1', counter, { by: 1 }, { retries: 1, newStream: true });
      expect(result).toMatchObject({ state: { total: 101 }, revision: 1 });
    });
  });

  it('folds events stored in an older shape through the upcasters', async () => {
    await store.append('counter-1', [{ type: 'Counted', data: { amount: 4 }, schemaVersion: 1 }], 'no_stream');
    upcasters.register('Counted', 1, (data: { amount: number }) => ({ by: data.amount }));
    const result = await runner.run('counter-1', counter, { by: 1 });
    expect(result.state.total).toBe(5);
    const stored = await store.readStream('counter-1');
    expect(stored[1].schemaVersion).toBe(2);
  });
});
