import { Decider } from '../shared/event-sourcing/decider';
import { DomainError, FieldErrors } from '../shared/domain-error';
import { ownedLive } from '../shared/owned-resource';
import { LeadEvent } from './lead.events';
import { finishCall, startCall } from './lead-rounds';
import { zonesFor, zonesOf } from './lead-zones';
import { LeadCommand, LeadState } from './lead.state';

export type { RetryPolicy, RoundOutcome } from './lead-policy';
export type { ContactState, LeadCommand, LeadState } from './lead.state';

export const DUPLICATE_MESSAGE = 'The phone number has already been taken for this campaign.';
export const INVALID_CAMPAIGN = 'The selected campaign id is invalid.';
export const RESERVED_STATUS_MESSAGE = 'The status reached-max-retries is assigned automatically and cannot be set manually.';
export const NOT_DUE_MESSAGE = 'Lead is not due for a call.';
export const MAX_VARIABLES = 100;
export const TOO_MANY_VARIABLES = `The variables field must not have more than ${MAX_VARIABLES} items.`;

export type CreateLeadRequest = Pick<Extract<LeadCommand, { type: 'CreateLead' }>, 'campaignOwned' | 'duplicate' | 'allowDuplicate' | 'inputErrors'>;

/**
 * Why a new lead is refused, or null: its own field errors, a campaign that is not the user's,
 * a duplicate number. It needs no id, so the handler asks it before drawing any.
 */
export function creationRefusal(request: CreateLeadRequest): DomainError | null {
  const found: FieldErrors = {};
  if (!request.campaignOwned) found.campaign_id = [INVALID_CAMPAIGN];
  else if (request.duplicate && !request.allowDuplicate) found.phone_number = [DUPLICATE_MESSAGE];
  // A lead's refusal carries its first field message on top (docs/api.md).
  return DomainError.invalid(request.inputErrors, found, true);
}

/** Whether the dialer may claim the lead at `now`. */
export function isDue(state: LeadState, now: Date): boolean {
  return (
    state.exists &&
    !state.deleted &&
    state.status === 'created' &&
    state.inFlight === null &&
    (state.dueAt === null || new Date(state.dueAt).getTime() <= now.getTime())
  );
}

export const leadDecider: Decider<LeadCommand, LeadState, LeadEvent> = {
  initialState: { exists: false },

  decide(command, state, now) {
    switch (command.type) {
      case 'CreateLead': {
        if (state.exists) throw new DomainError('conflict', 'Lead already exists');
        const refusal = creationRefusal(command);
        if (refusal) throw refusal;
        return [
          {
            type: 'LeadCreated',
            data: {
              lead_id: command.id,
              user_id: command.organisationId,
              campaign_id: command.campaignId,
              phone_number: command.phoneNumber,
              timezone: command.timezone,
              zones: command.zones,
              variables: command.variables,
              secondary_contacts: command.contacts.map((c) => ({
                id: c.id,
                phone_number: c.phoneNumber,
                variables: c.variables,
                timezone: c.timezone,
                zones: c.zones,
              })),
            },
          },
        ];
      }
      case 'UpdateLead': {
        if (!ownedLive(state, command.organisationId)) throw DomainError.notFound('Lead');
        const { campaignId, phoneNumber, status, variables } = command.changes;
        if (status === 'reached-max-retries') throw DomainError.validation('status', RESERVED_STATUS_MESSAGE);
        const events: LeadEvent[] = [];
        let campaign = state.campaignId;
        const ids = () => ({ lead_id: command.id, user_id: command.organisationId, campaign_id: campaign });
        if (campaignId !== undefined && campaignId !== state.campaignId) {
          campaign = campaignId;
          events.push({ type: 'LeadMovedToCampaign', data: { ...ids(), from_campaign_id: state.campaignId } });
        }
        if (phoneNumber !== undefined && phoneNumber !== state.phoneNumber) {
          events.push({ type: 'LeadPhoneNumberChanged', data: { ...ids(), phone_number: phoneNumber, zones: zonesFor(phoneNumber, state.timezone) } });
        }
        if (variables !== undefined && new Set([...state.variableKeys, ...Object.keys(variables)]).size > MAX_VARIABLES) {
          throw DomainError.validation('variables', TOO_MANY_VARIABLES);
        }
        if (variables !== undefined && Object.keys(variables).length) events.push({ type: 'LeadVariablesMerged', data: { ...ids(), variables } });
        if (status === 'created') {
          const fresh = state.status === 'created' && state.attempts === 0 && state.contacts.every((c) => c.status === 'created');
          if (!fresh) events.push({ type: 'LeadRequeued', data: ids() });
        } else if (status === 'completed' && state.status !== 'completed') {
          events.push({ type: 'LeadStatusChanged', data: { ...ids(), from: state.status, to: 'completed' } });
        }
        return events;
      }
      case 'DeleteLead':
        if (!ownedLive(state, command.organisationId)) throw DomainError.notFound('Lead');
        return [{ type: 'LeadDeleted', data: { lead_id: command.id, user_id: command.organisationId, campaign_id: state.campaignId } }];
      case 'StartLeadCall':
        if (!isDue(state, now) || !state.exists) throw new DomainError('conflict', NOT_DUE_MESSAGE);
        return startCall(command, state, now);
      case 'FinishLeadCall':
        return finishCall(command, state, now);
      case 'StopLead':
        if (!state.exists || state.deleted || state.status !== 'created') return [];
        return [{ type: 'LeadStopped', data: { lead_id: command.id, user_id: state.organisationId, campaign_id: state.campaignId, reason: command.reason } }];
    }
  },

  evolve(state, event) {
    if (event.type === 'LeadCreated') {
      return {
        exists: true,
        organisationId: event.data.user_id,
        deleted: false,
        campaignId: event.data.campaign_id,
        phoneNumber: event.data.phone_number,
        timezone: event.data.timezone ?? null,
        zones: zonesOf(event.data),
        status: 'created',
        attempts: 0,
        contacts: event.data.secondary_contacts.map((c) => ({ id: c.id, phoneNumber: c.phone_number, status: 'created' as const, zones: zonesOf(c) })),
        variableKeys: Object.keys(event.data.variables),
        inFlight: null,
        nextContactId: null,
        dueAt: null,
      };
    }
    if (!state.exists) return state;
    switch (event.type) {
      case 'LeadVariablesMerged':
        return { ...state, variableKeys: [...new Set([...state.variableKeys, ...Object.keys(event.data.variables)])] };
      case 'LeadPhoneNumberChanged':
        return { ...state, phoneNumber: event.data.phone_number, zones: zonesOf(event.data) };
      case 'LeadMovedToCampaign':
        return { ...state, campaignId: event.data.campaign_id };
      case 'LeadStatusChanged':
        return { ...state, status: event.data.to };
      case 'LeadRequeued':
        return {
          ...state,
          status: 'created',
          attempts: 0,
          contacts: state.contacts.map((c) => ({ ...c, status: 'created' as const })),
          nextContactId: null,
          dueAt: null,
        };
      case 'LeadDeleted':
        return { ...state, deleted: true };
      case 'LeadCallStarted':
        return { ...state, inFlight: { callId: event.data.call_id, contactId: event.data.secondary_contact_id } };
      case 'LeadCallFinished':
        return { ...state, inFlight: null };
      case 'LeadReached':
        return {
          ...state,
          status: 'completed',
          contacts: state.contacts.map((c) => (c.id === event.data.secondary_contact_id ? { ...c, status: 'completed' as const } : c)),
        };
      case 'LeadNextContactDue':
        return { ...state, nextContactId: event.data.secondary_contact_id, dueAt: event.data.due_at };
      case 'LeadAttemptFailed':
        return { ...state, attempts: event.data.attempts, nextContactId: null, dueAt: event.data.next_due_at };
      case 'LeadReachedMaxRetries':
        return {
          ...state,
          status: 'reached-max-retries',
          attempts: event.data.attempts,
          contacts: state.contacts.map((c) => (c.status === 'created' ? { ...c, status: 'reached-max-retries' as const } : c)),
        };
      case 'LeadDialDeferred':
        return { ...state, nextContactId: event.data.secondary_contact_id, dueAt: event.data.due_at };
      case 'LeadStopped':
        return { ...state, status: 'completed' };
      case 'LeadContactSkipped':
        return state;
    }
  },
};
