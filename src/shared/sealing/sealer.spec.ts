import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../config-error';
import { MasterKey } from './master-keys';
import { Sealer } from './sealer';
import { isSealed } from './sealed-values';
import * as aesGcm from './aes-gcm';
import * as xchacha from './xchacha20-poly1305';
import { SqliteKeyStore } from '../../infrastructure/sealing/sqlite-key-store';

const master = (id: string): MasterKey => ({ id, key: randomBytes(32) });

describe('Sealer', () => {
  let dir: string;
  let keys: SqliteKeyStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sealer-'));
    keys = new SqliteKeyStore(join(dir, 'keys.db'));
  });
  afterEach(async () => {
    await keys.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const started = async (...masters: MasterKey[]) => {
    const sealer = new Sealer(keys, masters);
    await sealer.start();
    return sealer;
  };

  it('seals a value under a data key named by id and opens it again; sealing twice leaves it as it was', async () => {
    const sealer = await started(master('k1'));
    const sealed = sealer.seal('whsec_plain');
    expect(sealed).toMatch(/^sealed:v1:dk_secrets:[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('whsec_plain');
    expect(sealer.seal('whsec_plain')).not.toBe(sealed);
    expect(sealer.seal(sealed)).toBe(sealed);
    expect(await sealer.open(sealed)).toBe('whsec_plain');
    expect(await sealer.open('never sealed')).toBe('never sealed');
    expect(isSealed(sealed)).toBe(true);
  });

  it('refuses a sealed value changed by one character (GCM authenticates it)', async () => {
    const sealer = await started(master('k1'));
    const sealed = sealer.seal('token');
    const last = sealed.at(-2) === 'A' ? 'B' : 'A';
    await expect(sealer.open(`${sealed.slice(0, -2)}${last}${sealed.at(-1)}`)).rejects.toThrow();
  });

  it('writes the master key nowhere: the key store holds the data keys wrapped by it', async () => {
    const k1 = master('k1');
    await started(k1);
    expect(await keys.get('dk_secrets')).toMatchObject({ master_id: 'k1', purpose: 'secrets' });
    for (const file of readdirSync(dir)) expect(readFileSync(join(dir, file)).includes(k1.key)).toBe(false);
  });

  it('stops a start whose data keys are wrapped by a master key it was not given, naming it', async () => {
    await started(master('k1'));
    const refused = await started(master('k2')).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ConfigError);
    expect((refused as ConfigError).problems).toEqual(['DATA_KEYS has no key "k1", which data keys in the key store are sealed under']);
  });

  it('rotates: every data key wrapped again under the current master key, so the old one can go', async () => {
    const [k1, k2] = [master('k1'), master('k2')];
    const sealed = (await started(k1)).seal('rotated secret');
    expect(await (await started(k2, k1)).rotate()).toBe(2);
    expect(await (await started(k2, k1)).rotate()).toBe(0);
    expect(await (await started(k2)).open(sealed)).toBe('rotated secret');
  });

  it('two instances starting at once agree on one secrets key, and each opens what the other sealed', async () => {
    const k1 = master('k1');
    const [a, b] = await Promise.all([started(k1), started(k1)]);
    expect((await keys.all()).map((key) => key.id).sort()).toEqual(['dk_index', 'dk_secrets']);
    expect(await b.open(a.seal('shared'))).toBe('shared');
  });

  it("seals a subject's values under a key of its own, the same id on every instance, and opens nothing once the key is destroyed", async () => {
    const k1 = master('k1');
    const [a, b] = await Promise.all([started(k1), started(k1)]);
    const id = a.subjectKeyId(7, '+14155550100');
    expect(id).toMatch(/^ds_[A-Za-z0-9_-]{24}$/);
    expect(b.subjectKeyId(7, '+14155550100')).toBe(id);
    expect(a.subjectKeyId(8, '+14155550100')).not.toBe(id);
    const sealed = await a.sealForSubject(id, '"Ada"', 'gone');
    expect(sealed.startsWith(`sealed:v2:${id}:`)).toBe(true);
    expect(await b.openForSubject(sealed)).toBe('"Ada"');
    expect((await keys.get(id))?.purpose).toBe('subject');

    await b.eraseSubject(id);
    expect(await b.openForSubject(sealed)).toBeUndefined();
    // Its values written later are not kept: no new key is made for an erased subject.
    expect(await b.sealForSubject(id, '"Ada again"', 'gone')).toBe('gone');
    expect(await keys.get(id)).toMatchObject({ purpose: 'erased', wrapped: '' });
    // Another instance holding the key: opens no more once it has lapsed (SUBJECT_KEY_TTL_MS).
    const c = await started(k1);
    expect(await c.openForSubject(sealed)).toBeUndefined();
  });

  it('opens what it sealed or opened lately without a cipher while the key is held, and not once the key is erased here or elsewhere', async () => {
    const k1 = master('k1');
    const sealer = await started(k1);
    const [here, elsewhere, kept] = ['+14155550100', '+14155550101', '+14155550102'].map((n) => sealer.subjectKeyId(1, n));
    const values = await Promise.all([here, elsewhere, kept].map((id) => sealer.sealForSubject(id, '"Ada"', 'gone')));
    const reader = await started(k1);
    const cipher = jest.spyOn(xchacha, 'decrypt');
    for (const value of values) expect(await sealer.openForSubject(value)).toBe('"Ada"');
    expect(cipher).not.toHaveBeenCalled();
    for (const value of values) expect(await reader.openForSubject(value)).toBe('"Ada"');
    const opened = cipher.mock.calls.length;
    expect(opened).toBeGreaterThan(0);
    for (const value of values) expect(await reader.openForSubject(value)).toBe('"Ada"');
    expect(cipher).toHaveBeenCalledTimes(opened);

    await sealer.eraseSubject(here);
    sealer.forgetErasedIn({ type: 'SubjectErased', data: { subject_key: elsewhere } });
    expect(await Promise.all(values.map((value) => sealer.openForSubject(value)))).toEqual([undefined, undefined, '"Ada"']);
    cipher.mockRestore();
  });

  it('made for one reading of the whole log, opens each value by its cipher each time it is asked and remembers none', async () => {
    const k1 = master('k1');
    const sealer = await started(k1);
    const value = await sealer.sealForSubject(sealer.subjectKeyId(1, '+14155550100'), '"Ada"', 'gone');
    const once = new Sealer(keys, [k1], () => new Date(), false);
    await once.start();
    const cipher = jest.spyOn(xchacha, 'decrypt');
    expect(await once.openForSubject(value)).toBe('"Ada"');
    // The first also unwrapped the subject's key, by the same cipher.
    const first = cipher.mock.calls.length;
    expect(await once.openForSubject(value)).toBe('"Ada"');
    expect(cipher).toHaveBeenCalledTimes(first + 1);
    cipher.mockRestore();
  });

  it('keeps what it opened lately within its bytes: megabyte values sealed one after another do not all stay', async () => {
    const sealer = await started(master('k1'));
    const id = sealer.subjectKeyId(1, '+14155550100');
    const values: string[] = [];
    for (let i = 0; i < 20; i++) values.push(await sealer.sealForSubject(id, `${i}`.padEnd(1024 * 1024, 'x'), 'gone'));
    const cipher = jest.spyOn(xchacha, 'decrypt');
    expect((await sealer.openForSubject(values[19]))?.startsWith('19')).toBe(true);
    expect(cipher).not.toHaveBeenCalled();
    expect((await sealer.openForSubject(values[0]))?.startsWith('0')).toBe(true);
    expect(cipher).toHaveBeenCalledTimes(1);
    cipher.mockRestore();
  });

  it("opens a subject's values and key as the build before v2 wrote them (AES-256-GCM), and rotation wraps that key by the subjects' cipher", async () => {
    const k1 = master('k1');
    const earlier = await started(k1);
    const id = earlier.subjectKeyId(1, '+14155550100');
    const key = randomBytes(32);
    await keys.add({ id, master_id: 'k1', wrapped: aesGcm.encrypt(k1.key, id, key), purpose: 'subject', created_at: '2026-11-01T00:00:00.000Z' });
    const written = `sealed:v1:${id}:${aesGcm.encrypt(key, id, Buffer.from('"Ada"'))}`;
    const reader = await started(k1);
    expect(await reader.openForSubject(written)).toBe('"Ada"');
    // Its later values are sealed by the subjects' cipher under the same key.
    const later = await reader.sealForSubject(id, '"Ada Lovelace"', 'gone');
    expect(later.startsWith(`sealed:v2:${id}:`)).toBe(true);
    expect(xchacha.decrypt(key, id, later.split(':')[3]).toString()).toBe('"Ada Lovelace"');

    const k2 = master('k2');
    expect(await (await started(k2, k1)).rotate()).toBe(3);
    expect((await keys.get(id))?.wrapped.startsWith('x:')).toBe(true);
    expect((await keys.get('dk_secrets'))?.wrapped.startsWith('x:')).toBe(false);
    const rotated = await started(k2);
    expect(await rotated.openForSubject(written)).toBe('"Ada"');
    expect(await rotated.openForSubject(later)).toBe('"Ada Lovelace"');
  });

  it("refuses a subject's value changed by one character, or moved under another subject's key id", async () => {
    const sealer = await started(master('k1'));
    const [ada, bob] = ['+14155550100', '+14155550101'].map((n) => sealer.subjectKeyId(1, n));
    const sealed = await sealer.sealForSubject(ada, '"Ada"', 'gone');
    await sealer.sealForSubject(bob, '"Bob"', 'gone');
    const last = sealed.at(-2) === 'A' ? 'B' : 'A';
    await expect(sealer.openForSubject(`${sealed.slice(0, -2)}${last}${sealed.at(-1)}`)).rejects.toThrow();
    await expect(sealer.openForSubject(sealed.replace(ada, bob))).rejects.toThrow();
  });

  it('unwraps at start only the keys it always needs, not one per subject', async () => {
    const k1 = master('k1');
    const first = await started(k1);
    const sealed = await first.sealForSubject(first.subjectKeyId(1, '+14155550100'), '1', 'gone');
    const all = jest.spyOn(keys, 'all');
    const later = await started(k1);
    expect(all).not.toHaveBeenCalled();
    expect(await later.openForSubject(sealed)).toBe('1');
  });

  it("prefetches a batch's subject keys in one read of the key store: opening them reads it no more; an erased subject's stays unreadable", async () => {
    const k1 = master('k1');
    const writer = await started(k1);
    const ids = ['+14155550100', '+14155550101', '+14155550102'].map((n) => writer.subjectKeyId(1, n));
    const sealed = await Promise.all(ids.map((id, i) => writer.sealForSubject(id, String(i), 'gone')));
    await writer.eraseSubject(ids[2]);
    const reader = await started(k1);
    const get = jest.spyOn(keys, 'get');
    const getMany = jest.spyOn(keys, 'getMany');
    await reader.prefetch([...ids, ids[0], 'dk_secrets']);
    expect(getMany).toHaveBeenCalledTimes(1);
    expect(getMany.mock.calls[0][0]).toEqual(ids);
    expect(await Promise.all(sealed.map((value) => reader.openForSubject(value)))).toEqual(['0', '1', undefined]);
    expect(get).not.toHaveBeenCalled();
    await reader.prefetch(ids);
    expect(getMany).toHaveBeenCalledTimes(1);
  });

  it('a key read that began before this instance erased its subject does not bring the key back', async () => {
    const k1 = master('k1');
    const writer = await started(k1);
    const id = writer.subjectKeyId(1, '+14155550100');
    const sealed = await writer.sealForSubject(id, '"Ada"', 'gone');
    const reader = await started(k1);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const stored = await keys.getMany([id]);
    jest.spyOn(keys, 'getMany').mockImplementationOnce(() => gate.then(() => stored));
    const prefetching = reader.prefetch([id]);
    await reader.eraseSubject(id);
    release();
    await prefetching;
    expect(await reader.openForSubject(sealed)).toBeUndefined();
  });

  it("destroys an organisation's span keys of a kind within a range in one write of the key store, however long the range", async () => {
    const k1 = master('k1');
    const sealer = await started(k1);
    const at = (organisationId: number, kind: string, iso: string) => sealer.retentionKeyId(organisationId, kind, new Date(iso));
    const sealedAt = async (keyId: string) => sealer.sealForSubject(keyId, 'said', '[erased]');
    const values = await Promise.all(
      [
        at(3, 'transcripts', '2024-06-01T08:00:00Z'),
        at(3, 'transcripts', '2026-01-01T11:50:00Z'),
        at(3, 'transcripts', '2026-01-01T12:00:00Z'),
        at(3, 'variables', '2025-01-01T10:30:00Z'),
        at(33, 'transcripts', '2025-01-01T10:30:00Z'),
      ].map(sealedAt),
    );
    const destroy = jest.spyOn(keys, 'destroyBetween');
    // Ten years of ten-minute spans: half a million names, two keys held.
    const destroyed = await sealer.destroyRetentionKeys(3, 'transcripts', Date.parse('2016-01-01T00:00:00Z'), Date.parse('2026-01-01T12:00:00Z'));
    expect(destroyed).toBe(2);
    expect(destroy).toHaveBeenCalledTimes(1);
    // The sealer itself no longer opens them, nor does another instance.
    expect(await Promise.all(values.map((value) => sealer.openForSubject(value)))).toEqual([undefined, undefined, 'said', 'said', 'said']);
    const reader = await started(k1);
    expect(await Promise.all(values.map((value) => reader.openForSubject(value)))).toEqual([undefined, undefined, 'said', 'said', 'said']);
  });

  it('reads a destroyed span key from the key store once: its other values are known unreadable', async () => {
    const k1 = master('k1');
    const writer = await started(k1);
    const keyId = writer.retentionKeyId(3, 'transcripts', new Date('2026-01-01T10:00:00Z'));
    const [one, two, three] = await Promise.all(['a', 'b', 'c'].map((said) => writer.sealForSubject(keyId, said, '[erased]')));
    await writer.destroyRetentionKeys(3, 'transcripts', Date.parse('2026-01-01T10:00:00Z'), Date.parse('2026-01-01T10:10:00Z'));
    const reader = await started(k1);
    const get = jest.spyOn(keys, 'get');
    const getMany = jest.spyOn(keys, 'getMany');
    expect(await reader.openForSubject(one)).toBeUndefined();
    expect(await reader.openForSubject(two)).toBeUndefined();
    expect(get).toHaveBeenCalledTimes(1);
    await reader.prefetch([keyId]);
    expect(getMany).not.toHaveBeenCalled();
    const another = await started(k1);
    await another.prefetch([keyId]);
    expect(await another.openForSubject(three)).toBeUndefined();
    expect(get).toHaveBeenCalledTimes(1);
    expect(getMany).toHaveBeenCalledTimes(1);
  });

  it("drops the span keys a retention sweep elsewhere destroyed, and only those, when it reads the sweep's event", async () => {
    const sealer = await started(master('k1'));
    const at = (iso: string) => sealer.retentionKeyId(3, 'transcripts', new Date(iso));
    const sealedAt = async (keyId: string) => sealer.sealForSubject(keyId, 'said', '[erased]');
    const [before, first, last, after, otherKind, otherOrganisation] = await Promise.all([
      sealedAt(at('2026-01-01T09:50:00Z')),
      sealedAt(at('2026-01-01T10:00:00Z')),
      sealedAt(at('2026-01-01T11:50:00Z')),
      sealedAt(at('2026-01-01T12:00:00Z')),
      sealedAt(sealer.retentionKeyId(3, 'variables', new Date('2026-01-01T10:30:00Z'))),
      sealedAt(sealer.retentionKeyId(33, 'transcripts', new Date('2026-01-01T10:30:00Z'))),
    ]);
    sealer.forgetErasedIn({
      type: 'RetainedValuesErased',
      data: { user_id: 3, kind: 'transcripts', from: '2026-01-01T10:00:00.000Z', until: '2026-01-01T12:00:00.000Z' },
    });
    const opened = await Promise.all([before, first, last, after, otherKind, otherOrganisation].map((value) => sealer.openForSubject(value)));
    expect(opened).toEqual(['said', undefined, undefined, 'said', 'said', 'said']);
  });
});
