/**
 * Wrong values for every property of a request schema, at every depth: each JSON type the schema
 * refuses there (null where none is allowed, arrays of arrays, empty containers...) and the
 * values just past its bounds. Drives the OpenAPI fuzz suite.
 */
export interface Schema {
  type?: string;
  nullable?: boolean;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  items?: Schema;
  $ref?: string;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  maxItems?: number;
  oneOf?: unknown;
  anyOf?: unknown;
  additionalProperties?: unknown;
  allOf?: Schema[];
  format?: string;
  pattern?: string;
  description?: string;
}

export interface Mutation {
  /** The keys to the value replaced (a key may hold a dot: `end_call_tool.description` is one field). */
  keys: string[];
  /** Their dotted path, as refusals name it (`secondary_contacts.0.phone_number`). */
  path: string;
  value: unknown;
  /** A value of the right type in the wrong format: a route may judge it after its other fields. */
  format?: boolean;
}

/** Every JSON type, and the containers that hide one inside another. */
const SHAPES: Array<[string, unknown]> = [
  ['null', null],
  ['boolean', true],
  ['boolean', false],
  ['number', 1],
  ['number', -1.5],
  ['number', 0],
  ['string', 'x'],
  ['string', ''],
  ['string', '0'],
  ['array', []],
  ['array', [[]]],
  ['array', [[[]]]],
  ['array', [{}]],
  ['array', [null]],
  ['array', ['+12015554802']],
  ['array', [[1]]],
  ['object', {}],
  ['object', { a: [] }],
  ['object', { a: {} }],
  ['object', { constructor: {} }],
];

const kindOf = (schema: Schema): string | null => {
  if (schema.type === 'integer') return 'number';
  return schema.type ?? (schema.enum && schema.enum.every((v) => typeof v === 'string') ? 'string' : null);
};

/** Malformed values of each format the documents name: each reads as its kind, none is one. */
const MALFORMED = {
  instant: ['20300101', '2030-W01-1', '2030-001', '2030-02-30T00:00:00Z', '2030-13-01', '2030-01-01T25:00:00Z', '+275760-09-13T00:00:00.001Z', 'tomorrow'],
  time: ['24:01', '9:00', '12:60', '12-00', '1200', '23:59:60', '٠٩:٠٠'],
  email: ['not-an-email', 'a@', '@b.c', 'a b@c.d', 'a@b@c.d', `${'x'.repeat(250)}@example.com`],
  url: ['not a url', 'http://', 'javascript:alert(1)', 'file:///etc/passwd', 'http://[::1', 'http://%zz/', 'http://x.example:99999/'],
  phone: ['+1', '12015550100', '+120155501001234567', '+0201555010', '+12015550100x', '+1 (201) 555-01OO', '+999999999999'],
  timezone: ['Mars/Olympus', 'UTC+25', '../etc/passwd', 'America/New_York\u0000'],
};

/** The formats a string schema (or the field it is) names. */
function malformedFor(schema: Schema, key: string | undefined): string[] {
  if (schema.format === 'date-time' || schema.format === 'date' || schema.pattern === '^\\d{4}-\\d{2}-\\d{2}$') return MALFORMED.instant;
  if (schema.pattern?.includes(':')) return MALFORMED.time;
  if (schema.format === 'email' || key === 'email') return MALFORMED.email;
  if (schema.format === 'uri') return MALFORMED.url;
  if (schema.pattern?.startsWith('^\\+') || key === 'phone_number' || key === 'from' || key === 'to') return MALFORMED.phone;
  if (key === 'timezone') return MALFORMED.timezone;
  return [];
}

/** The values of the wrong JSON type for `schema`, and those past its bounds. */
function wrongValues(schema: Schema): unknown[] {
  const kind = kindOf(schema);
  if (!kind || schema.oneOf || schema.anyOf) return [];
  const wrong = SHAPES.filter(([shape, value]) => shape !== kind && !(value === null && schema.nullable)).map(([, value]) => value);
  if (schema.type === 'integer') wrong.push(0.5, 2 ** 53, 1e308);
  if (schema.minimum !== undefined) wrong.push(schema.minimum - 1);
  if (schema.maximum !== undefined) wrong.push(schema.maximum + 1);
  if (schema.maxLength !== undefined) wrong.push('x'.repeat(schema.maxLength + 1));
  if (schema.maxItems !== undefined && schema.items) wrong.push(Array(schema.maxItems + 1).fill(1));
  return wrong;
}

/** Every wrong value at every property path of `schema`, `$ref`s read from `components`. */
export function mutationsOf(schema: Schema, components: Record<string, Schema>, keys: string[] = []): Mutation[] {
  // A reference, alone or wrapped in `allOf` with what stands beside it (`nullable`).
  const ref = schema.$ref ?? schema.allOf?.[0]?.$ref;
  const target = ref ? components[ref.replace('#/components/schemas/', '')] : schema;
  const resolved = target && ref ? { ...target, nullable: schema.nullable } : target;
  if (!resolved || keys.length > 6) return [];
  const path = keys.join('.');
  const malformed = kindOf(resolved) === 'string' && !resolved.oneOf && !resolved.anyOf ? malformedFor(resolved, keys.at(-1)) : [];
  const here = keys.length
    ? [...wrongValues(resolved).map((value) => ({ keys, path, value })), ...malformed.map((value) => ({ keys, path, value, format: true }))]
    : [];
  const below = [
    ...Object.entries(resolved.properties ?? {}).flatMap(([key, child]) => mutationsOf(child, components, [...keys, key])),
    ...(resolved.items ? mutationsOf(resolved.items, components, [...keys, '0']) : []),
  ];
  return [...here, ...below];
}

/** `base` with the value at `keys` replaced, the objects and lists on the way made when missing. */
export function withValueAt(base: unknown, keys: string[], value: unknown): Record<string, unknown> {
  const root = structuredClone(base ?? {}) as Record<string, unknown>;
  let node: Record<string, unknown> = root;
  keys.slice(0, -1).forEach((key, i) => {
    const nextIsIndex = /^\d+$/.test(keys[i + 1]);
    const existing = node[key];
    const fits = nextIsIndex ? Array.isArray(existing) : existing !== null && typeof existing === 'object' && !Array.isArray(existing);
    if (!fits) node[key] = nextIsIndex ? [] : {};
    if (nextIsIndex && (node[key] as unknown[]).length === 0) (node[key] as unknown[]).push({});
    node = node[key] as Record<string, unknown>;
  });
  node[keys[keys.length - 1]] = value;
  return root;
}
