/** A response body as JSON when it is JSON, else as the text it is. */
export function parsedOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
