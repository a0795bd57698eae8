import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SqliteKeyStore } from '../../infrastructure/sealing/sqlite-key-store';
import { madeInTempDirForEachTest } from '../../testing/temp-dir';
import { MasterKeys } from './master-keys';
import { retentionKeyIdAt } from './sealed-values';
import { ERASED_PURPOSE, SubjectKeys } from './subject-keys';

const NOW = new Date('2026-03-01T10:00:00Z');
const TEN_MINUTES = 10 * 60_000;

/** Two instances' keys on one key store, as two services sharing a DATA_DIR or a MongoDB hold them. */
const given = madeInTempDirForEachTest(
  'subject-keys-',
  async (dir) => {
    const store = new SqliteKeyStore(join(dir, 'keys.db'));
    const masters = new MasterKeys([{ id: 'k1', key: randomBytes(32) }]);
    const instance = () => new SubjectKeys(store, masters, () => NOW);
    return { store, one: instance(), other: instance() };
  },
  ({ store }) => store.close(),
);

describe('SubjectKeys', () => {
  it('makes a subject key at its first value and stores it wrapped: another instance reads the same key, none is in a file', async () => {
    const { one, other, store, dir } = given();
    const key = await one.key('ds_ada', true);
    expect(key).toHaveLength(32);
    expect(await other.key('ds_ada', false)).toEqual(key);
    expect(await store.get('ds_ada')).toMatchObject({ master_id: 'k1', purpose: 'subject' });
    for (const file of readdirSync(dir)) expect(readFileSync(join(dir, file)).includes(key!)).toBe(false);
  });

  it('two instances making the same subject key at once agree on the one stored first', async () => {
    const { one, other } = given();
    const [mine, theirs] = await Promise.all([one.key('ds_ada', true), other.key('ds_ada', true)]);
    expect(mine).toEqual(theirs);
  });

  it('an erased subject has no key on this instance at once, and none is made again for it', async () => {
    const { one, other, store } = given();
    await one.key('ds_ada', true);
    await one.erase('ds_ada');
    expect(one.heldNow('ds_ada')).toBeNull();
    expect(await other.key('ds_ada', true)).toBeNull();
    expect(await store.get('ds_ada')).toMatchObject({ purpose: ERASED_PURPOSE, wrapped: '' });
  });

  it('another instance holding the key drops it when it sees the erasure in the log; one that did not see it yet still holds it', async () => {
    const { one, other } = given();
    await one.key('ds_ada', true);
    await one.key('ds_bob', true);
    await other.key('ds_ada', false);
    await other.key('ds_bob', false);
    await one.erase('ds_ada');
    await one.erase('ds_bob');
    other.forgetErasedIn({ type: 'SubjectErased', data: { subject_key: 'ds_ada' } });
    expect(other.heldNow('ds_ada')).toBeNull();
    expect(other.heldNow('ds_bob')).toHaveLength(32);
  });

  it('prefetches the subject keys not held in one read; a key named and not stored is known destroyed, other ids are left alone', async () => {
    const { one, other, store } = given();
    await one.key('ds_ada', true);
    const getMany = jest.spyOn(store, 'getMany');
    await other.prefetch(['ds_ada', 'ds_gone', 'dk_secrets', 'ds_ada']);
    expect(getMany).toHaveBeenCalledTimes(1);
    expect(getMany.mock.calls[0][0]).toEqual(['ds_ada', 'ds_gone']);
    expect(other.heldNow('ds_ada')).toEqual(await one.key('ds_ada', false));
    expect(other.heldNow('ds_gone')).toBeNull();
    expect(other.heldNow('dk_secrets')).toBeUndefined();
    await other.prefetch(['ds_ada', 'ds_gone']);
    expect(getMany).toHaveBeenCalledTimes(1);
  });

  describe('retention', () => {
    const span = (organisationId: number, kind: string, minutesAgo: number) => retentionKeyIdAt(organisationId, kind, NOW.getTime() - minutesAgo * 60_000);

    it("destroys an organisation's span keys of a kind within the range, in the store and held here, and nothing else", async () => {
      const { one, other, store } = given();
      const [old, older, recent, otherKind, otherOrganisation] = [
        span(1, 'transcript', 30),
        span(1, 'transcript', 60),
        span(1, 'transcript', 0),
        span(1, 'recording', 30),
        span(2, 'transcript', 30),
      ];
      for (const id of [old, older, recent, otherKind, otherOrganisation]) await one.key(id, true);
      await other.key(old, false);

      const from = NOW.getTime() - 6 * TEN_MINUTES;
      expect(await one.destroyRetentionKeys(1, 'transcript', from, NOW.getTime())).toBe(2);

      for (const id of [old, older]) {
        expect(one.heldNow(id)).toBeNull();
        expect(await store.get(id)).toBeNull();
      }
      for (const id of [recent, otherKind, otherOrganisation]) expect(await other.key(id, false)).toHaveLength(32);
      // The other instance saw nothing yet: it still holds the key it read (for SUBJECT_KEY_TTL_MS at most)...
      expect(other.heldNow(old)).toHaveLength(32);
      // ...until the sweep's event reaches it.
      other.forgetErasedIn({
        type: 'RetainedValuesErased',
        data: { user_id: 1, kind: 'transcript', from: new Date(from).toISOString(), until: NOW.toISOString() },
      });
      expect(other.heldNow(old)).toBeNull();
      expect(await other.key(recent, false)).toHaveLength(32);
    });
  });
});
