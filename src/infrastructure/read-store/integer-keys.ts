/** Keys above this are not kept (a bit each: 16 MB at most); a store looks those up instead. */
const LIMIT = 1 << 27;

/**
 * A set of the keys written as non-negative integers (`"42"`), a bit each: the ids of a
 * million documents take 125 KB, where a Set of their strings took 100 MB in a rebuild.
 */
export class IntegerKeys {
  private bits = new Uint8Array(1 << 13);

  /** The integer a key stands for, or null when this set cannot hold it. */
  static of(key: string): number | null {
    const n = Number(key);
    return Number.isInteger(n) && n >= 0 && n < LIMIT && String(n) === key ? n : null;
  }

  has(n: number): boolean {
    return (this.bits[n >>> 3] & (1 << (n & 7))) !== 0;
  }

  set(n: number, present: boolean): void {
    const at = n >>> 3;
    if (at >= this.bits.length) {
      if (!present) return;
      const grown = new Uint8Array(Math.max(at + 1, this.bits.length * 2));
      grown.set(this.bits);
      this.bits = grown;
    }
    if (present) this.bits[at] |= 1 << (n & 7);
    else this.bits[at] &= ~(1 << (n & 7));
  }
}
