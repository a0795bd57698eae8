import { Inject, Injectable } from '@nestjs/common';
import OpenAI, { APIError } from 'openai';
import type {
  ChatCompletionChunk,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import { request as httpRequest } from 'undici';
import { serverSentData } from './server-sent-data';
import { LlmSettings, TwilioSettings } from '../twilio-settings';
import { RUNTIME_SETTINGS } from '../../voice-runtime';
import { ModelToolCall } from './conversation';

/** A model answer failed (an error, or nothing sent for LLM_TIMEOUT_SECONDS): the reason names it. */
export class ModelFailed extends Error {}

export type ModelPart = { type: 'text'; text: string } | { type: 'tools'; calls: ModelToolCall[] };

export interface ModelRequest {
  model: string;
  temperature: number;
  messages: readonly ChatCompletionMessageParam[];
  tools: ChatCompletionFunctionTool[];
}

/**
 * OpenAI's reasoning models (the o-series, gpt-5 and after, but their chat variants) take no
 * `temperature` but the default: any other value is refused (400 "Unsupported value: 'temperature'",
 * platform.openai.com/docs/guides/reasoning). The assistant's temperature goes to every other model.
 */
export const takesTemperature = (model: string) => !/^(o\d|gpt-5(?![\w.-]*chat))/.test(model);

const withTemperature = (model: string, temperature: number) => (takesTemperature(model) ? { temperature } : {});

/**
 * The OpenAI-compatible model of `LLM_BASE_URL` (OpenAI, vLLM, Ollama...). Answers stream over
 * undici with the chunks read as `openai`'s types (the SDK's web streams cost a busy relay more
 * than the rest of a frame's way); the post-call analysis goes through the `openai` package.
 */
@Injectable()
export class ModelClient {
  private readonly client: OpenAI | null;
  private readonly llm: LlmSettings | null;

  constructor(@Inject(RUNTIME_SETTINGS) twilio: TwilioSettings) {
    this.llm = twilio.llm;
    // A failed answer mid-call is not asked again: the caller would wait through the retries.
    this.client = this.llm && new OpenAI({ apiKey: this.llm.apiKey, baseURL: this.llm.baseUrl, maxRetries: 0 });
  }

  /**
   * The model's answer as it streams: each text delta as it arrives, then the tool calls it asked
   * for, if any. Ends quietly when `signal` aborts (the caller spoke over it).
   */
  async *answer(request: ModelRequest, signal: AbortSignal): AsyncGenerator<ModelPart> {
    const { llm } = this.settings();
    const idle = new IdleTimer(llm.timeoutMs, signal);
    const calls: Array<{ id: string; name: string; arguments: string }> = [];
    try {
      // The request as the SDK types it: what it would have sent.
      const params: ChatCompletionCreateParamsStreaming = {
        model: request.model,
        ...withTemperature(request.model, request.temperature),
        stream: true,
        messages: [...request.messages],
        ...(request.tools.length ? { tools: request.tools } : {}),
      };
      const answer = await httpRequest(`${llm.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${llm.apiKey}`, 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify(params),
        signal: idle.signal,
      });
      if (answer.statusCode >= 400) throw new ModelFailed(`model answered ${answer.statusCode}: ${errorMessage(await answer.body.text())}`);
      for await (const data of serverSentData(answer.body)) {
        idle.reset();
        if (data === '[DONE]') break;
        const chunk = JSON.parse(data) as ChatCompletionChunk & { error?: { message?: string } };
        // An error sent inside the stream (OpenAI's `data: {"error": ...}`), as the SDK takes it.
        if (chunk.error) throw new ModelFailed(`model failed: ${chunk.error.message ?? 'an error'}`);
        const delta = chunk.choices?.[0]?.delta;
        if (delta?.content) yield { type: 'text', text: delta.content };
        for (const call of delta?.tool_calls ?? []) {
          const slot = (calls[call.index] ??= { id: '', name: '', arguments: '' });
          if (call.id) slot.id = call.id;
          if (call.function?.name) slot.name += call.function.name;
          if (call.function?.arguments) slot.arguments += call.function.arguments;
        }
      }
      // An aborted stream may end quietly rather than throw.
      if (idle.timedOut && !signal.aborted) throw new Error('timed out');
    } catch (error) {
      if (signal.aborted) return;
      throw error instanceof ModelFailed && !idle.timedOut ? error : failure(error, idle.timedOut, llm.timeoutMs);
    } finally {
      idle.stop();
    }
    if (signal.aborted) return;
    const asked = calls.filter(Boolean).map((c, i) => ({ ...c, id: c.id || `call_${i}` }));
    if (asked.length) yield { type: 'tools', calls: asked };
  }

  /** One answer in the JSON the schema describes (docs/real-calls.md: the post-call analysis). */
  async json(request: Omit<ModelRequest, 'tools'>, schema: Record<string, unknown>): Promise<unknown> {
    const { client, llm } = this.settings();
    const idle = new IdleTimer(llm.timeoutMs * 3);
    try {
      const answer = await client.chat.completions.create(
        {
          model: request.model,
          ...withTemperature(request.model, request.temperature),
          messages: [...request.messages],
          response_format: { type: 'json_schema', json_schema: { name: 'post_call_analysis', schema, strict: true } },
        },
        { signal: idle.signal },
      );
      return JSON.parse(answer.choices?.[0]?.message?.content ?? 'null');
    } catch (error) {
      throw failure(error, idle.timedOut, llm.timeoutMs * 3);
    } finally {
      idle.stop();
    }
  }

  private settings(): { client: OpenAI; llm: LlmSettings } {
    if (!this.client || !this.llm) throw new ModelFailed('no model is set (LLM_API_KEY)');
    return { client: this.client, llm: this.llm };
  }
}

/** The message of an OpenAI error body (`{"error": {"message"}}`), else the body's first line. */
function errorMessage(text: string): string {
  try {
    const message = (JSON.parse(text) as { error?: { message?: unknown } }).error?.message;
    if (typeof message === 'string') return message;
  } catch {
    /* not JSON */
  }
  return text.split('\n')[0].slice(0, 200) || 'no body';
}

function failure(error: unknown, timedOut: boolean, timeoutMs: number): ModelFailed {
  if (timedOut) return new ModelFailed(`model sent nothing for ${timeoutMs / 1000} s`);
  if (error instanceof APIError && error.status) return new ModelFailed(`model answered ${error.status}: ${error.message}`);
  return new ModelFailed(`model failed: ${(error as Error).message}`);
}

/** Aborts when nothing came for `ms` (or when `outer` aborts); reset at each arrival. */
class IdleTimer {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout;
  timedOut = false;

  constructor(
    private readonly ms: number,
    outer?: AbortSignal,
  ) {
    this.timer = this.start();
    outer?.addEventListener('abort', () => this.controller.abort(), { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  reset(): void {
    clearTimeout(this.timer);
    this.timer = this.start();
  }

  stop(): void {
    clearTimeout(this.timer);
  }

  private start(): NodeJS.Timeout {
    return setTimeout(() => {
      this.timedOut = true;
      this.controller.abort();
    }, this.ms);
  }
}
