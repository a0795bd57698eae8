import Fastify, { FastifyInstance } from 'fastify';
import { sendExport } from './streamed-export';

/** docs/reports.md: an export cut short by a failed read never reads as a whole one. */
describe('sendExport', () => {
  let server: FastifyInstance;
  let url: string;

  beforeAll(async () => {
    server = Fastify();
    server.get('/export', async (_request, reply) => {
      async function* pages() {
        yield [['first', 1]];
        await new Promise((resolve) => setTimeout(resolve, 20));
        throw Object.assign(new Error('Read timestamp is older than the oldest available timestamp.'), { code: 239 });
      }
      await sendExport(reply, 'csv', 'calls', ['name', 'n'], pages());
    });
    url = await server.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => server.close());

  it('a read failing after the headers ends the answer with an error, not as a clean 200', async () => {
    const response = await fetch(`${url}/export`);
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow();
  });
});
