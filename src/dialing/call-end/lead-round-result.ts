import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CallOutcomeRecorded } from '../../calls/call.events';
import { CallsQueries } from '../../calls/calls.queries';
import { FinishLeadCall } from '../../leads/commands/finish-lead-call';
import { RoundOutcome } from '../../leads/lead.decider';
import { LeadNotDialed } from '../../leads/lead.state';
import { LeadsQueries } from '../../leads/leads.queries';
import { DialingPolicies } from '../dialing-policies';

/** How an unanswered call went, as a campaign's retry_policy names it (docs/dialing.md). */
export function roundOutcome(status: string, answeredBy: string | null | undefined): RoundOutcome | null {
  if (status === 'busy' || status === 'no-answer' || status === 'failed') return status;
  return answeredBy === 'machine' ? 'machine' : null;
}

/** What a call never dialed means to its lead's rounds (do-not-call aside, which passes over the contact). */
function leadNotDialed(data: CallOutcomeRecorded['data']): LeadNotDialed | null {
  if (!data.not_dialed || data.not_dialed === 'do-not-call') return null;
  if (data.not_dialed === 'outside-window') return 'outside-window';
  if (data.not_dialed === 'runtime-at-capacity' && data.retry_at) return { retryAt: data.retry_at };
  return 'held';
}

/** A lead's call ended: the lead decides what follows (its next contact, a retry, or its end). Answers its campaign. */
@Injectable()
export class LeadRoundResult {
  constructor(
    private readonly commands: CommandBus,
    private readonly leads: LeadsQueries,
    private readonly policies: DialingPolicies,
    private readonly calls: CallsQueries,
  ) {}

  async onCallEnded(data: CallOutcomeRecorded['data']): Promise<number | null> {
    const lead = await this.leads.get(data.lead_id!);
    const policy = lead && (await this.policies.retryPolicy(lead.campaign_id));
    if (!lead || !policy) return null;
    const call = await this.calls.get(data.call_id);
    const outcome = roundOutcome(data.status, call?.answered_by ?? data.details?.answered_by);
    // Never dialed: the lead passes over the contact as its claim would have, knowing which of its numbers are listed.
    const listed = data.not_dialed === 'do-not-call' ? await this.policies.listedNumbersOf(lead) : null;
    await this.commands.execute(
      new FinishLeadCall(lead.id, data.call_id, data.status, data.reached, policy, data.details?.opt_out === true, outcome, listed, leadNotDialed(data)),
    );
    return lead.campaign_id;
  }
}
