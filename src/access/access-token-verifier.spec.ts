import { hashToken } from './access-token-verifier';

describe('hashToken', () => {
  it('is the SHA-256 of the token in hex, as the stored hashes of tokens already issued are', () => {
    // FIPS 180-2's test vector.
    expect(hashToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
