import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventStore } from '../../shared/ports/event-store.port';
import { ID_BLOCK_SIZE, IdBlockStore, IdBlocks } from './id-blocks';
import { SqliteEventStore } from './sqlite-event-store';

describe('IdBlocks: ids from blocks reserved by appends with an expected revision', () => {
  let dir: string;
  const stores: SqliteEventStore[] = [];
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'id-blocks-'))));
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A writer: its own connection to the shared store, counting the appends it made. */
  function writer() {
    const events = new SqliteEventStore(join(dir, 'events.db'));
    stores.push(events);
    let appends = 0;
    const store: IdBlockStore = {
      last: async (stream) => (await events.readStream(stream)).pop() ?? null,
      append: (stream, batch, expected) => {
        appends++;
        return events.append(stream, batch, expected);
      },
    };
    return { ids: new IdBlocks(store), appends: () => appends, events: events as EventStore };
  }

  it('hands out unique ids to writers racing in two processes, with one append per block', async () => {
    const a = writer();
    const b = writer();
    const taken = await Promise.all(Array.from({ length: 1000 }, (_, i) => (i % 2 ? a : b).ids.next('call')));
    expect(new Set(taken).size).toBe(1000);
    const blocks = (await a.events.readStream('sequence-call')).length;
    expect(blocks).toBeLessThanOrEqual(Math.ceil(1000 / ID_BLOCK_SIZE) + 2);
    // Both writers run dry together, so each block may cost the loser one refused append: at
    // most two per block for two writers, where one id per append cost a thousand or more.
    expect(a.appends() + b.appends()).toBeLessThanOrEqual(2 * blocks);
  });

  it('grows within a process and keeps sequences apart', async () => {
    const { ids } = writer();
    const calls = [await ids.next('call'), await ids.next('call'), await ids.next('call')];
    expect(calls).toEqual([1, 2, 3]);
    expect(await ids.next('lead')).toBe(1);
  });

  it('goes on after ids allocated one per event, as streams written before blocks hold them', async () => {
    const { ids, events } = writer();
    await events.append(
      'sequence-call',
      [
        { type: 'IdAllocated', data: { sequence: 'call' } },
        { type: 'IdAllocated', data: { sequence: 'call' } },
      ],
      'no_stream',
    );
    expect(await ids.next('call')).toBe(3);
  });
});
