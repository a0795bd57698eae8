import { toE164 } from './phone';

describe('toE164', () => {
  it.each([
    ['+1 212 555 0123', '+12125550123'],
    ['+1 (201) 555-0123', '+12015550123'],
    ['+44 20 7946 0958', '+442079460958'],
    ['+49 30 901820', '+4930901820'],
    ['+919876543210', '+919876543210'],
  ])('reads %s as %s', (input, expected) => {
    expect(toE164(input)).toBe(expected);
  });

  it.each(['2015550123', '+1 555', '+999 123456', 'phone', '', 12015550123])('refuses %p', (input) => {
    expect(toE164(input)).toBeNull();
  });
});

describe('toE164 asked many times', () => {
  it('answers the same for a number seen before, and for many more numbers than it remembers', () => {
    const numbers = Array.from({ length: 3000 }, (_, i) => `+1 212 555 ${String(i % 10_000).padStart(4, '0')}`);
    const first = numbers.map(toE164);
    expect(first.every((n) => n !== null && /^\+1212555\d{4}$/.test(n))).toBe(true);
    expect(numbers.map(toE164)).toEqual(first);
    expect(toE164('  +1 212 555 0123 ')).toBe('+12125550123');
    expect(toE164('2125550123')).toBeNull();
    expect(toE164('2125550123')).toBeNull();
  });
});

describe('the number parsing library, as patches/ leave it', () => {
  it("compiles each of its metadata's whole-number patterns once, not at every number", () => {
    toE164('+1 212 555 0100');
    const compiled: string[] = [];
    const NativeRegExp = globalThis.RegExp;
    // Counts what the library compiles while it parses and validates numbers it has not seen.
    globalThis.RegExp = new Proxy(NativeRegExp, {
      construct: (target, args: [string, string?]) => (compiled.push(args[0]), new target(...args)),
      apply: (target, _this, args: [string, string?]) => (compiled.push(args[0]), target(...args)),
    });
    try {
      expect(['+1 212 555 0101', '+1 212 555 0102', '+1 212 555 0103'].map(toE164)).toEqual(['+12125550101', '+12125550102', '+12125550103']);
    } finally {
      globalThis.RegExp = NativeRegExp;
    }
    // Whole-number matches (`^(?:…)$`, the long patterns) come from the compiled ones; the
    // library still compiles its short national prefix (`^(?:1)`) for each number.
    expect(compiled.filter((source) => source.endsWith(')$'))).toEqual([]);
    expect(compiled.length).toBeLessThanOrEqual(3);
  });
});
