import { IncomingMessage, ServerResponse } from 'node:http';
import { Vapi } from '@vapi-ai/server-sdk';
import { LoopbackServer } from './loopback-server';

/** Vapi's models by provider (@vapi-ai/server-sdk 2.x enums, as Vapi's API checks `model.model`). */
const MODELS: Record<string, readonly string[]> = {
  openai: Object.values(Vapi.OpenAiModelModel),
  anthropic: Object.values(Vapi.AnthropicModelModel),
  google: Object.values(Vapi.GoogleModelModel),
};
const DEEPGRAM_LANGUAGES: readonly string[] = Object.values(Vapi.DeepgramTranscriberLanguage);
const FIRST_MESSAGE_MODES: readonly string[] = Object.values(Vapi.CreateAssistantDtoFirstMessageMode);

/**
 * What Vapi refuses in a `POST /call`'s transient assistant, in its own words (class-validator's,
 * as Vapi's NestJS API answers them): the limits of Vapi's OpenAPI document (CreateAssistantDTO:
 * `name` maxLength 40, `maxDurationSeconds` 10 to 43200; `Server.timeoutSeconds` 1 to 300;
 * `OpenAIModel.temperature` 0 to 2) and the SDK's enums.
 */
export function vapiRefusals(body: any): string[] {
  const problems: string[] = [];
  const a = body?.assistant ?? {};
  if (typeof body?.customer?.number !== 'string') problems.push('customer.number must be a string');
  if (typeof a.name === 'string' && a.name.length > 40) problems.push('assistant.name must be shorter than or equal to 40 characters');
  if (a.firstMessageMode !== undefined && !FIRST_MESSAGE_MODES.includes(a.firstMessageMode))
    problems.push('assistant.firstMessageMode must be one of the following values');
  const models = MODELS[a.model?.provider];
  if (!models) problems.push('assistant.model.provider must be one of the following values');
  else if (!models.includes(a.model.model)) problems.push(`assistant.model.model must be one of the following values: ${models.slice(0, 3).join(', ')}, ...`);
  if (typeof a.model?.temperature === 'number' && (a.model.temperature < 0 || a.model.temperature > 2))
    problems.push('assistant.model.temperature must not be greater than 2');
  if (a.transcriber?.provider === 'deepgram' && !DEEPGRAM_LANGUAGES.includes(a.transcriber.language)) {
    problems.push('assistant.transcriber.language must be one of the following values');
  }
  if (typeof a.maxDurationSeconds === 'number' && (a.maxDurationSeconds < 10 || a.maxDurationSeconds > 43200))
    problems.push('assistant.maxDurationSeconds must not be less than 10');
  for (const server of [a.server, ...(a.model?.tools ?? []).map((t: any) => t.server)].filter(Boolean)) {
    if (server.timeoutSeconds !== undefined && !(server.timeoutSeconds >= 1 && server.timeoutSeconds <= 300))
      problems.push('server.timeoutSeconds must not be greater than 300');
  }
  return problems;
}

/** Vapi's lists: `limit` 0 to 1000 (default 100), newest first, `createdAtLt` and `createdAtGe` bounds (Vapi's OpenAPI document, `GET /call`). */
function listed<T extends { createdAt: string }>(items: T[], url: URL): T[] | string {
  const limit = Number(url.searchParams.get('limit') ?? 100);
  if (!(limit >= 0 && limit <= 1000)) return 'limit must not be greater than 1000';
  const before = url.searchParams.get('createdAtLt');
  const since = url.searchParams.get('createdAtGe');
  return items
    .filter((i) => (!before || i.createdAt < before) && (!since || i.createdAt >= since))
    .sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1))
    .slice(0, limit);
}

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
  /** The list requests received (`GET /call`, `GET /phone-number`), with their queries. */
  readonly lists: string[] = [];
  /** What Vapi would have refused of each `POST /call` refused. */
  readonly refused: string[][] = [];
  private seq = 0;

  constructor(
    private readonly apiKey: string,
    readonly numbers: Array<{ id: string; number: string; createdAt?: string }>,
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
    const badRequest = (message: string[] | string) => json(400, { message, error: 'Bad Request', statusCode: 400 });
    if (req.method === 'GET' && url.pathname === '/phone-number') {
      const page = listed(
        this.numbers.map((n, i) => ({ ...n, provider: 'twilio', createdAt: n.createdAt ?? new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString() })),
        url,
      );
      this.lists.push(`${req.method} ${req.url}`);
      return typeof page === 'string' ? badRequest([page]) : json(200, page);
    }
    if (req.method === 'GET' && url.pathname === '/call') {
      const phoneNumberId = url.searchParams.get('phoneNumberId');
      const page = listed(
        this.calls.filter((c) => !phoneNumberId || c.body.phoneNumberId === phoneNumberId),
        url,
      );
      this.lists.push(`${req.method} ${req.url}`);
      return typeof page === 'string'
        ? badRequest([page])
        : json(
            200,
            page.map((c) => this.callObject(c, 'queued')),
          );
    }
    if (req.method === 'POST' && url.pathname === '/call') {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const refusals = vapiRefusals(body);
      if (refusals.length) {
        this.refused.push(refusals);
        return badRequest(refusals);
      }
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
