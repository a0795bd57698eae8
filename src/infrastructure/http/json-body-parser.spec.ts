import type { FastifyInstance } from 'fastify';
import { Readable } from 'node:stream';
import { BODY_LIMIT_BYTES, installJsonBodyParser } from './json-body-parser';

type Parser = (req: object, payload: Readable, done: (error: (Error & { status?: number }) | null, body?: unknown) => void) => void;

/** The JSON parser as the service installs it, taken from a stand-in for Fastify's registry. */
function jsonParser(): Parser {
  let parser!: Parser;
  const fastify = { removeContentTypeParser: () => undefined, addContentTypeParser: (_type: string, fn: Parser) => (parser = fn) };
  installJsonBodyParser(fastify as unknown as FastifyInstance);
  return parser;
}

describe('JSON bodies over 1 MiB (docs/api.md: 413 answered before the connection closes)', () => {
  it('reads the rest of a body past the limit before refusing it, so a client still sending reads the 413', async () => {
    const size = BODY_LIMIT_BYTES + 512 * 1024;
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let sent = 0;
    const payload = new Readable({
      read() {
        // Sent slowly, as a client on a real link does.
        setTimeout(() => {
          if (sent >= size) return void this.push(null);
          sent += chunk.length;
          this.push(chunk);
        }, 1);
      },
    });
    const refused = await new Promise<Error & { status?: number }>((resolve) =>
      jsonParser()({ headers: { 'content-length': String(size) }, routeOptions: { url: '/api/user/lead' } }, payload, (error) => resolve(error!)),
    );
    expect(refused.status).toBe(413);
    expect(payload.readableEnded).toBe(true);
    expect(sent).toBeGreaterThanOrEqual(size);
  });

  it('parses a body within the limit', async () => {
    const body = await new Promise<unknown>((resolve, reject) =>
      jsonParser()({ headers: {}, routeOptions: { url: '/x' } }, Readable.from([Buffer.from('{"a":[1]}')]), (error, parsed) =>
        error ? reject(error) : resolve(parsed),
      ),
    );
    expect(body).toEqual({ a: [1] });
  });
});
