import { crypto_aead_xchacha20poly1305_ietf_decrypt, crypto_aead_xchacha20poly1305_ietf_encrypt } from 'sodium-native';
import { random } from './aes-gcm';

const NONCE = 24;
const TAG = 16;

/**
 * XChaCha20-Poly1305 (libsodium) of `plain` under `key`, the key's id bound in as associated
 * data: nonce | ciphertext | tag, base64url. Personal values and their people's keys are sealed
 * with it (docs/privacy.md): one is sealed or opened for nearly every event, and libsodium's
 * call costs a fifth of a cipher object of Node's; the 24-byte nonce is safe drawn at random.
 */
export function encrypt(key: Buffer, keyId: string, plain: Buffer): string {
  const out = Buffer.allocUnsafe(NONCE + plain.length + TAG);
  random(NONCE).copy(out, 0);
  crypto_aead_xchacha20poly1305_ietf_encrypt(out.subarray(NONCE), plain, Buffer.from(keyId), null, out.subarray(0, NONCE), key);
  return out.toString('base64url');
}

/** What `encrypt` sealed; throws when the text, its key or its key id was not the one it was sealed with. */
export function decrypt(key: Buffer, keyId: string, sealed: string): Buffer {
  const bytes = Buffer.from(sealed, 'base64url');
  if (bytes.length < NONCE + TAG) throw new Error('A sealed value is too short');
  const plain = Buffer.allocUnsafe(bytes.length - NONCE - TAG);
  crypto_aead_xchacha20poly1305_ietf_decrypt(plain, null, bytes.subarray(NONCE), Buffer.from(keyId), bytes.subarray(0, NONCE), key);
  return plain;
}
