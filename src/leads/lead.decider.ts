import { CallingWindow, nextCallingInstant } from '../shared/calling-window';
import { Decider } from '../infrastructure/event-sourcing/decider';
import { DomainError, FieldErrors } from '../shared/domain-error';
import { OwnedResource, ownedLive } from '../shared/owned-resource';
import { LeadEvent, LeadStatus, Variables } from './lead.events';

export const DUPLICATE_MESSAGE = 'The phone number has already been taken for this campaign.';
export const INVALID_CAMPAIGN = 'The selected campaign id is invalid.';
export const RESERVED_STATUS_MESSAGE = 'The status reached-max-retries is assigned automatically and cannot be set manually.';
export const NOT_DUE_MESSAGE = 'Lead is not due for a call.';
export const MAX_VARIABLES = 100;
export const TOO_MANY_VARIABLES = `The variables field must not have more than ${MAX_VARIABLES} items.`;

/** What decides a lead's next round: the campaign's retry settings and calling window. */
export interface RetryPolicy {
  max_retries: number;
  retry_delay_seconds: number;
  window: CallingWindow;
}

type CreateLeadRequest = Pick<Extract<LeadCommand, { type: 'CreateLead' }>, 'campaignOwned' | 'duplicate' | 'allowDuplicate' | 'inputErrors'>;

/**
 * Why a new lead is refused, or null: its own field errors, a campaign that is not the user's,
 * a duplicate number. It needs no id, so the handler asks it before drawing any.
 */
export function creationRefusal(request: CreateLeadRequest): DomainError | null {
  const found: FieldErrors = {};
  if (!request.campaignOwned) found.campaign_id = [INVALID_CAMPAIGN];
  else if (request.duplicate && !request.allowDuplicate) found.phone_number = [DUPLICATE_MESSAGE];
  // A lead's refusal carries its first field message on top (contract §3).
  return DomainError.invalid(request.inputErrors, found, true);
}

export type LeadCommand =
  | {
      type: 'CreateLead';
      id: number;
      userId: number;
      campaignId: number;
      phoneNumber: string;
      variables: Variables;
      contacts: Array<{ id: number; phoneNumber: string; variables: Variables }>;
      /** Whether the campaign is the user's (false when the request named none). */
      campaignOwned: boolean;
      duplicate: boolean;
      allowDuplicate: boolean;
      /** The request's own field errors; the other fields are complete only when there are none. */
      inputErrors: FieldErrors;
    }
  | {
      type: 'UpdateLead';
      id: number;
      userId: number;
      changes: { campaignId?: number; phoneNumber?: string; status?: LeadStatus; variables?: Variables };
    }
  | { type: 'DeleteLead'; id: number; userId: number }
  /** The dialer claims the lead for a call to its next contact. */
  | { type: 'StartLeadCall'; id: number; callId: number }
  /** A call of the lead reached its terminal status. */
  | { type: 'FinishLeadCall'; id: number; callId: number; callStatus: string; reached: boolean; policy: RetryPolicy };

export interface ContactState {
  id: number;
  phoneNumber: string;
  status: LeadStatus;
}

export type LeadState = OwnedResource<{
  campaignId: number;
  phoneNumber: string;
  status: LeadStatus;
  /** Rounds that ended with nobody reached. */
  attempts: number;
  contacts: ContactState[];
  /** The names of the lead's variables: a merge may not take them past MAX_VARIABLES. */
  variableKeys: readonly string[];
  inFlight: { callId: number; contactId: number | null } | null;
  /** Whom the round dials next: null for the primary number, else a secondary contact id. */
  nextContactId: number | null;
  /** When the next call is due; null when due since the lead was created or re-queued. */
  dueAt: string | null;
}>;

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
              user_id: command.userId,
              campaign_id: command.campaignId,
              phone_number: command.phoneNumber,
              variables: command.variables,
              secondary_contacts: command.contacts.map((c) => ({ id: c.id, phone_number: c.phoneNumber, variables: c.variables })),
            },
          },
        ];
      }
      case 'UpdateLead': {
        if (!ownedLive(state, command.userId)) throw DomainError.notFound('Lead');
        const { campaignId, phoneNumber, status, variables } = command.changes;
        if (status === 'reached-max-retries') throw DomainError.validation('status', RESERVED_STATUS_MESSAGE);
        const events: LeadEvent[] = [];
        let campaign = state.campaignId;
        const ids = () => ({ lead_id: command.id, user_id: command.userId, campaign_id: campaign });
        if (campaignId !== undefined && campaignId !== state.campaignId) {
          campaign = campaignId;
          events.push({ type: 'LeadMovedToCampaign', data: { ...ids(), from_campaign_id: state.campaignId } });
        }
        if (phoneNumber !== undefined && phoneNumber !== state.phoneNumber) {
          events.push({ type: 'LeadPhoneNumberChanged', data: { ...ids(), phone_number: phoneNumber } });
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
        if (!ownedLive(state, command.userId)) throw DomainError.notFound('Lead');
        return [{ type: 'LeadDeleted', data: { lead_id: command.id, user_id: command.userId, campaign_id: state.campaignId } }];
      case 'StartLeadCall': {
        if (!isDue(state, now) || !state.exists) throw new DomainError('conflict', NOT_DUE_MESSAGE);
        const contact = state.contacts.find((c) => c.id === state.nextContactId);
        return [
          {
            type: 'LeadCallStarted',
            data: {
              lead_id: command.id,
              user_id: state.userId,
              campaign_id: state.campaignId,
              call_id: command.callId,
              secondary_contact_id: contact?.id ?? null,
              phone_number: contact?.phoneNumber ?? state.phoneNumber,
              attempt: state.attempts + 1,
            },
          },
        ];
      }
      case 'FinishLeadCall':
        return finishCall(command, state, now);
    }
  },

  evolve(state, event) {
    if (event.type === 'LeadCreated') {
      return {
        exists: true,
        userId: event.data.user_id,
        deleted: false,
        campaignId: event.data.campaign_id,
        phoneNumber: event.data.phone_number,
        status: 'created',
        attempts: 0,
        contacts: event.data.secondary_contacts.map((c) => ({ id: c.id, phoneNumber: c.phone_number, status: 'created' as const })),
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
        return { ...state, phoneNumber: event.data.phone_number };
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
    }
  },
};

/**
 * A finished call ends the lead's round when it reached someone or when no `created`
 * secondary contact is left after the one just called; a round that reached nobody counts
 * as one attempt, and the `1 + max_retries`-th such round is the last.
 */
function finishCall(command: Extract<LeadCommand, { type: 'FinishLeadCall' }>, state: LeadState, now: Date): LeadEvent[] {
  if (!state.exists || state.inFlight?.callId !== command.callId) return [];
  const contactId = state.inFlight.contactId;
  const ids = { lead_id: command.id, user_id: state.userId, campaign_id: state.campaignId };
  const events: LeadEvent[] = [
    {
      type: 'LeadCallFinished',
      data: { ...ids, call_id: command.callId, secondary_contact_id: contactId, call_status: command.callStatus, reached: command.reached },
    },
  ];
  // A deleted, completed or manually closed lead keeps the record of the call and nothing more.
  if (state.deleted || state.status !== 'created') return events;
  if (command.reached) return [...events, { type: 'LeadReached', data: { ...ids, call_id: command.callId, secondary_contact_id: contactId } }];

  const after = contactId === null ? 0 : state.contacts.findIndex((c) => c.id === contactId) + 1;
  const next = state.contacts.slice(after).find((c) => c.status === 'created');
  if (next) return [...events, { type: 'LeadNextContactDue', data: { ...ids, secondary_contact_id: next.id, due_at: now.toISOString() } }];

  const attempts = state.attempts + 1;
  if (attempts >= 1 + command.policy.max_retries) return [...events, { type: 'LeadReachedMaxRetries', data: { ...ids, attempts } }];
  const retryAt = new Date(now.getTime() + command.policy.retry_delay_seconds * 1000);
  const nextDue = nextCallingInstant(command.policy.window, retryAt) ?? retryAt;
  return [...events, { type: 'LeadAttemptFailed', data: { ...ids, attempts, next_due_at: nextDue.toISOString() } }];
}
