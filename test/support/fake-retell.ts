import { IncomingMessage, ServerResponse } from 'node:http';
import { LoopbackServer } from './loopback-server';
import { sign } from 'retell-sdk';
import { RETELL_MODELS } from '../../src/voice-runtimes/retell/retell-models';

/**
 * What Retell refuses of an LLM or an agent (retell-sdk 5.66: `LlmCreateParams.model` is one of
 * its models, checked against the SDK's type at build time; `AgentCreateParams.max_call_duration_ms`
 * 60,000 to 7,200,000; `enable_voicemail_detection` removed for `voicemail_option`).
 */
function retellRefusal(path: string, body: any): string | null {
  if (path.includes('retell-llm') && body.model !== undefined && body.model !== null && !(RETELL_MODELS as readonly string[]).includes(body.model)) {
    return `model must be one of ${RETELL_MODELS.join(', ')}`;
  }
  if (path.includes('agent')) {
    if ('enable_voicemail_detection' in body) return 'enable_voicemail_detection is not a property of an agent: use voicemail_option';
    const ms = body.max_call_duration_ms;
    if (ms !== undefined && !(ms >= 60_000 && ms <= 7_200_000)) return 'max_call_duration_ms must be between 60000 and 7200000';
  }
  return null;
}

/** How the fake Retell answers a call to a number. */
export type RetellScript =
  { reason: string; neverStarted?: boolean; analysis?: Record<string, unknown> } | { refuse: number; retryAfter?: string; message?: string } | { silent: true };

interface Made {
  call_id: string;
  body: any;
  at: number;
  /** `registered` until it starts (then it has a `start_timestamp`), `ended` after. */
  status: 'registered' | 'ongoing' | 'ended';
  started?: number;
}

/**
 * Retell's API on loopback as its documentation and retell-sdk describe it: LLMs and agents made
 * and updated, `POST /v2/create-phone-call`, `POST /v2/list-calls`, a bearer key; each call's events
 * (`call_started`, `call_ended`, `call_analyzed`) posted to its agent's `webhook_url`, signed with
 * retell-sdk's own `sign` and the API key, as Retell signs them.
 */
export class FakeRetell extends LoopbackServer {
  readonly llms = new Map<string, any>();
  readonly agents = new Map<string, any>();
  /** Every create and update, in order: `create-agent`, `update-retell-llm`, ... */
  readonly changes: string[] = [];
  readonly calls: Made[] = [];
  readonly dialsReceived: string[] = [];
  /** The most calls one list page holds here (Retell's own bound is not documented; tests make it small to walk pages). */
  listPage = 1000;
  private seq = 0;

  /** What Retell refused of each create or update. */
  readonly refused: string[] = [];

  constructor(
    private readonly apiKey: string,
    private readonly scriptOf: (to: string, nth: number) => RetellScript,
    /** The key with Retell's webhook badge, which its events are signed with (the API key unless another has it). */
    private readonly webhookKey = apiKey,
  ) {
    super();
  }

  /** Posts a body to the service signed as Retell signs it (or with the signature given). */
  async post(url: string, body: object, signature?: string | null): Promise<{ status: number; body: any }> {
    const raw = JSON.stringify(body);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const signed = signature === undefined ? await sign(raw, this.webhookKey) : signature;
    if (signed !== null) headers['x-retell-signature'] = signed;
    const res = await fetch(url, { method: 'POST', headers, body: raw });
    return { status: res.status, body: await res.json().catch(() => null) };
  }

  protected async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const body = text ? JSON.parse(text) : {};
    const json = (status: number, answer: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(answer));
    };
    if (req.headers.authorization !== `Bearer ${this.apiKey}`) return json(401, { message: 'Unauthorized' });
    const path = new URL(req.url!, this.url).pathname;
    const id = () => `${++this.seq}`.padStart(6, '0');
    const refusal = ['POST', 'PATCH'].includes(req.method!) ? retellRefusal(path, body) : null;
    if (refusal) {
      this.refused.push(refusal);
      return json(400, { status: 'error', message: refusal });
    }
    if (req.method === 'POST' && path === '/create-retell-llm') {
      const llm_id = `llm_${id()}`;
      this.llms.set(llm_id, body);
      this.changes.push('create-retell-llm');
      return json(201, { llm_id, ...body });
    }
    if (req.method === 'PATCH' && path.startsWith('/update-retell-llm/')) {
      const llm_id = path.split('/').pop()!;
      if (!this.llms.has(llm_id)) return json(404, { message: 'LLM not found' });
      this.llms.set(llm_id, { ...this.llms.get(llm_id), ...body });
      this.changes.push('update-retell-llm');
      return json(200, { llm_id, ...this.llms.get(llm_id) });
    }
    if (req.method === 'POST' && path === '/create-agent') {
      const agent_id = `agent_${id()}`;
      this.agents.set(agent_id, body);
      this.changes.push('create-agent');
      return json(201, { agent_id, ...body });
    }
    if (req.method === 'PATCH' && path.startsWith('/update-agent/')) {
      const agent_id = path.split('/').pop()!;
      if (!this.agents.has(agent_id)) return json(404, { message: 'Agent not found' });
      this.agents.set(agent_id, { ...this.agents.get(agent_id), ...body });
      this.changes.push('update-agent');
      return json(200, { agent_id, ...this.agents.get(agent_id) });
    }
    if (req.method === 'POST' && path === '/v2/list-agents') {
      const items = [...this.agents].map(([agent_id, agent]) => ({
        agent_id,
        agent_name: agent.agent_name,
        channel: 'voice',
        tags: {},
        user_modified_timestamp: 0,
      }));
      return json(200, { has_more: false, items });
    }
    if (req.method === 'POST' && path === '/v3/list-calls') {
      // retell-sdk 5.66 `CallListParams`: AND of filters, `limit`, an opaque `pagination_key`.
      const metadata: Array<{ key?: string; op: string; value: string }> = body.filter_criteria?.metadata ?? [];
      const to: { op: string; value: string } | undefined = body.filter_criteria?.to_number;
      const matching = this.calls.filter(
        (c) => (!to || (to.op === 'eq' && c.body.to_number === to.value)) && metadata.every((f) => f.op === 'eq' && c.body.metadata?.[f.key ?? ''] === f.value),
      );
      const limit = Math.min(Number(body.limit ?? 50), this.listPage);
      const from = Number(body.pagination_key ?? 0);
      const items = matching.slice(from, from + limit).map((c) => ({
        call_id: c.call_id,
        call_type: 'phone_call',
        call_status: c.status,
        metadata: c.body.metadata,
        to_number: c.body.to_number,
        ...(c.started ? { start_timestamp: c.started } : {}),
      }));
      const more = from + limit < matching.length;
      return json(200, { has_more: more, items, ...(more ? { pagination_key: String(from + limit) } : {}) });
    }
    if (req.method === 'POST' && path === '/v2/create-phone-call') {
      this.dialsReceived.push(body.to_number);
      const script = this.scriptOf(body.to_number, this.dialsReceived.filter((n) => n === body.to_number).length);
      if ('refuse' in script)
        return json(script.refuse, { message: script.message ?? 'Refused' }, script.retryAfter ? { 'retry-after': script.retryAfter } : {});
      if (!this.agents.has(body.override_agent_id)) return json(404, { message: 'Agent not found' });
      const made: Made = { call_id: `call_${id()}`, body, at: Date.now(), status: 'registered' };
      this.calls.push(made);
      json(201, { call_id: made.call_id, call_type: 'phone_call', agent_id: body.override_agent_id, call_status: 'registered', metadata: body.metadata });
      if ('reason' in script) this.play(made, script);
      return;
    }
    json(404, { message: 'Not found' });
  }

  private play(made: Made, script: { reason: string; neverStarted?: boolean; analysis?: Record<string, unknown> }): void {
    const webhook = this.agents.get(made.body.override_agent_id).webhook_url;
    const call = { call_id: made.call_id, agent_id: made.body.override_agent_id, metadata: made.body.metadata, to_number: made.body.to_number };
    const run = (async () => {
      await new Promise((r) => setTimeout(r, 5));
      if (!script.neverStarted) {
        made.status = 'ongoing';
        made.started = Date.now();
        await this.post(webhook, { event: 'call_started', call });
      }
      made.status = 'ended';
      const ended = {
        ...call,
        disconnection_reason: script.reason,
        duration_ms: script.neverStarted ? 0 : 30_400,
        ...(script.neverStarted ? {} : { transcript: 'Agent: Hello!\nUser: Hi.', recording_url: 'https://dxc03zgurdly9.cloudfront.net/rec.wav' }),
        call_cost: { combined_cost: 17 },
      };
      await this.post(webhook, { event: 'call_ended', call: ended });
      if (script.analysis) await this.post(webhook, { event: 'call_analyzed', call: { ...ended, call_analysis: script.analysis } });
    })();
    this.track(run);
  }
}
