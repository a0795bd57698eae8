/** How every answer shows a secret once it was set (docs/teams.md). */
export const SECRET = '[secret]';

/** Fields of event data and documents that hold a secret or name a credential. */
const SECRET_FIELDS = new Set(['webhook_secret', 'token_hash', 'authorization', 'api_key', 'auth_token']);

/** A tool's headers as answers show them: the names, each value `[secret]` (bearer tokens for the users' systems). */
export const hiddenHeaders = (headers: ReadonlyArray<{ name: string; value: string }>) => headers.map(({ name }) => ({ name, value: SECRET }));

/**
 * A copy of `value` with every secret shown as `[secret]`, at any depth: the fields above, and the
 * values of any `headers` list of `{name, value}` (a tool's). What audit and history show of events.
 */
export function withSecretsHidden(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withSecretsHidden);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => {
      if (SECRET_FIELDS.has(key.toLowerCase()) && inner !== null && inner !== undefined) return [key, SECRET];
      if (key === 'headers' && Array.isArray(inner) && inner.every(isHeader)) return [key, hiddenHeaders(inner)];
      return [key, withSecretsHidden(inner)];
    }),
  );
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
