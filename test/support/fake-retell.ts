import { IncomingMessage, ServerResponse } from 'node:http';
import { LoopbackServer } from './loopback-server';
import { sign } from 'retell-sdk';

/** How the fake Retell answers a call to a number. */
export type RetellScript =
  { reason: string; neverStarted?: boolean; analysis?: Record<string, unknown> } | { refuse: number; retryAfter?: string; message?: string } | { silent: true };

interface Made {
  call_id: string;
  body: any;
  at: number;
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
  private seq = 0;

  constructor(
    private readonly apiKey: string,
    private readonly scriptOf: (to: string, nth: number) => RetellScript,
  ) {
    super();
  }

  /** Posts a body to the service signed as Retell signs it (or with the signature given). */
  async post(url: string, body: object, signature?: string | null): Promise<{ status: number; body: any }> {
    const raw = JSON.stringify(body);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const signed = signature === undefined ? await sign(raw, this.apiKey) : signature;
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
    if (req.method === 'POST' && path === '/v2/list-calls') {
      const since = body.filter_criteria?.start_timestamp?.lower_threshold ?? 0;
      const to: string[] | undefined = body.filter_criteria?.to_number;
      return json(
        200,
        this.calls.filter((c) => c.at >= since && (!to || to.includes(c.body.to_number))).map((c) => ({ call_id: c.call_id, metadata: c.body.metadata })),
      );
    }
    if (req.method === 'POST' && path === '/v2/create-phone-call') {
      this.dialsReceived.push(body.to_number);
      const script = this.scriptOf(body.to_number, this.dialsReceived.filter((n) => n === body.to_number).length);
      if ('refuse' in script)
        return json(script.refuse, { message: script.message ?? 'Refused' }, script.retryAfter ? { 'retry-after': script.retryAfter } : {});
      if (!this.agents.has(body.override_agent_id)) return json(404, { message: 'Agent not found' });
      const made: Made = { call_id: `call_${id()}`, body, at: Date.now() };
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
      if (!script.neverStarted) await this.post(webhook, { event: 'call_started', call });
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
