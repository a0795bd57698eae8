import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CallOutcomeRecorded } from '../calls/call.events';
import { CallsQueries } from '../calls/calls.queries';
import { AddToDoNotCall } from '../do-not-call/commands/add-to-do-not-call';
import { RecordedEvent } from '../shared/ports/event-store.port';
import { ReactsToEvents, Reactor } from '../infrastructure/reactors/reactor';
import { StopLead } from '../leads/commands/stop-lead';

/**
 * docs/dialing.md: a called party who opts out joins the user's do-not-call list, and their lead
 * stops. An opt-out on a call's last status is also seen by the lead's own end of call
 * (LeadCallResultsReactor), whichever of the two comes first ends the lead, once.
 */
@ReactsToEvents()
@Injectable()
export class OptOutReactor implements Reactor {
  readonly name = 'opt-outs';
  readonly eventTypes: readonly CallOutcomeRecorded['type'][] = ['CallOutcomeRecorded'];

  constructor(
    private readonly commands: CommandBus,
    private readonly calls: CallsQueries,
  ) {}

  handles(event: RecordedEvent): boolean {
    return (event as unknown as CallOutcomeRecorded).data.details?.opt_out === true;
  }

  async react(event: RecordedEvent): Promise<void> {
    const { data } = event as unknown as CallOutcomeRecorded;
    const call = await this.calls.get(data.call_id);
    if (!call) return;
    await this.commands.execute(new AddToDoNotCall(data.user_id, [call.client_phone_number], null, 'opt-out'));
    if (data.lead_id !== null) await this.commands.execute(new StopLead(data.lead_id, 'opt-out'));
  }
}
