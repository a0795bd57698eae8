import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { hasValidSignature } from '../../shared/signature';
import { DialRequest } from '../dialer.port';
import { HttpDialer } from './http-dialer';
import { renderedAssistant } from '../../testing/assistant.fixture';

const request: DialRequest = {
  call_id: 7,
  from: '+12015550100',
  to: '+12015550123',
  assistant_id: 1,
  assistant: renderedAssistant(),
  campaign_id: 2,
  lead_id: 3,
  secondary_contact_id: null,
  variables: { customer_name: 'Ann' },
  callback_url: 'http://127.0.0.1:1/api/telephony/calls/7/events',
};

describe('http dialer', () => {
  let server: Server;
  let answer: (res: import('node:http').ServerResponse) => void;
  const received: Array<{ body: string; signature: string }> = [];
  let url: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push({ body, signature: String(req.headers['x-signature']) });
        answer(res);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/dial`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const dialer = (timeoutMs?: number) => new HttpDialer({ url, secret: 's3cret', maxOpenDials: null }, timeoutMs);

  it('posts the dial request signed with TELEPHONY_SECRET', async () => {
    answer = (res) => res.writeHead(202).end();
    await dialer().dial(request);
    const last = received.at(-1)!;
    expect(JSON.parse(last.body)).toEqual(request);
    expect(hasValidSignature(last.body, 's3cret', last.signature)).toBe(true);
  });

  it('takes a non-2xx answer as a refusal', async () => {
    answer = (res) => res.writeHead(500).end('{}');
    await expect(dialer().dial(request)).rejects.toThrow('the provider answered 500');
  });

  it('gives up on a provider that does not answer in time', async () => {
    answer = (res) => setTimeout(() => res.writeHead(200).end(), 500);
    await expect(dialer(50).dial(request)).rejects.toThrow('did not answer within 0.05 s');
  });

  it('takes an unreachable provider as a refusal', async () => {
    const closed = new HttpDialer({ url: 'http://127.0.0.1:1/dial', secret: 'a-secret', maxOpenDials: null });
    await expect(closed.dial(request)).rejects.toThrow('could not be reached');
  });
});
