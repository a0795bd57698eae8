import { IncomingMessage, ServerResponse } from 'node:http';
import { LoopbackServer } from './loopback-server';

/** How the fake model answers one request. */
export type ModelScript =
  /** Streams these text deltas, `everyMs` apart. */
  | { text: string[]; everyMs?: number }
  /** Streams a tool call (its arguments in two deltas, as models do). */
  | { tool: string; args: Record<string, unknown> }
  /** Sends `text` then breaks the stream off (an error mid-answer). */
  | { failAfter: string[] }
  /** Answers this HTTP status with an OpenAI error body. */
  | { status: number }
  /** Sends a first delta, then nothing more. */
  | { stall: true };

export interface ModelRequestSeen {
  body: any;
  authorization: string | undefined;
}

/**
 * An OpenAI-compatible chat completions API on loopback (`POST /chat/completions`): streaming
 * answers as server-sent `chat.completion.chunk` events ending in `[DONE]`, as OpenAI, vLLM and
 * Ollama send them; a non-streaming request (the post-call analysis) gets `analysis` as its JSON content.
 */
export class FakeModel extends LoopbackServer {
  readonly requests: ModelRequestSeen[] = [];
  analysis: unknown = {};
  private readonly open = new Set<ServerResponse>();

  constructor(private readonly scriptOf: (body: any, nth: number) => ModelScript) {
    super();
  }

  protected override beforeStop(): void {
    for (const res of this.open) res.destroy();
  }

  /** The streaming requests, in order (the conversation's turns). */
  get turns(): any[] {
    return this.requests.filter((r) => r.body.stream).map((r) => r.body);
  }

  protected async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    this.requests.push({ body, authorization: req.headers.authorization });
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) return this.json(res, 404, { error: { message: 'Not found' } });
    // OpenAI's reasoning models take only the default temperature (platform.openai.com/docs/guides/reasoning).
    if (/^(o\d|gpt-5(?![\w.-]*chat))/.test(String(body.model)) && body.temperature !== undefined && body.temperature !== 1) {
      return this.json(res, 400, {
        error: {
          message: `Unsupported value: 'temperature' does not support ${body.temperature} with this model. Only the default (1) value is supported.`,
          type: 'invalid_request_error',
          param: 'temperature',
          code: 'unsupported_value',
        },
      });
    }
    if (!body.stream) {
      return this.json(res, 200, completion({ role: 'assistant', content: JSON.stringify(this.analysis) }, 'stop'));
    }
    const script = this.scriptOf(body, this.turns.length);
    if ('status' in script)
      return this.json(res, script.status, { error: { message: 'The server had an error while processing your request.', type: 'server_error' } });
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    this.open.add(res);
    res.on('close', () => this.open.delete(res));
    const send = (delta: object, finish: string | null = null) => res.write(`data: ${JSON.stringify(chunk(delta, finish))}\n\n`);
    if ('stall' in script) return void send({ role: 'assistant', content: 'Let me' });
    if ('failAfter' in script) {
      for (const text of script.failAfter) send({ content: text });
      await new Promise((r) => setTimeout(r, 20));
      return void res.destroy();
    }
    if ('tool' in script) {
      const args = JSON.stringify(script.args);
      const half = Math.floor(args.length / 2);
      send({
        role: 'assistant',
        tool_calls: [{ index: 0, id: `call_${this.requests.length}`, type: 'function', function: { name: script.tool, arguments: args.slice(0, half) } }],
      });
      send({ tool_calls: [{ index: 0, function: { arguments: args.slice(half) } }] });
      send({}, 'tool_calls');
    } else {
      for (const text of script.text) {
        if (script.everyMs) await new Promise((r) => setTimeout(r, script.everyMs));
        if (res.destroyed) return;
        send({ content: text });
      }
      send({}, 'stop');
    }
    res.end('data: [DONE]\n\n');
  }

  private json(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }
}

const chunk = (delta: object, finish: string | null) => ({
  id: 'chatcmpl-fake',
  object: 'chat.completion.chunk',
  created: Math.floor(Date.now() / 1000),
  model: 'gpt-4o-mini',
  choices: [{ index: 0, delta, finish_reason: finish }],
});

const completion = (message: object, finish: string) => ({
  id: 'chatcmpl-fake',
  object: 'chat.completion',
  created: Math.floor(Date.now() / 1000),
  model: 'gpt-4o-mini',
  choices: [{ index: 0, message, finish_reason: finish }],
});
