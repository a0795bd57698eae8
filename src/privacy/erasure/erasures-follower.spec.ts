import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DomainEvent } from '../../shared/event-sourcing/decider';
import { declareFields } from '../../shared/event-sourcing/event-fields';
import { ERASED, withPersonalSealed } from '../../shared/sealing/personal-fields';
import { MasterKey } from '../../shared/sealing/master-keys';
import { Sealer } from '../../shared/sealing/sealer';
import '../../shared/sealing/subject-erased.event';
import { SqliteEventStore } from '../../infrastructure/event-store/sqlite-event-store';
import { ErasuresFollower } from './erasures-follower';
import { OpeningEventStore } from '../../infrastructure/sealing/opening-event-store';
import { SqliteKeyStore } from '../../infrastructure/sealing/sqlite-key-store';

type Called = DomainEvent<'SpecPersonCalled', { phone_number: string; notes: string }>;
declareFields<Called>({ SpecPersonCalled: { phone_number: 'subject', notes: 'personal' } });

const ORGANISATION = 7;
const NUMBER = '+14155550123';

/** One instance of the service as far as sealing goes: its own connections to the shared files, its own sealer and memory of keys. */
async function instance(dir: string, master: MasterKey) {
  const keys = new SqliteKeyStore(join(dir, 'keys.db'));
  const sealer = new Sealer(keys, [master]);
  await sealer.start();
  const inner = new SqliteEventStore(join(dir, 'events.db'), { pollIntervalMs: 10 });
  const events = new OpeningEventStore(inner, sealer);
  const follower = new ErasuresFollower(events, sealer, true);
  const called = async (notes: string) => {
    const { data } = await withPersonalSealed('SpecPersonCalled', { phone_number: NUMBER, notes }, ORGANISATION, undefined, sealer, new Date());
    await events.append(`person-${notes}`, [{ type: 'SpecPersonCalled', data }], 'any');
  };
  const notes = async () => (await events.readAll(0, 100, ['SpecPersonCalled'])).map((event) => event.data.notes);
  const close = async () => {
    await follower.stop();
    await events.close();
    await keys.close();
  };
  return { sealer, events, follower, called, notes, close };
}

describe('ErasuresFollower: a key another instance destroyed', () => {
  let dir: string;
  let instances: Array<{ close(): Promise<void> }>;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'erasures-'));
    instances = [];
  });
  afterEach(async () => {
    for (const one of instances) await one.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const given = async () => {
    const master = { id: 'k1', key: randomBytes(32) };
    const a = await instance(dir, master);
    const b = await instance(dir, master);
    instances.push(a, b);
    await a.called('before');
    // B has read the person's values: it holds their key in memory.
    expect(await b.notes()).toEqual(['before']);
    const erase = async () => {
      const subject_key = a.sealer.subjectKeyId(ORGANISATION, NUMBER);
      await a.sealer.eraseSubject(subject_key);
      const data = {
        erasure_id: 1,
        user_id: ORGANISATION,
        subject_key,
        leads: [],
        contacts: [],
        calls: [],
        import_rows: [],
        requested_by: { type: 'user', id: 1 },
        completed_at: new Date().toISOString(),
      };
      await a.events.append('erasure-1', [{ type: 'SubjectErased', data }], 'any');
    };
    return { a, b, erase };
  };

  it('is dropped from a following instance as soon as the erasure is in the log, not a minute later', async () => {
    const { a, b, erase } = await given();
    await b.follower.follow();
    await erase();
    expect(await a.notes()).toEqual([ERASED]);
    for (let waited = 0; (await b.notes())[0] !== ERASED && waited < 2000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await b.notes()).toEqual([ERASED]);
  });

  it('is dropped by a reader in the log’s order where the erasure stands: what it sealed later with the key it held opens to nothing', async () => {
    const { b, erase } = await given();
    await erase();
    // Not following yet: B still holds the key and seals with it (as it could for a moment).
    await b.called('after');
    const read = await b.events.readAll(0, 100);
    expect(read.map((event) => [event.type, event.data.notes])).toEqual([
      ['SpecPersonCalled', 'before'],
      ['SubjectErased', undefined],
      ['SpecPersonCalled', ERASED],
    ]);
  });
});
