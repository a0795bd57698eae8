import { createParser } from 'eventsource-parser';
import type { Readable } from 'node:stream';

/** An event larger than this is not a model's delta: the answer fails rather than the memory growing. */
const MAX_EVENT_CHARS = 1024 * 1024;

/**
 * The `data` of each server-sent event of a body, parsed by `eventsource-parser` (the spec's
 * rules: any line ending, `data:` lines joined, comments skipped). An event the body ends in
 * without its blank line is given too, as the `openai` package's own decoder does.
 */
export async function* serverSentData(body: Readable): AsyncGenerator<string> {
  const ready: string[] = [];
  let failure: Error | null = null;
  const parser = createParser({
    onEvent: (event) => void ready.push(event.data),
    onError: (error) => void (failure ??= error),
    maxBufferSize: MAX_EVENT_CHARS,
  });
  body.setEncoding('utf8');
  for await (const piece of body as AsyncIterable<string>) {
    parser.feed(piece);
    if (failure) throw failure;
    yield* ready.splice(0);
  }
  // The body's end ends its last line and event.
  parser.feed('\n\n');
  yield* ready.splice(0);
}
