import { CommandBus } from '@nestjs/cqrs';
import Retell, { APIConnectionTimeoutError, APIError } from 'retell-sdk';
import type { CallListParams, CallListResponse } from 'retell-sdk/resources/call';
import { ClaimAssistantPublish, RecordAssistantLlm, RecordAssistantPublished } from '../../assistants/commands/runtime-publication';
import { PublicationState, isPublished } from '../../assistants/runtime-publication.decider';
import { AppConfig } from '../../infrastructure/config/app-config';
import { RetellSettings } from './retell-settings';
import { DialAccepted, DialLookup, DialRefused, DialRequest, DialUnanswered, Dialer } from '../dialer.port';
import { DIAL_TIMEOUT_MS } from '../dialer.port';
import { refusalReason, retryAfterMs } from '../runtime-http';
import { AssistantRecord } from '../assistant-record';
import { retellAgent, retellAgentName, retellLlm } from './retell-agent';

/** How long a dial waits for another process publishing its assistant. */
const PUBLISH_WAIT_MS = 20_000;

/** Dynamic variables are strings at Retell. */
const asStrings = (variables: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(variables).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));

/**
 * `DIALER=retell` (docs/real-calls.md): the assistant published as a Retell LLM and agent before its
 * first call and again after it changes (its ids kept in the assistant's events), then each call
 * dialed with that agent. retell-sdk's client, with no retries of its own: a retried dial could call twice.
 */
export class RetellDialer extends Dialer {
  readonly provider = 'retell' as const;
  private readonly client: Retell;

  constructor(
    private readonly config: AppConfig,
    retell: RetellSettings,
    private readonly commands: CommandBus,
  ) {
    super();
    this.client = new Retell({ apiKey: retell.apiKey, baseURL: retell.baseUrl, maxRetries: 0, timeout: DIAL_TIMEOUT_MS });
  }

  private get publicUrl(): string {
    return this.config.publicUrl.replace(/\/$/, '');
  }

  async dial(request: DialRequest): Promise<DialAccepted> {
    if (!request.from) throw new DialRefused('retell needs the assistant to have a phone number');
    const agentId = await this.agentFor(request.assistant_id, request.assistant);
    const call = await this.retell(
      () =>
        this.client.call.createPhoneCall({
          from_number: request.from!,
          to_number: request.to,
          override_agent_id: agentId,
          retell_llm_dynamic_variables: asStrings(request.variables),
          metadata: { call_id: request.call_id },
        }),
      true,
    );
    return { providerCallId: call.call_id ?? null };
  }

  /**
   * docs/real-calls.md: Retell's call carrying our call id in its metadata, through every page of
   * `POST /v3/list-calls` (retell-sdk 5.66, `client.call.list`; `/v2/list-calls` is deprecated).
   * Not filtered on `start_timestamp`: a call still `registered` has none.
   */
  override async lookup(request: DialRequest, _sentSince: Date): Promise<DialLookup> {
    // By the number called, matched here on the metadata: whether Retell's metadata filter matches a
    // number stored as a number is not documented, and a lookup that misses a call doubles it.
    const filter: CallListParams['filter_criteria'] = { to_number: { type: 'string', op: 'eq', value: request.to } };
    try {
      for (let key: string | undefined; ;) {
        const page: CallListResponse = await this.client.call.list({ filter_criteria: filter, limit: 1000, ...(key ? { pagination_key: key } : {}) });
        const found = page.items.find((c) => String((c.metadata as { call_id?: unknown } | undefined)?.call_id) === String(request.call_id));
        if (found) return { found: found.call_id };
        if (!page.has_more || !page.pagination_key) return 'none';
        key = page.pagination_key;
      }
    } catch {
      return 'unknown';
    }
  }

  /** The agent of the assistant's settings as they stand: published here, or by another process that claimed it first. */
  private async agentFor(assistantId: number, assistant: AssistantRecord): Promise<string> {
    for (const deadline = Date.now() + PUBLISH_WAIT_MS; Date.now() < deadline;) {
      const { claimed, state } = await this.commands.execute<ClaimAssistantPublish, { claimed: boolean; state: PublicationState }>(
        new ClaimAssistantPublish(assistantId, this.publicUrl),
      );
      if (claimed) return this.publish(assistantId, assistant, state);
      if (isPublished(state, this.publicUrl)) return state.agentId!;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new DialRefused('retell: the assistant is still being published');
  }

  /** Makes or updates the LLM, then the agent; each id is recorded as soon as Retell gave it. */
  private async publish(assistantId: number, assistant: AssistantRecord, state: PublicationState): Promise<string> {
    const llm = retellLlm(assistant, this.publicUrl);
    let llmId = state.llmId;
    if (llmId) await this.retell(() => this.client.llm.update(llmId!, llm));
    else {
      llmId = (await this.retell(() => this.client.llm.create(llm))).llm_id;
      await this.commands.execute(new RecordAssistantLlm(assistantId, llmId));
    }
    const agent = retellAgent(assistant, assistantId, llmId, this.publicUrl);
    // An LLM recorded and no agent: the publication before this one may have died after making its agent.
    const made = state.agentId ?? (state.llmId ? await this.agentNamed(retellAgentName(assistant, assistantId)) : null);
    const agentId = made
      ? (await this.retell(() => this.client.agent.update(made, agent))).agent_id
      : (await this.retell(() => this.client.agent.create(agent))).agent_id;
    await this.commands.execute(new RecordAssistantPublished(assistantId, state.settingsVersion, llmId, agentId, this.publicUrl));
    return agentId;
  }

  /** The voice agent of that name at Retell, if any (pages followed). */
  private async agentNamed(name: string): Promise<string | null> {
    for (let after: string | undefined; ;) {
      const key = after;
      const page = await this.retell(() => this.client.agent.list({ limit: 1000, ...(key ? { pagination_key: key } : {}) }));
      const found = page.items.find((a) => a.agent_name === name);
      if (found) return found.agent_id;
      if (!page.has_more || !page.pagination_key) return null;
      after = page.pagination_key;
    }
  }

  /**
   * A Retell refusal as a DialRefused naming its status and message (a 429 one for capacity). A call
   * being placed that got no answer may have been placed: DialUnanswered, for a lookup (docs/real-calls.md).
   */
  private async retell<T>(request: () => Promise<T>, placing = false): Promise<T> {
    try {
      return await request();
    } catch (error) {
      if (placing && error instanceof APIConnectionTimeoutError) throw new DialUnanswered(`retell did not answer within ${DIAL_TIMEOUT_MS / 1000} s`);
      if (!(error instanceof APIError)) throw new DialRefused(`retell could not be reached (${(error as Error).message})`);
      if (error.status === undefined) throw new DialRefused(`retell did not answer within ${DIAL_TIMEOUT_MS / 1000} s`);
      const body = error.error as { message?: unknown; error_message?: unknown } | undefined;
      const message = typeof body?.message === 'string' ? body.message : typeof body?.error_message === 'string' ? body.error_message : '';
      const reason = refusalReason('retell', error.status, message);
      if (error.status === 429) throw new DialRefused(reason, retryAfterMs(error.headers?.get('retry-after') ?? null));
      throw new DialRefused(reason);
    }
  }
}
