import { FieldDeclaration, fieldsOf } from '../event-sourcing/event-fields';

const isHeaders = (value: unknown): value is Array<{ name: string; value: string }> =>
  Array.isArray(value) && value.every((item) => item !== null && typeof item === 'object' && typeof (item as { value?: unknown }).value === 'string');

/** A secret field's value sealed: a string, or each value of a `{name, value}` list (a tool's headers). */
function sealedValue(value: unknown, seal: (plain: string) => string): unknown {
  if (typeof value === 'string') return seal(value);
  if (isHeaders(value)) return value.map((header) => ({ ...header, value: seal(header.value) }));
  return value;
}

function sealedField(value: unknown, declaration: FieldDeclaration, seal: (plain: string) => string): unknown {
  if (declaration === 'secret') return sealedValue(value, seal);
  if (typeof declaration !== 'object' || value === null || typeof value !== 'object') return value;
  const inner = value as Record<string, unknown>;
  const secrets = Object.entries(declaration).filter(([field, kind]) => kind === 'secret' && inner[field] !== undefined);
  return secrets.length ? { ...inner, ...Object.fromEntries(secrets.map(([field]) => [field, sealedValue(inner[field], seal)])) } : value;
}

/** docs/privacy.md: an event's data with every field its type declares secret sealed, as it is written to the log. */
export function withSecretsSealed(type: string, data: unknown, seal: (plain: string) => string): unknown {
  const fields = fieldsOf(type);
  if (!fields || data === null || typeof data !== 'object') return data;
  let out = data as Record<string, unknown>;
  for (const [field, declaration] of Object.entries(fields)) {
    if (declaration === 'plain' || declaration === 'personal' || declaration === 'subject' || out[field] === undefined) continue;
    const sealed = sealedField(out[field], declaration, seal);
    if (sealed !== out[field]) out = { ...out, [field]: sealed };
  }
  return out;
}
