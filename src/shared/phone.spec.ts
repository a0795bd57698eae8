import * as libphonenumber from 'libphonenumber-js/max';
import { toE164, withNumbersMasked } from './phone';

// The library as it is, its parse counted.
jest.mock('libphonenumber-js/max', () => {
  const actual = jest.requireActual<typeof libphonenumber>('libphonenumber-js/max');
  return { ...actual, parsePhoneNumberFromString: jest.fn(actual.parsePhoneNumberFromString) };
});

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

  it('keeps no text longer than a number is written in (a body may hold a megabyte of one)', () => {
    const parses = jest.mocked(libphonenumber.parsePhoneNumberFromString);
    parses.mockClear();
    const long = `+1${' '.repeat(1024 * 1024)}2125550124`;
    expect([toE164(long), toE164(long)]).toEqual([null, null]);
    expect(parses).toHaveBeenCalledTimes(2);
    expect([toE164('+1 212 555 0124'), toE164('+1 212 555 0124')]).toEqual(['+12125550124', '+12125550124']);
    expect(parses).toHaveBeenCalledTimes(3);
  });
});

describe('withNumbersMasked', () => {
  it.each([
    ['Account not authorized to call +36305830161. Perhaps you need', 'Account not authorized to call [number]. Perhaps you need'],
    ["The 'To' number 2015550831 is not a valid phone number.", "The 'To' number [number] is not a valid phone number."],
    ['call +1 (201) 555-0831 or +44 20 7946 0958', 'call [number] or [number]'],
    ['Account not allowed to call +86686237', 'Account not allowed to call [number]'],
  ])('masks the numbers of %p', (text, masked) => {
    expect(withNumbersMasked(text)).toBe(masked);
  });

  it('keeps shorter figures: codes, statuses, durations, links', () => {
    const text = 'twilio answered 400 (code 21215) after 10 s: see https://www.twilio.com/docs/errors/21215';
    expect(withNumbersMasked(text)).toBe(text);
  });
});
