import type { Readable } from 'node:stream';

/**
 * The `data` of each server-sent event of a body (html.spec.whatwg.org, "server-sent events"): lines
 * end in LF, CRLF or CR; an event's `data:` lines are joined with LF; a blank line ends the event;
 * comments (`:`) and other fields are skipped. An event the body ends in is given too, as the
 * `openai` package's own decoder does (the spec would drop it).
 */
export async function* serverSentData(body: Readable): AsyncGenerator<string> {
  body.setEncoding('utf8');
  let pending = '';
  let data: string[] = [];
  for await (const piece of body as AsyncIterable<string>) {
    pending += piece;
    let end: number;
    while ((end = lineEnd(pending)) !== -1) {
      const line = pending.slice(0, end);
      pending = pending.slice(pending[end] === '\r' && pending[end + 1] === '\n' ? end + 2 : end + 1);
      if (line === '') {
        if (data.length) yield data.join('\n');
        data = [];
      } else if (line.startsWith('data:')) data.push(line.slice(line[5] === ' ' ? 6 : 5));
    }
  }
  const last = pending.replace(/\r$/, '');
  if (last.startsWith('data:')) data.push(last.slice(last[5] === ' ' ? 6 : 5));
  if (data.length) yield data.join('\n');
}

/** Where the first line ends; -1 while it may go on (a CR last may be followed by its LF). */
function lineEnd(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) return i;
    if (c === 13) return i + 1 < text.length ? i : -1;
  }
  return -1;
}
