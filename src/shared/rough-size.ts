/**
 * About how many bytes a value holds in memory (two a character, a few words for anything else),
 * for bounding a cache by what it holds rather than by how many entries: a lead's variables may
 * weigh a megabyte. Values are trees (parsed JSON, states folded by deciders), whose collections
 * are arrays, plain objects, maps (an organisation's members) and sets (a user's tokens).
 */
export function roughSize(value: unknown): number {
  if (typeof value === 'string') return 16 + 2 * value.length;
  if (value === null || typeof value !== 'object') return 8;
  let size = 32;
  if (value instanceof Map) for (const [key, inner] of value) size += 16 + roughSize(key) + roughSize(inner);
  else if (value instanceof Set) for (const inner of value) size += 16 + roughSize(inner);
  else for (const key in value) size += 16 + 2 * key.length + roughSize((value as Record<string, unknown>)[key]);
  return size;
}
