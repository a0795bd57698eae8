/** Objects and arrays nested deeper than this are refused (docs/api.md). */
export const MAX_JSON_DEPTH = 32;

/**
 * Scans JSON text (without parsing it, so that no recursive parser or transformer ever meets
 * the nesting) and names the outermost field whose value nests deeper than `max` levels:
 * the top-level key, or `body` when the body itself is an array. Null when none does.
 */
export function tooDeepField(text: string, max = MAX_JSON_DEPTH): string | null {
  let depth = 0;
  let topIsArray = false;
  let topKey = 'body';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const start = i;
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      if (depth === 1 && !topIsArray && isFollowedByColon(text, i + 1)) topKey = decoded(text.slice(start, i + 1));
    } else if (c === '{' || c === '[') {
      if (depth === 0) topIsArray = c === '[';
      // The body's own braces are level 0: a field's value may open `max` levels inside it.
      if (++depth > max + 1) return topIsArray ? 'body' : topKey;
    } else if (c === '}' || c === ']') {
      depth--;
    }
  }
  return null;
}

function isFollowedByColon(text: string, from: number): boolean {
  let j = from;
  while (j < text.length && (text[j] === ' ' || text[j] === '\t' || text[j] === '\n' || text[j] === '\r')) j++;
  return text[j] === ':';
}

function decoded(quoted: string): string {
  try {
    return JSON.parse(quoted) as string;
  } catch {
    return quoted.slice(1, -1);
  }
}
