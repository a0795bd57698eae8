import { Filter, Range, Scalar } from './document-store.port';

const FIELD = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*$/;

/** Field names end up in query text; only plain dotted identifiers are allowed. */
export function assertFieldName(field: string): string {
  if (!FIELD.test(field)) throw new Error(`Invalid field name: ${field}`);
  return field;
}

export function isRange(value: Scalar | Range): value is Range {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The fields a filter of equalities names, sorted and joined by commas (how a declared field set
 * is found, whatever order the filter names them in); null when a condition is a range.
 * Undefined conditions are no conditions.
 */
export function equalityFieldNames(filter: Filter): string | null {
  const given = Object.entries(filter).filter(([, condition]) => condition !== undefined);
  if (given.some(([, condition]) => isRange(condition!))) return null;
  return given
    .map(([field]) => field)
    .sort()
    .join(',');
}
