import type { FastifyReply } from 'fastify';
import { AddressInfo } from 'node:net';
import { createServer, get, Server, ServerResponse } from 'node:http';
import { sendExport } from './streamed-export';

/** About 25 MB: more than the socket holds, so the pages wait on the client. */
const PAGES = 400;
const ROW = 'x'.repeat(64 * 1024);

describe('a streamed export', () => {
  let server: Server;
  /** For each page made, how many listeners the answer had on `close` then. */
  let made: number[];
  let answered: Promise<void>;

  async function* pages(res: ServerResponse) {
    for (let page = 0; page < PAGES; page++) {
      made.push(res.listenerCount('close'));
      yield [[page, ROW]];
    }
  }

  beforeEach(async () => {
    made = [];
    server = createServer((_, res: ServerResponse) => {
      answered = sendExport({ hijack: () => undefined, raw: res } as unknown as FastifyReply, 'ndjson', 'rows', ['page', 'row'], pages(res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });

  afterEach(() => new Promise((resolve) => server.close(resolve)));

  const url = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

  it('waits on a slow client page by page, leaving no listener behind, and sends every row', async () => {
    const text = await new Promise<string>((resolve, reject) =>
      get(url(), (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          res.pause();
          setImmediate(() => res.resume());
        });
        res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8'))).on('error', reject);
      }).on('error', reject),
    );
    await answered;
    expect(
      text
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line).page),
    ).toEqual([...Array(PAGES).keys()]);
    expect(Math.max(...made) - made[0]).toBeLessThanOrEqual(1);
  });

  it('stops reading pages once the client has gone', async () => {
    await new Promise<void>((resolve) =>
      get(url(), (res) => {
        res.once('data', () => res.destroy());
        res.on('close', resolve).on('error', () => undefined);
      }).on('error', () => undefined),
    );
    await answered;
    expect(made.length).toBeLessThan(PAGES);
  });

  it('never ends as a clean answer when a read fails part way: the client sees the answer cut off', async () => {
    server.removeAllListeners('request');
    server.on('request', (_, res: ServerResponse) => {
      async function* failing() {
        yield [[0, 'first']];
        throw new Error('SnapshotTooOld');
      }
      answered = sendExport({ hijack: () => undefined, raw: res } as unknown as FastifyReply, 'csv', 'rows', ['page', 'row'], failing());
    });
    const outcome = await new Promise<string>((resolve) =>
      get(url(), (res) => {
        res.resume();
        res.on('end', () => resolve('ended cleanly'));
        res.on('aborted', () => resolve('cut off'));
        res.on('error', () => resolve('cut off'));
      }).on('error', () => resolve('cut off')),
    );
    await answered;
    expect(outcome).toBe('cut off');
  });
});
