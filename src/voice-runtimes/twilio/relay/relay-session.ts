import { Logger } from '@nestjs/common';
import { AssistantRecord } from '../../assistant-record';
import { Conversation, END_CALL_TOOL, ModelToolCall, modelTools, promptWithVariables } from './conversation';
import { ModelFailed, ModelPart, ModelRequest } from './model-client';

/** What a relay session needs of the service: the call, the model, the tools, and where the call's facts are recorded. */
export interface RelayPorts {
  /** The call `callId` names, when it is a Twilio call under `callSid` (confirmed under it when not yet): its assistant and variables. */
  bind(callId: number, callSid: string): Promise<{ assistant: AssistantRecord; variables: Record<string, unknown> } | null>;
  answer(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelPart>;
  runTools(callId: number, calls: readonly ModelToolCall[]): Promise<Array<{ toolCallId: string; text: string }>>;
  /** Recorded before Twilio is told to hang up: the end is the assistant's. */
  hangingUp(callId: number): Promise<void>;
  failed(callId: number, reason: string): Promise<void>;
  /** The conversation is over: its transcript, and the analysis the assistant asks for. */
  ended(callId: number, assistant: AssistantRecord, transcript: string): Promise<void>;
}

/** The WebSocket as the session uses it. */
export interface RelaySocket {
  send(data: string): void;
  close(): void;
  on(event: 'message', listener: (data: unknown) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
}

/** What the caller hears when the model fails mid-call, before the call ends. */
export const APOLOGY = "I'm sorry, something went wrong on our side. Goodbye.";
/** Tool rounds one prompt may take before the model must answer in words. */
const MAX_TOOL_ROUNDS = 5;

interface Bound {
  callId: number;
  assistant: AssistantRecord;
  conversation: Conversation;
}

/**
 * One call's conversation over Twilio's ConversationRelay (docs/real-calls.md): each prompt asks the
 * model, whose text deltas go back as they arrive; tools run as the model asks; `interrupt`
 * cuts the answer in hand; the close records the transcript. Messages are handled in order.
 */
export class RelaySession {
  private readonly logger = new Logger('TwilioRelay');
  private bound: Bound | null = null;
  private turn: AbortController | null = null;
  private work: Promise<void> = Promise.resolve();
  private over = false;
  private closed: Promise<void> | null = null;

  constructor(
    private readonly socket: RelaySocket,
    private readonly ports: RelayPorts,
  ) {
    socket.on('message', (data) => this.heard(String(data)));
    socket.on('close', () => void this.close());
  }

  /** Ends the session (the socket closed, or the service stops: then the socket is closed too): the conversation so far is recorded. */
  close(): Promise<void> {
    this.socket.close();
    this.closed ??= (async () => {
      this.over = true;
      this.turn?.abort();
      await this.work;
      if (this.bound) await this.ports.ended(this.bound.callId, this.bound.assistant, this.bound.conversation.transcript());
    })().catch((error: Error) => this.logger.error(`the end of a relayed call could not be recorded: ${error.message}`));
    return this.closed;
  }

  private heard(raw: string): void {
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return;
    }
    if (message.type === 'setup') this.then(() => this.setup(message));
    else if (message.type === 'prompt' && message.last !== false) {
      this.turn?.abort();
      this.then(() => this.answer(String(message.voicePrompt ?? '')));
    } else if (message.type === 'interrupt') {
      this.turn?.abort();
      this.then(async () => this.bound?.conversation.interrupted(String(message.utteranceUntilInterrupt ?? '')));
    } else if (message.type === 'error') this.logger.warn(`Twilio reports: ${String(message.description ?? 'an error')}`);
  }

  private then(step: () => Promise<unknown>): void {
    this.work = this.work.then(step).then(
      () => undefined,
      (error: Error) => this.logger.error(`a relayed call's message could not be handled: ${error.message}`),
    );
  }

  private async setup(message: Record<string, unknown>): Promise<void> {
    const params = (message.customParameters ?? {}) as Record<string, unknown>;
    const callId = Number(params.call_id);
    const found = Number.isSafeInteger(callId) && callId > 0 && typeof message.callSid === 'string' ? await this.ports.bind(callId, message.callSid) : null;
    if (!found) return this.socket.close();
    const { assistant, variables } = found;
    // What the caller heard first: the greeting with its variables, or nothing when the customer speaks first.
    const greeting = assistant.wait_for_customer ? '' : promptWithVariables(assistant.initial_message, variables);
    this.bound = { callId, assistant, conversation: new Conversation(promptWithVariables(assistant.system_prompt, variables), greeting) };
  }

  private async answer(said: string): Promise<void> {
    const bound = this.bound;
    if (!bound || this.over) return;
    bound.conversation.said(said);
    const turn = (this.turn = new AbortController());
    try {
      for (let round = 0; round < MAX_TOOL_ROUNDS && !turn.signal.aborted; round++) {
        const calls = await this.modelTurn(bound, turn.signal);
        if (turn.signal.aborted) return;
        if (!calls.length) return this.send({ type: 'text', token: '', last: true });
        bound.conversation.askedFor(calls);
        if (calls.some((c) => c.name === END_CALL_TOOL)) return await this.hangUp(bound);
        for (const result of await this.ports.runTools(bound.callId, calls)) bound.conversation.toolAnswered(result.toolCallId, result.text);
      }
    } catch (error) {
      if (!(error instanceof ModelFailed)) throw error;
      await this.ports.failed(bound.callId, error.message);
      this.send({ type: 'text', token: APOLOGY, last: true });
      this.send({ type: 'end' });
    } finally {
      if (this.turn === turn) this.turn = null;
    }
  }

  /** One model answer: its text sent on as it arrives; answers the tools it asked for. */
  private async modelTurn(bound: Bound, signal: AbortSignal): Promise<ModelToolCall[]> {
    const { assistant, conversation } = bound;
    // Asked with the conversation as it stands, before the answer's own turn is opened in it.
    const request = {
      model: assistant.llm_model,
      temperature: Number(assistant.llm_temperature),
      messages: [...conversation.messages],
      tools: modelTools(assistant),
    };
    conversation.answering();
    let calls: ModelToolCall[] = [];
    for await (const part of this.ports.answer(request, signal)) {
      if (part.type === 'tools') calls = part.calls;
      else {
        conversation.answered(part.text);
        this.send({ type: 'text', token: part.text, last: false });
      }
    }
    return calls;
  }

  private async hangUp(bound: Bound): Promise<void> {
    await this.ports.hangingUp(bound.callId);
    this.send({ type: 'text', token: '', last: true });
    this.send({ type: 'end' });
  }

  private send(frame: object): void {
    this.socket.send(JSON.stringify(frame));
  }
}
