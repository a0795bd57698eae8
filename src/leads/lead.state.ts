import { FieldErrors } from '../shared/domain-error';
import { OwnedResource } from '../shared/owned-resource';
import { RetryPolicy, RoundOutcome } from './lead-policy';
import { LeadStatus, LeadStopReason, Variables } from './lead.events';

/** What the lead decider is asked, and what it knows of a lead (folded from its events). */
export type LeadCommand =
  | {
      type: 'CreateLead';
      id: number;
      organisationId: number;
      campaignId: number;
      phoneNumber: string;
      variables: Variables;
      contacts: Array<{ id: number; phoneNumber: string; variables: Variables; timezone: string | null; zones: string[] }>;
      /** The timezone the user gave (null: none), and the zones dialing reads. */
      timezone: string | null;
      zones: string[];
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
      organisationId: number;
      changes: { campaignId?: number; phoneNumber?: string; status?: LeadStatus; variables?: Variables };
    }
  | { type: 'DeleteLead'; id: number; organisationId: number }
  /**
   * The dialer claims the lead for a call to its next contact, held to the campaign's rules
   * (docs/dialing.md): `doNotCall`, the lead's numbers on its user's do-not-call list.
   */
  | { type: 'StartLeadCall'; id: number; callId: number; policy: RetryPolicy; doNotCall: readonly string[] }
  /** docs/dialing.md: the lead ends without being reached (an opt-out). */
  | { type: 'StopLead'; id: number; reason: LeadStopReason }
  /** A call of the lead reached its terminal status. */
  | {
      type: 'FinishLeadCall';
      id: number;
      callId: number;
      callStatus: string;
      reached: boolean;
      policy: RetryPolicy;
      optOut?: boolean;
      /** How the call went when it reached nobody, as retry_policy names it; null: none of its outcomes. */
      outcome?: RoundOutcome | null;
      /**
       * Set when the call was never dialed, its number having joined the do-not-call list after
       * the claim (docs/dialing.md): the lead's numbers on that list.
       */
      doNotCall?: readonly string[] | null;
      /**
       * Set when the call was never dialed for another reason found just before the dial
       * (docs/dialing.md): its contact's window had closed (`outside-window`: the turn moves to the
       * next allowed instant), or the campaign or the lead no longer wanted it (`held`: the
       * lead keeps its turn as it was), or the voice runtime refused it for its capacity
       * (`{retryAt}`: the same contact's turn comes again then). None uses an attempt.
       */
      notDialed?: LeadNotDialed | null;
    };

/** Why a claimed call was not dialed, as far as the lead's rounds care (see FinishLeadCall). */
export type LeadNotDialed = 'outside-window' | 'held' | { retryAt: string };

export interface ContactState {
  id: number;
  phoneNumber: string;
  status: LeadStatus;
  /** The zones the contact is dialed in (docs/dialing.md). */
  zones: readonly string[];
}

export type LeadState = OwnedResource<{
  campaignId: number;
  phoneNumber: string;
  /** The timezone the user gave for the primary number, or null. */
  timezone: string | null;
  zones: readonly string[];
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
