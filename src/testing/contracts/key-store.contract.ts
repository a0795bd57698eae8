import { KeyStore, StoredDataKey } from '../../shared/ports/key-store.port';

const key = (id: string, wrapped = `wrapped-${id}`): StoredDataKey => ({
  id,
  master_id: 'k1',
  wrapped,
  purpose: 'secrets',
  created_at: `2026-01-01T00:00:0${id.length % 10}.000Z`,
});

/** What every key store adapter does alike (docs/privacy.md). */
export function keyStoreContract(name: string, open: () => Promise<KeyStore>, afterDestroy?: (store: KeyStore, destroyed: string) => Promise<void>) {
  describe(`${name} key store contract`, () => {
    let store: KeyStore;
    beforeEach(async () => (store = await open()));
    afterEach(() => store.close());

    it('adds a key once: a second add of its id answers the first', async () => {
      expect(await store.add(key('dk_a', 'first'))).toEqual(key('dk_a', 'first'));
      expect(await store.add(key('dk_a', 'second'))).toEqual(key('dk_a', 'first'));
      expect(await store.get('dk_a')).toEqual(key('dk_a', 'first'));
      expect(await store.get('dk_none')).toBeNull();
    });

    it('lists the keys of other purposes and the master keys in use, without reading every subject key', async () => {
      await store.add(key('dk_s'));
      await store.add({ ...key('ds_p'), master_id: 'k2', purpose: 'subject' });
      await store.erase('ds_gone', '2026-02-01T00:00:00.000Z');
      const others = (await store.allBut(['subject', 'erased'])).map((k) => k.id);
      expect(others).toContain('dk_s');
      expect(others).not.toContain('ds_p');
      expect(others).not.toContain('ds_gone');
      expect((await store.masterIds()).sort()).toEqual(['k1', 'k2']);
    });

    it('reads many keys at once, leaving out those not stored', async () => {
      await store.add(key('dk_m1'));
      await store.add(key('dk_m2'));
      expect(await store.getMany([])).toEqual([]);
      const many = await store.getMany(['dk_m2', 'dk_none', 'dk_m1']);
      expect(many.sort((a, b) => a.id.localeCompare(b.id))).toEqual([key('dk_m1'), key('dk_m2')]);
    });

    it('replaces a key rewrapped under another master key, and lists them all', async () => {
      await store.add(key('dk_b'));
      await store.replace({ ...key('dk_b'), master_id: 'k2', wrapped: 'rewrapped' });
      expect(await store.get('dk_b')).toMatchObject({ master_id: 'k2', wrapped: 'rewrapped' });
      expect((await store.all()).map((k) => k.id)).toContain('dk_b');
    });

    it('destroys for good the keys between two names, compared as text, the first included and the last not', async () => {
      const ids = ['dr_1_a_202601010000', 'dr_1_a_202601010010', 'dr_1_a_202601020000', 'dr_1_b_202601010010', 'dr_11_a_202601010010'];
      for (const id of ids) await store.add(key(id, `wrapped-secret-material-${id}`));
      expect(await store.destroyBetween('dr_1_a_202601010000', 'dr_1_a_202601020000')).toBe(2);
      expect(await store.destroyBetween('dr_2_', 'dr_3_')).toBe(0);
      const left = (await store.all()).map((k) => k.id).filter((id) => ids.includes(id));
      expect(left.sort()).toEqual(['dr_11_a_202601010010', 'dr_1_a_202601020000', 'dr_1_b_202601010010']);
      await afterDestroy?.(store, 'wrapped-secret-material-dr_1_a_202601010010');
    });

    it("erases a subject's key: a tombstone of its id in its place, nothing wrapped, its bytes gone", async () => {
      await store.add({ ...key('ds_e', 'wrapped-secret-material-e'), purpose: 'subject' });
      await store.erase('ds_e', '2026-02-01T00:00:00.000Z');
      await store.erase('ds_never', '2026-02-01T00:00:00.000Z');
      expect(await store.get('ds_e')).toMatchObject({ id: 'ds_e', wrapped: '', purpose: 'erased' });
      expect(await store.get('ds_never')).toMatchObject({ id: 'ds_never', wrapped: '', purpose: 'erased', created_at: '2026-02-01T00:00:00.000Z' });
      expect((await store.add({ ...key('ds_e', 'a-new-key'), purpose: 'subject' })).purpose).toBe('erased');
      await afterDestroy?.(store, 'wrapped-secret-material-e');
    });
  });
}
