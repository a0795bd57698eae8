import { Filter, IndexSpec, Scalar } from '../../shared/ports/document-store.port';
import { assertFieldName, isRange } from '../../shared/ports/filter-fields';

/** The SQL of the SQLite read store: names of its tables, columns and indexes, values as bound, and WHERE clauses. */
export type Bind = string | number | null;

export const bind = (value: Scalar): Bind => (typeof value === 'boolean' ? (value ? 1 : 0) : value);
export const path = (field: string) => `json_extract(doc, '$.${assertFieldName(field)}')`;
/** An indexed field's own column, a copy of the document's value kept at every write. */
export const fieldColumn = (field: string) => `"doc.${assertFieldName(field)}"`;
export const tableName = (name: string) => `rm_${assertFieldName(name).replace(/\./g, '_')}`;
export const indexName = (table: string, index: IndexSpec) => `${table}__${index.fields.map((f) => f.replace(/\./g, '_')).join('__')}`;

export const valueAt = (doc: object, field: string): unknown =>
  field.includes('.') ? field.split('.').reduce<any>((v, k) => (v == null ? undefined : v[k]), doc) : (doc as Record<string, unknown>)[field];

/** What `json_extract` answers for a field: the value its column holds and a filter compares with. */
export function columnValue(doc: object, field: string): Bind {
  const value = valueAt(doc, field);
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number' || typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** Translates a filter into a WHERE clause: indexed fields compare their columns, others the JSON. */
export function where(filter: Filter, expression: (field: string) => string): { sql: string; params: Bind[] } {
  const parts: string[] = [];
  const params: Bind[] = [];
  for (const [field, condition] of Object.entries(filter)) {
    if (condition === undefined) continue;
    const column = expression(field);
    if (!isRange(condition)) {
      if (condition === null) parts.push(`${column} IS NULL`);
      else {
        parts.push(`${column} = ?`);
        params.push(bind(condition));
      }
      continue;
    }
    const ops: Array<[keyof typeof condition, string]> = [
      ['gt', '>'],
      ['gte', '>='],
      ['lt', '<'],
      ['lte', '<='],
    ];
    for (const [key, op] of ops) {
      const value = condition[key] as Scalar | undefined;
      if (value === undefined) continue;
      parts.push(`${column} ${op} ?`);
      params.push(bind(value));
    }
    if (condition.ne !== undefined) {
      if (condition.ne === null) parts.push(`${column} IS NOT NULL`);
      else {
        parts.push(`(${column} IS NULL OR ${column} != ?)`);
        params.push(bind(condition.ne));
      }
    }
    if (condition.in !== undefined) {
      if (condition.in.length === 0) parts.push('0');
      else {
        parts.push(`${column} IN (${condition.in.map(() => '?').join(', ')})`);
        params.push(...condition.in.map(bind));
      }
    }
  }
  return { sql: parts.length ? `WHERE ${parts.join(' AND ')}` : '', params };
}

/** A document the table has no row of. */
