/**
 * About how many bytes a value holds in memory (two a character, a few words for anything else),
 * for bounding a cache by what it holds rather than by how many entries: a lead's variables may
 * weigh a megabyte. Values are trees, as parsed JSON and states folded by deciders are.
 */
export function roughSize(value: unknown): number {
  if (typeof value === 'string') return 16 + 2 * value.length;
  if (value === null || typeof value !== 'object') return 8;
  let size = 32;
  for (const key in value) size += 16 + 2 * key.length + roughSize((value as Record<string, unknown>)[key]);
  return size;
}
