import { Range, Scalar } from './document-store.port';

const FIELD = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*$/;

/** Field names end up in query text; only plain dotted identifiers are allowed. */
export function assertFieldName(field: string): string {
  if (!FIELD.test(field)) throw new Error(`Invalid field name: ${field}`);
  return field;
}

export function isRange(value: Scalar | Range): value is Range {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
