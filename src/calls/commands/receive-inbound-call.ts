import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AssistantView } from '../../assistants/assistant-view';
import { AssistantsQueries } from '../../assistants/assistants.queries';
import { EVENT_STORE, EventStore } from '../../infrastructure/event-store/event-store.port';
import { ProjectionRunner } from '../../infrastructure/projections/projection-runner';
import { PhoneNumbersQueries } from '../../phone-numbers/phone-numbers.queries';
import { DomainError } from '../../shared/domain-error';
import { toE164 } from '../../shared/phone';
import { CallProvider } from '../call.events';
import { InitiateCall } from './initiate-call';

export class ReceiveInboundCall {
  constructor(
    readonly from: string,
    readonly to: string,
    readonly providerCallId?: string,
    readonly provider: CallProvider = 'http',
  ) {}
}

/** A call to one of a user's numbers: an `inbound` call for the assistant holding that number, and its configuration for the runtime. */
@CommandHandler(ReceiveInboundCall)
export class ReceiveInboundCallHandler implements ICommandHandler<ReceiveInboundCall> {
  constructor(
    private readonly commands: CommandBus,
    private readonly projections: ProjectionRunner,
    private readonly numbers: PhoneNumbersQueries,
    private readonly assistants: AssistantsQueries,
    private readonly view: AssistantView,
    @Inject(EVENT_STORE) private readonly events: EventStore,
  ) {}

  async execute({ from, to, providerCallId, provider }: ReceiveInboundCall) {
    const dialed = toE164(to)!;
    for (const number of await this.numbers.withNumber(dialed)) {
      const assistant = await this.assistants.answering(number.user_id, number.id);
      if (!assistant) continue;
      const callId = await this.events.nextId('call');
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
}
