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
}

export interface Mutation {
  /** The keys to the value replaced (a key may hold a dot: `end_call_tool.description` is one field). */
  keys: string[];
  /** Their dotted path, as refusals name it (`secondary_contacts.0.phone_number`). */
  path: string;
  value: unknown;
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

/** The values of the wrong JSON type for `schema`, and those past its bounds. */
function wrongValues(schema: Schema): unknown[] {
  const kind = kindOf(schema);
  if (!kind || schema.oneOf || schema.anyOf) return [];
  const wrong = SHAPES.filter(([shape, value]) => shape !== kind && !(value === null && schema.nullable)).map(([, value]) => value);
  if (schema.type === 'integer') wrong.push(0.5);
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
  const here = keys.length ? wrongValues(resolved).map((value) => ({ keys, path, value })) : [];
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
