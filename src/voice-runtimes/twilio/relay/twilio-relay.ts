import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { AssistantView } from '../../../assistants/assistant-view';
import { AssistantsQueries } from '../../../assistants/assistants.queries';
import { RecordAssistantHangUp } from '../../../calls/commands/call-conversation';
import { ConfirmDialSent } from '../../../calls/commands/call-dial';
import { RecordCallAnalysis } from '../../../calls/commands/record-call-outcome';
import { CallsQueries } from '../../../calls/calls.queries';
import { isTerminal } from '../../../calls/call-status';
import { randomInt } from 'node:crypto';
import { Reservations } from '../../../reservations/reservations';
import { ProjectionRunner } from '../../../infrastructure/projections/projection-runner';
import { AssistantRecord } from '../../assistant-record';
import { RuntimeReports } from '../../runtime-reports';
import { runTools } from '../../runtime-tools';
import { ModelToolCall } from './conversation';
import { ModelClient, ModelRequest } from './model-client';
import { analysisMessages, analysisOf, analysisSchema, asksForAnalysis } from './post-call-extraction';
import { RelayPorts, RelaySession, RelaySocket } from './relay-session';

/**
 * The service's side of Twilio's ConversationRelay: a session per call's WebSocket, bound to the
 * service's call, model, tools and records. Conversations are state of this process: a stop ends
 * those in hand (Twilio hangs up when the socket closes), each recorded as far as it went.
 */
@Injectable()
export class TwilioRelay implements RelayPorts, OnModuleDestroy {
  private readonly sessions = new Set<RelaySession>();

  constructor(
    private readonly commands: CommandBus,
    private readonly calls: CallsQueries,
    private readonly assistants: AssistantsQueries,
    private readonly view: AssistantView,
    private readonly reports: RuntimeReports,
    private readonly projections: ProjectionRunner,
    private readonly model: ModelClient,
    private readonly reservations: Reservations,
  ) {}

  open(socket: RelaySocket): void {
    const session = new RelaySession(socket, this);
    this.sessions.add(session);
    socket.on('close', () => this.sessions.delete(session));
  }

  /** Conversations in hand are ended and recorded before the stores close. */
  async onModuleDestroy(): Promise<void> {
    await Promise.all([...this.sessions].map((session) => session.close()));
  }

  /**
   * A live Twilio call under its own CallSid, once (docs/real-calls.md): a second socket for the same
   * call, on this instance or another, is refused by the append to the call's relay stream, and a
   * call that ended is never bound again.
   */
  async bind(callId: number, callSid: string) {
    const call = await this.calls.get(callId);
    if (!call || call.provider !== 'twilio' || (call.provider_call_id !== null && call.provider_call_id !== callSid)) return null;
    if (isTerminal(call.status)) return null;
    const session = randomInt(1, 2 ** 48);
    if (!(await this.reservations.reserve(`call_relay-${callId}`, session, 1, async () => 'live'))) return null;
    if (call.provider_call_id === null) await this.commands.execute(new ConfirmDialSent(call.id, callSid));
    const doc = await this.assistants.get(call.assistant_id);
    if (!doc) return null;
    const [assistant] = await this.view.render([doc]);
    return { assistant: assistant, variables: call.variables ?? {} };
  }

  answer(request: ModelRequest, signal: AbortSignal) {
    return this.model.answer(request, signal);
  }

  async runTools(callId: number, calls: readonly ModelToolCall[]) {
    const results = await runTools(
      this.commands,
      callId,
      calls.map((c) => ({ id: c.id, function: { name: c.name, arguments: c.arguments } })),
    );
    return results.map((r, i) => ({ toolCallId: calls[i].id, text: 'error' in r ? `Error: ${r.error}` : r.result }));
  }

  async hangingUp(callId: number): Promise<void> {
    const { position } = await this.commands.execute(new RecordAssistantHangUp(callId));
    await this.projections.settle(position);
  }

  async failed(callId: number, reason: string): Promise<void> {
    await this.reports.record(callId, { status: 'failed', details: {}, reason }, true);
  }

  async ended(callId: number, assistant: AssistantRecord, transcript: string): Promise<void> {
    let analysis = {};
    if (asksForAnalysis(assistant)) {
      const request = { model: assistant.llm_model, temperature: Number(assistant.llm_temperature), messages: analysisMessages(transcript) };
      // A model that cannot answer leaves the call without its analysis, never without its transcript.
      analysis = await this.model.json(request, analysisSchema(assistant)).then(
        (answer) => analysisOf(answer, assistant),
        () => ({}),
      );
    }
    const { position } = await this.commands.execute(new RecordCallAnalysis(callId, { transcript, ...analysis }));
    await this.projections.settle(position);
  }
}
