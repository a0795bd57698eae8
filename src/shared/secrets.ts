/** How every answer shows a secret once it was set (docs/teams.md). */
export const SECRET = '[secret]';

/** Fields of event data and documents that hold a secret or name a credential. */
const SECRET_FIELDS = new Set(['webhook_secret', 'token_hash', 'authorization', 'api_key', 'auth_token']);

/** A tool's headers as answers show them: the names, each value `[secret]` (bearer tokens for the users' systems). */
export const hiddenHeaders = (headers: ReadonlyArray<{ name: string; value: string }>) => headers.map(({ name }) => ({ name, value: SECRET }));

/**
 * `value` with every secret shown as `[secret]`, at any depth: the fields above, and the values of
 * any `headers` list of `{name, value}` (a tool's). What audit and history show of events. Only
 * what holds a secret is copied; a value with none comes back as it is (most events have none,
 * and the audit trail takes every event).
 */
export function withSecretsHidden(value: unknown): unknown {
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const hidden = withSecretsHidden(value[i]);
      if (hidden !== value[i]) (copy ??= [...value])[i] = hidden;
    }
    return copy ?? value;
  }
  if (value === null || typeof value !== 'object') return value;
  let copy: Record<string, unknown> | undefined;
  for (const [key, inner] of Object.entries(value)) {
    const hidden = hiddenField(key, inner);
    if (hidden !== inner) (copy ??= { ...value })[key] = hidden;
  }
  return copy ?? value;
}

function hiddenField(key: string, inner: unknown): unknown {
  if (SECRET_FIELDS.has(key.toLowerCase()) && inner !== null && inner !== undefined) return SECRET;
  if (key === 'headers' && Array.isArray(inner) && inner.every(isHeader)) return hiddenHeaders(inner);
  return withSecretsHidden(inner);
}

const isHeader = (item: unknown): item is { name: string; value: string } =>
  item !== null && typeof item === 'object' && typeof (item as { name?: unknown }).name === 'string' && 'value' in item;

/**
 * A tool update's headers, where a value sent back as `[secret]` (as answers show it) keeps the
 * value the header of that name has now, so a tool read and written back keeps its credentials.
 */
export function keptSecretHeaders(
  given: ReadonlyArray<{ name: string; value: string }>,
  current: ReadonlyArray<{ name: string; value: string }>,
): Array<{ name: string; value: string }> {
  return given.map((header) => {
    if (header.value !== SECRET) return header;
    const kept = current.find((existing) => existing.name.toLowerCase() === header.name.toLowerCase());
    return kept ? { name: header.name, value: kept.value } : header;
  });
}
