import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DomainEvent } from '../../shared/event-sourcing/decider';
import { declareFields } from '../../shared/event-sourcing/event-fields';
import { RecordedEvent } from '../../shared/ports/event-store.port';
import { ERASED, withPersonalSealed } from '../../shared/sealing/personal-fields';
import { MasterKey } from '../../shared/sealing/master-keys';
import { Sealer } from '../../shared/sealing/sealer';
import '../../shared/sealing/subject-erased.event';
import { SqliteEventStore } from '../event-store/sqlite-event-store';
import { OpenedReadAhead } from './opened-read-ahead';
import { OpeningEventStore } from './opening-event-store';
import { SqliteKeyStore } from './sqlite-key-store';

type Called = DomainEvent<'SpecReadAheadCalled', { phone_number: string; notes: string; attempt: number }>;
declareFields<Called>({ SpecReadAheadCalled: { phone_number: 'subject', notes: 'personal', attempt: 'plain' } });

// The thread runs the compiled build (`npm test` builds it first): under ts-jest there is no script of its own.
const SCRIPT = join(__dirname, '../../../dist/infrastructure/sealing/opened-reads.worker.js');
const ORGANISATION = 3;
const ERASED_NUMBER = '+14155550101';
const NUMBERS = [ERASED_NUMBER, '+14155550102', '+14155550103'];

describe('OpenedReadAhead: a rebuild reads and opens the log on a thread of its own', () => {
  let dir: string;
  let master: MasterKey;
  let keys: SqliteKeyStore;
  let inner: SqliteEventStore;
  let sealer: Sealer;
  let ahead: OpenedReadAhead | undefined;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'read-ahead-'));
    master = { id: 'k1', key: randomBytes(32) };
    keys = new SqliteKeyStore(join(dir, 'keys.db'));
    sealer = new Sealer(keys, [master]);
    await sealer.start();
    inner = new SqliteEventStore(join(dir, 'events.db'));
  });
  afterEach(async () => {
    await ahead?.close();
    ahead = undefined;
    await inner.close();
    await keys.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Given: 13 calls of three people, the first person erased after their fourth, then two more calls of theirs. */
  const given = async () => {
    const call = async (number: string, attempt: number) => {
      const { data } = await withPersonalSealed(
        'SpecReadAheadCalled',
        { phone_number: number, notes: `said ${attempt}`, attempt },
        ORGANISATION,
        undefined,
        sealer,
        new Date(),
      );
      await inner.append(`call-${attempt}`, [{ type: 'SpecReadAheadCalled', data }], 'no_stream');
    };
    for (let attempt = 0; attempt < 11; attempt++) await call(NUMBERS[attempt % 3], attempt);
    const subject_key = sealer.subjectKeyId(ORGANISATION, ERASED_NUMBER);
    await sealer.eraseSubject(subject_key);
    const erasure = { erasure_id: 1, user_id: ORGANISATION, subject_key, leads: [], contacts: [], calls: [], import_rows: [] };
    await inner.append(
      'erasure-1',
      [{ type: 'SubjectErased', data: { ...erasure, requested_by: { type: 'user', id: 1 }, completed_at: new Date().toISOString() } }],
      'no_stream',
    );
    await call(ERASED_NUMBER, 11);
    await call(ERASED_NUMBER, 12);
  };

  /** A reader of its own on the same files, as a rebuild's process has. */
  const reader = async (withThread: boolean) => {
    const own = new Sealer(keys, [master]);
    await own.start();
    if (withThread) ahead = new OpenedReadAhead(SCRIPT, { events: join(dir, 'events.db'), keys: join(dir, 'keys.db') }, [master]);
    return new OpeningEventStore(inner, own, withThread ? ahead : undefined);
  };

  const inBatches = async (events: OpeningEventStore, size: number) => {
    const read: RecordedEvent[][] = [];
    let after = 0;
    for (;;) {
      const batch = await events.readAll(after, size);
      read.push(batch);
      if (batch.length < size) return read;
      after = batch[batch.length - 1].position;
    }
  };

  it('answers every batch as the main thread opens it: values opened, the erased person’s [erased]', async () => {
    expect(existsSync(SCRIPT)).toBe(true);
    await given();
    const threaded = await reader(true);
    const asked = jest.spyOn(ahead!, 'readAll');
    const onThread = await inBatches(threaded, 5);
    const here = await inBatches(await reader(false), 5);
    expect(asked).toHaveBeenCalledTimes(3);
    expect(onThread.map((batch) => batch.length)).toEqual([5, 5, 4]);
    expect(onThread).toEqual(here);
    const notes = onThread.flat().flatMap((event) => (event.type === 'SpecReadAheadCalled' ? [[event.data.phone_number, event.data.notes]] : []));
    expect(notes.filter(([number]) => number === ERASED)).toHaveLength(6);
    expect(notes).toContainEqual([NUMBERS[1], 'said 1']);
    expect(JSON.stringify(onThread)).not.toContain(ERASED_NUMBER);
  });

  it('answers a read elsewhere than the batch it read ahead, and a read with types on this thread', async () => {
    await given();
    const events = await reader(true);
    const positions = async (after: number, size: number) => (await events.readAll(after, size)).map((event) => event.position);
    expect(await positions(0, 4)).toEqual([1, 2, 3, 4]);
    expect(await positions(2, 3)).toEqual([3, 4, 5]);
    expect(await positions(5, 4)).toEqual([6, 7, 8, 9]);
    expect(await positions(9, 4)).toEqual([10, 11, 12, 13]);
    expect(await positions(13, 4)).toEqual([14]);
    expect((await events.readAll(0, 100, ['SubjectErased'])).map((event) => event.position)).toEqual([12]);
  });

  it('fails the read with the reason when the thread cannot start', async () => {
    mkdirSync(join(dir, 'not-a-file'));
    ahead = new OpenedReadAhead(SCRIPT, { events: join(dir, 'events.db'), keys: join(dir, 'not-a-file') }, [master]);
    await expect(ahead.readAll(0, 10)).rejects.toThrow(/The reading thread did not start: /);
    // Closed after the thread is gone: no wait for an exit already past.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await ahead.close();
    ahead = undefined;
  });
});
