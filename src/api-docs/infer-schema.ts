/** A JSON schema (the OpenAPI 3.0 dialect) as far as the documents here use it. */
export type Schema = {
  type?: string;
  nullable?: boolean;
  format?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: boolean | Schema;
  [keyword: string]: unknown;
};

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/**
 * The schema a real answer shows: every field it has is required and typed as it came; a
 * field seen only as null may hold anything; objects keyed by the user's own names (variables)
 * stay open. The OpenAPI test checks fresh answers against these, so they cannot drift.
 */
export function inferSchema(value: unknown, openPaths: string[] = []): Schema {
  return inferFromAll([value], openPaths);
}

/**
 * What answers of one route show together: a field null in one and typed in another is nullable.
 * `openPaths` name objects whose keys vary (`data[].data`: each history entry's payload).
 */
export function inferFromAll(values: unknown[], openPaths: string[] = []): Schema {
  return anyWhereOnlyNull(values.map((value) => seen(value, '', new Set(openPaths))).reduce(mergeSchemas));
}

/** Objects keyed by the user's or the runtime's own names. */
const OPEN_KEYS = new Set(['variables', 'evaluation', 'body', 'settings', 'changes', 'checks']);

const NULL: Schema = { nullable: true };

function seen(value: unknown, path: string, open: Set<string>): Schema {
  if (value === null) return NULL;
  if (Array.isArray(value)) return { type: 'array', items: value.length ? value.map((v) => seen(v, `${path}[]`, open)).reduce(mergeSchemas) : {} };
  switch (typeof value) {
    case 'string':
      return INSTANT.test(value) ? { type: 'string', format: 'date-time' } : { type: 'string' };
    case 'number':
      // Not `integer`: a cost of 0 in one answer is 0.01 in the next.
      return { type: 'number' };
    case 'boolean':
      return { type: 'boolean' };
    case 'object': {
      if (open.has(path) || OPEN_KEYS.has(path.slice(path.lastIndexOf('.') + 1))) return { type: 'object', additionalProperties: true };
      const entries = Object.entries(value as Record<string, unknown>);
      return {
        type: 'object',
        properties: Object.fromEntries(entries.map(([key, v]) => [key, seen(v, path ? `${path}.${key}` : key, open)])),
        ...requiredOf(entries.map(([key]) => key)),
      };
    }
    default:
      return {};
  }
}

/** One schema that both describe (items of one list, answers of one route). */
function mergeSchemas(a: Schema, b: Schema): Schema {
  if (a === NULL || b === NULL) return a === b ? NULL : { ...(a === NULL ? b : a), nullable: true };
  if (!a.type || !b.type) return {};
  if (a.type !== b.type) return {};
  if (a.type === 'array') return { type: 'array', items: mergeSchemas(a.items ?? {}, b.items ?? {}) };
  const nullable = a.nullable || b.nullable ? { nullable: true } : {};
  if (a.type !== 'object' || !a.properties || !b.properties) return { ...(a.format === b.format ? a : { type: a.type }), ...nullable };
  const keys = [...new Set([...Object.keys(a.properties ?? {}), ...Object.keys(b.properties ?? {})])];
  const properties = Object.fromEntries(
    keys.map((key) => {
      const [x, y] = [a.properties?.[key], b.properties?.[key]];
      return [key, x && y ? mergeSchemas(x, y) : (x ?? y)!];
    }),
  );
  return { type: 'object', properties, ...requiredOf((a.required ?? []).filter((key) => b.required?.includes(key))), ...nullable };
}

/** OpenAPI 3.0 forbids an empty `required` list: none is written then. */
const requiredOf = (keys: string[]) => (keys.length ? { required: keys } : {});

/** A value seen only as null may be anything (a schema cannot say `nullable` without a type). */
function anyWhereOnlyNull(schema: Schema): Schema {
  if (schema === NULL) return {};
  const out: Schema = { ...schema };
  if (schema.items) out.items = anyWhereOnlyNull(schema.items);
  if (schema.properties) out.properties = Object.fromEntries(Object.entries(schema.properties).map(([key, s]) => [key, anyWhereOnlyNull(s)]));
  return out;
}
