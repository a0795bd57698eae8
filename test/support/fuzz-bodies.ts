import fc from 'fast-check';

/** Keys a hostile or careless client sends: prototype names, the empty key, look-alikes. */
const ODD_KEYS = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'prototype', '', 'extra'];

/** Values that break naive code: nulls, wrong types, edge numbers, deep nesting, odd strings. */
export const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.constantFrom(0, -1, 1e308, -0, 0.5, 2 ** 53, 1e21),
  fc.string({ maxLength: 20 }),
  fc.constantFrom(
    '',
    ' ',
    '09:00',
    '24:00',
    '25:00',
    'mon',
    'sun',
    '+12015550123',
    '12015550123',
    'https://example.com/x',
    'http://127.0.0.1/x',
    'UTC',
    'America/New_York',
    'Mars/Olympus',
    '2025-01-01',
    'x'.repeat(300),
  ),
  fc.array(fc.oneof(fc.constantFrom('mon', 'tue', 'sat', 1, null), fc.string({ maxLength: 5 })), { maxLength: 4 }),
  fc.constantFrom({ start: '09:00', end: '17:00' }, { start: '17:00', end: '09:00' }, { start: null, end: '24:00' }, [], {}),
  fc.dictionary(fc.constantFrom(...ODD_KEYS, 'a', 'start', 'end', 'name'), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
  fc.jsonValue({ maxDepth: 3 }),
  fc.integer({ min: 20, max: 60 }).map((depth) => nest(depth)),
);

function nest(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

/**
 * JSON text written key by key, so `__proto__` and repeated keys reach the server as a
 * client would send them (an object literal would not keep them).
 */
function objectText(entries: Array<[string, unknown]>): string {
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v) ?? 'null'}`).join(',')}}`;
}

/**
 * Bodies for a route: a valid one with fields replaced by odd values, left out or joined by odd
 * keys; objects of the route's own fields holding odd values; any JSON; non-objects; non-JSON.
 */
export function bodyText(valid: Record<string, unknown>, fields: string[]): fc.Arbitrary<string> {
  const names = [...new Set([...Object.keys(valid), ...fields])];
  const mutated = fc
    .tuple(fc.subarray(Object.keys(valid)), fc.array(fc.tuple(fc.constantFrom(...names, ...ODD_KEYS), oddValue), { maxLength: 3 }))
    .map(([dropped, changes]) => objectText([...Object.entries(valid).filter(([k]) => !dropped.includes(k)), ...changes]));
  const ownFields = fc.array(fc.tuple(fc.constantFrom(...names, ...ODD_KEYS), oddValue), { maxLength: 6 }).map(objectText);
  return fc.oneof(
    { weight: 6, arbitrary: mutated },
    { weight: 3, arbitrary: ownFields },
    { weight: 1, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.constantFrom('null', '[]', '"text"', '0', 'true', '{', '{"a":}', '[1,', 'nul', '\u0000', '{"a":1}{"b":2}') },
  );
}

/** Query strings over a list's own parameters, with odd values. */
export function queryText(params: string[]): fc.Arbitrary<string> {
  const value = fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.constantFrom(
      '',
      '0',
      '-1',
      '1',
      '15',
      '1000',
      '1001',
      '1e3',
      '1.5',
      'NaN',
      'null',
      'true',
      'completed',
      'created',
      '2025-02-30',
      '2025-01-01',
      '+12015550123',
      'x'.repeat(500),
      '99999999999999999999',
    ),
  );
  return fc
    .array(fc.tuple(fc.constantFrom(...params, 'page', 'per_page', '__proto__', 'constructor', 'extra'), value), { maxLength: 4 })
    .map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}` : ''));
}

/** Path ids: ones that exist, and ones no resource has or no integer is. */
export function pathId(existing: Array<number | string>): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...existing).map(String) },
    { weight: 2, arbitrary: fc.constantFrom('0', '-1', '1.5', 'abc', '9'.repeat(400), '1e3', '%00', '99999999999', ' 1', '__proto__') },
    { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 8 }).map(encodeURIComponent) },
  );
}
