import { Inject } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { Reservations } from '../../reservations/reservations';
import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AssistantView } from '../../assistants/assistant-view';
import { AssistantsQueries } from '../../assistants/assistants.queries';
import { EVENT_STORE, EventStore } from '../../shared/ports/event-store.port';
import { ProjectionRunner } from '../../infrastructure/projections/projection-runner';
import { PhoneNumbersQueries } from '../../phone-numbers/phone-numbers.queries';
import { DomainError } from '../../shared/domain-error';
import { toE164 } from '../../shared/phone';
import { callDecider } from '../call.decider';
import { CallProvider, callStream } from '../call.events';
import { CallDocument } from '../calls.projection';
import { CallsQueries } from '../calls.queries';
import { InitiateCall } from './initiate-call';

export class ReceiveInboundCall {
  constructor(
    readonly from: string,
    readonly to: string,
    readonly providerCallId?: string,
    readonly provider: CallProvider = 'http',
  ) {}
}

/** One runtime call id starts one inbound call: its reservation stream (a hash, whatever the id holds). */
export const inboundCallStream = (provider: CallProvider, providerCallId: string) =>
  `inbound_call-${provider}_${createHash('sha256').update(providerCallId).digest('hex').slice(0, 32)}`;

/** How long a repeated request waits for the racing first one's call to be listed. */
const REPLAY_WAIT_MS = 5000;

/**
 * A call to one of a user's numbers: an `inbound` call for the assistant holding that number, and
 * its configuration for the runtime. A request repeated with the same runtime call id (a retry, a
 * replay) answers as the first did and makes no second call (docs/real-calls.md), decided by an append
 * to that id's reservation stream.
 */
@CommandHandler(ReceiveInboundCall)
export class ReceiveInboundCallHandler implements ICommandHandler<ReceiveInboundCall> {
  constructor(
    private readonly commands: CommandBus,
    private readonly projections: ProjectionRunner,
    private readonly numbers: PhoneNumbersQueries,
    private readonly assistants: AssistantsQueries,
    private readonly view: AssistantView,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly calls: CallsQueries,
    private readonly reservations: Reservations,
    private readonly runner: CommandRunner,
  ) {}

  async execute({ from, to, providerCallId, provider }: ReceiveInboundCall) {
    const earlier = providerCallId ? await this.earlier(providerCallId, provider) : null;
    if (earlier) return this.answer(earlier);
    const dialed = toE164(to)!;
    for (const number of await this.numbers.withNumber(dialed)) {
      const assistant = await this.assistants.answering(number.user_id, number.id);
      if (!assistant) continue;
      const callId = await this.events.nextId('call');
      if (providerCallId && !(await this.reservations.reserve(inboundCallStream(provider, providerCallId), callId, 1, (id) => this.statusOf(id)))) {
        return this.answer(await this.racedBy(providerCallId, provider));
      }
      const { position } = await this.commands.execute(
        new InitiateCall(callId, {
          user_id: assistant.user_id,
          assistant_id: assistant.id,
          assistant_name: assistant.settings.assistant_name,
          campaign_id: null,
          campaign_name: null,
          lead_id: null,
          secondary_contact_id: null,
          type: 'inbound',
          assistant_phone_number: dialed,
          client_phone_number: toE164(from)!,
          variables: providerCallId ? { provider_call_id: providerCallId } : {},
          record: assistant.settings.record_call,
          max_duration_seconds: assistant.settings.max_call_duration,
          provider,
          ...(providerCallId ? { provider_call_id: providerCallId } : {}),
        }),
      );
      await this.projections.settle(position);
      return { call_id: callId, assistant: (await this.view.render([assistant]))[0] };
    }
    throw DomainError.notFound('Phone number');
  }

  private async answer(call: CallDocument) {
    const assistant = await this.assistants.get(call.assistant_id);
    if (!assistant) throw DomainError.notFound('Phone number');
    return { call_id: call.id, assistant: (await this.view.render([assistant]))[0] };
  }

  private async earlier(providerCallId: string, provider: CallProvider): Promise<CallDocument | null> {
    const call = await this.calls.byProviderCallId(providerCallId);
    return call && call.provider === provider && call.type === 'inbound' ? call : null;
  }

  /** The request that took the runtime call id first is still writing its call: its answer, once listed. */
  private async racedBy(providerCallId: string, provider: CallProvider): Promise<CallDocument> {
    for (const started = Date.now(); Date.now() - started < REPLAY_WAIT_MS; await sleep(25)) {
      const call = await this.calls.reported(() => this.earlier(providerCallId, provider));
      if (call) return call;
    }
    throw new DomainError('conflict', 'The call is being received.');
  }

  private async statusOf(callId: number): Promise<'live' | 'absent'> {
    const { state } = await this.runner.load(callStream(callId), callDecider);
    return state.exists ? 'live' : 'absent';
  }
}
