import { Decider } from '../infrastructure/event-sourcing/decider';
import { DomainError } from '../shared/domain-error';
import { canMove, isReached } from './call-status';
import { CallDetails, CallEvent, CallSpec, CallStatus, CallToolInvoked } from './call.events';

export const INVALID_TRANSITION = 'Invalid call status transition.';

export type CallCommand =
  | { type: 'InitiateCall'; id: number; spec: CallSpec }
  /** The record-call-outcome command: every status report, real or simulated, comes through here. */
  | { type: 'RecordCallOutcome'; id: number; status: CallStatus; details: CallDetails; reason?: string }
  | { type: 'RecordToolInvocation'; id: number; invocation: Omit<CallToolInvoked['data'], 'call_id' | 'user_id' | 'campaign_id' | 'lead_id'> };

export type CallState =
  | { exists: false }
  | { exists: true; userId: number; campaignId: number | null; leadId: number | null; status: CallStatus; answeredBy?: CallDetails['answered_by'] };

export const callDecider: Decider<CallCommand, CallState, CallEvent> = {
  initialState: { exists: false },

  decide(command, state) {
    if (command.type === 'InitiateCall') {
      if (state.exists) return [];
      return [{ type: 'CallInitiated', data: { call_id: command.id, ...command.spec } }];
    }
    if (!state.exists) throw DomainError.notFound('Call');
    const ids = { call_id: command.id, user_id: state.userId, campaign_id: state.campaignId, lead_id: state.leadId };
    if (command.type === 'RecordToolInvocation') return [{ type: 'CallToolInvoked', data: { ...ids, ...command.invocation } }];
    if (command.status === state.status) return [];
    if (!canMove(state.status, command.status)) throw new DomainError('conflict', INVALID_TRANSITION);
    return [
      {
        type: 'CallOutcomeRecorded',
        data: {
          ...ids,
          from: state.status,
          status: command.status,
          reached: isReached(command.status, command.details.answered_by ?? state.answeredBy),
          details: command.details,
          ...(command.reason ? { reason: command.reason } : {}),
        },
      },
    ];
  },

  evolve(state, event) {
    if (event.type === 'CallInitiated') {
      return { exists: true, userId: event.data.user_id, campaignId: event.data.campaign_id, leadId: event.data.lead_id, status: 'initiated' };
    }
    if (!state.exists || event.type !== 'CallOutcomeRecorded') return state;
    return { ...state, status: event.data.status, answeredBy: event.data.details.answered_by ?? state.answeredBy };
  },
};
