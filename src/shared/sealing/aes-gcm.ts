import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** Random bytes drawn from a pool filled 4 KB at a time: one value sealed per field costs no call for its IV. */
let pool = Buffer.alloc(0);
let drawn = 0;
export function random(size: number): Buffer {
  if (drawn + size > pool.length) {
    pool = randomBytes(4096);
    drawn = 0;
  }
  drawn += size;
  return pool.subarray(drawn - size, drawn);
}

/** AES-256-GCM of `plain` under `key`, the key's id bound in as associated data: iv | ciphertext | tag, base64url. */
export function encrypt(key: Buffer, keyId: string, plain: Buffer): string {
  const iv = random(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(keyId));
  return Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]).toString('base64url');
}

/** What `encrypt` sealed; throws when the text, its key or its key id was not the one it was sealed with. */
export function decrypt(key: Buffer, keyId: string, sealed: string): Buffer {
  const bytes = Buffer.from(sealed, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12)).setAAD(Buffer.from(keyId));
  decipher.setAuthTag(bytes.subarray(bytes.length - 16));
  const plain = decipher.update(bytes.subarray(12, bytes.length - 16));
  // GCM releases the whole text from `update`; `final` only checks the tag (and throws when it fails).
  decipher.final();
  return plain;
}
