import { IncomingMessage, ServerResponse } from 'node:http';
import { LoopbackServer } from './loopback-server';

/**
 * How the fake Vapi answers a call to a number: the `endedReason` its end-of-call report gives
 * (after ringing, and in progress unless `neverAnswered`), or a refusal of the dial itself.
 */
export type VapiScript =
  | { endedReason: string; neverAnswered?: boolean; report?: Record<string, unknown> }
  | { refuse: number; retryAfter?: string; message?: string }
  | { silent: true }
  /** `hold`: the call is made (and listed) but the answer never sent; `hang`: neither. */
  | { hold: true }
  | { hang: true };

export interface VapiCallMade {
  id: string;
  body: any;
  createdAt: string;
}

/**
 * Vapi's API on loopback as its documentation describes it: `GET /phone-number`, `POST /call`
 * (201 with the call), `GET /call` (filtered by `phoneNumberId` and `createdAtGe`), a bearer key;
 * each call's messages (`status-update`, `end-of-call-report`) posted to the call's
 * `assistant.server.url` with its `X-Vapi-Secret` header.
 */
export class FakeVapi extends LoopbackServer {
  readonly calls: VapiCallMade[] = [];
  /** Every `POST /call` received, by the number it would call. */
  readonly dialsReceived: string[] = [];
  private held: ServerResponse[] = [];
  readonly unauthorised: string[] = [];
  readonly answers: Array<{ type: string; status: number; body: unknown }> = [];
  private seq = 0;

  constructor(
    private readonly apiKey: string,
    readonly numbers: Array<{ id: string; number: string }>,
    private readonly scriptOf: (to: string, nth: number) => VapiScript,
  ) {
    super();
  }

  protected override beforeStop(): void {
    for (const res of this.held) res.destroy();
  }

  /** Posts a message to the service as Vapi does (or with another secret). */
  async send(serverUrl: string, secret: string | undefined, message: object): Promise<{ status: number; body: any }> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (secret !== undefined) headers['x-vapi-secret'] = secret;
    const res = await fetch(serverUrl, { method: 'POST', headers, body: JSON.stringify({ message }) });
    const body = await res.json().catch(() => null);
    this.answers.push({ type: (message as { type: string }).type, status: res.status, body });
    return { status: res.status, body };
  }

  protected async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${this.apiKey}`) {
      this.unauthorised.push(`${req.method} ${req.url}`);
      return json(401, { message: 'Invalid Key. Hot tip, you may be using the private key instead of the public key, or vice versa.' });
    }
    const url = new URL(req.url!, this.url);
    if (req.method === 'GET' && url.pathname === '/phone-number')
      return json(
        200,
        this.numbers.map((n) => ({ ...n, provider: 'twilio' })),
      );
    if (req.method === 'GET' && url.pathname === '/call') {
      const since = Date.parse(url.searchParams.get('createdAtGe') ?? '1970-01-01T00:00:00Z');
      const phoneNumberId = url.searchParams.get('phoneNumberId');
      const listed = this.calls.filter((c) => Date.parse(c.createdAt) >= since && (!phoneNumberId || c.body.phoneNumberId === phoneNumberId));
      return json(
        200,
        listed.map((c) => this.callObject(c, 'queued')),
      );
    }
    if (req.method === 'POST' && url.pathname === '/call') {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const to: string = body.customer?.number;
      this.dialsReceived.push(to);
      const script = this.scriptOf(to, this.dialsReceived.filter((n) => n === to).length);
      if ('refuse' in script) {
        return json(
          script.refuse,
          { message: script.message ?? 'Refused.', error: 'Bad Request', statusCode: script.refuse },
          script.retryAfter ? { 'retry-after': script.retryAfter } : {},
        );
      }
      if ('hang' in script) return void this.held.push(res);
      const call: VapiCallMade = { id: `019a${String(++this.seq).padStart(4, '0')}-vapi-call`, body, createdAt: new Date().toISOString() };
      this.calls.push(call);
      if ('hold' in script) return void this.held.push(res);
      json(201, this.callObject(call, 'queued'));
      if ('endedReason' in script) this.play(call, script);
      return;
    }
    json(404, { message: 'Cannot find route' });
  }

  private callObject(call: VapiCallMade, status: string) {
    return {
      id: call.id,
      type: 'outboundPhoneCall',
      status,
      phoneNumberId: call.body.phoneNumberId,
      customer: call.body.customer,
      assistant: call.body.assistant,
      createdAt: call.createdAt,
    };
  }

  /** Sends the call's messages in order, each after the answer to the one before. */
  private play(call: VapiCallMade, script: { endedReason: string; neverAnswered?: boolean; report?: Record<string, unknown> }): void {
    const { url, headers } = call.body.assistant.server;
    const secret = headers['X-Vapi-Secret'];
    const ref = { id: call.id, assistant: call.body.assistant };
    const run = (async () => {
      await new Promise((r) => setTimeout(r, 5));
      await this.send(url, secret, { type: 'status-update', status: 'ringing', call: ref });
      if (!script.neverAnswered) await this.send(url, secret, { type: 'status-update', status: 'in-progress', call: ref });
      const startedAt = new Date(Date.now() - 42_000).toISOString();
      await this.send(url, secret, {
        type: 'end-of-call-report',
        endedReason: script.endedReason,
        call: ref,
        ...(script.neverAnswered
          ? {}
          : {
              startedAt,
              endedAt: new Date().toISOString(),
              artifact: { transcript: 'AI: Hello!\nUser: Hi.', recordingUrl: 'https://storage.vapi.ai/recording.wav' },
            }),
        cost: 0.12,
        ...script.report,
      });
    })();
    this.track(run);
  }
}
