import { randomBytes } from 'node:crypto';
import { decrypt, encrypt } from './xchacha20-poly1305';

describe('XChaCha20-Poly1305 sealing', () => {
  const key = randomBytes(32);
  const plain = Buffer.from('"Ada Lovelace"');

  it('opens what it sealed under the same key and key id, with a fresh nonce each time', () => {
    const sealed = encrypt(key, 'ds_ada', plain);
    expect(decrypt(key, 'ds_ada', sealed).toString()).toBe('"Ada Lovelace"');
    expect(encrypt(key, 'ds_ada', plain)).not.toBe(sealed);
    expect(Buffer.from(sealed, 'base64url').length).toBe(24 + plain.length + 16);
  });

  it('refuses the right key under another key id: the id is bound in, not only the key', () => {
    const sealed = encrypt(key, 'ds_ada', plain);
    expect(() => decrypt(key, 'ds_bob', sealed)).toThrow();
  });

  it('refuses another key, a changed byte and a text too short to hold a nonce and a tag', () => {
    const sealed = encrypt(key, 'ds_ada', plain);
    expect(() => decrypt(randomBytes(32), 'ds_ada', sealed)).toThrow();
    const bytes = Buffer.from(sealed, 'base64url');
    for (const at of [0, 24, bytes.length - 1]) {
      const changed = Buffer.from(bytes);
      changed[at] ^= 1;
      expect(() => decrypt(key, 'ds_ada', changed.toString('base64url'))).toThrow();
    }
    expect(() => decrypt(key, 'ds_ada', Buffer.alloc(39).toString('base64url'))).toThrow('too short');
  });
});
