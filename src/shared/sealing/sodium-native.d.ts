/** The part of sodium-native (libsodium's bindings, no types of its own) the sealer uses. */
declare module 'sodium-native' {
  const sodium: {
    crypto_aead_xchacha20poly1305_ietf_encrypt(out: Buffer, plain: Buffer, ad: Buffer | null, nsec: null, nonce: Buffer, key: Buffer): number;
    crypto_aead_xchacha20poly1305_ietf_decrypt(out: Buffer, nsec: null, sealed: Buffer, ad: Buffer | null, nonce: Buffer, key: Buffer): number;
  };
  export default sodium;
}
