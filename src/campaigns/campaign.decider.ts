import { Decider } from '../shared/event-sourcing/decider';
import { defined } from '../shared/defined';
import { DomainError, FieldErrors } from '../shared/domain-error';
import { OwnedResource, ownedLive } from '../shared/owned-resource';
import { BREAKER_DEFAULTS, CAMPAIGN_DEFAULTS, CampaignEvent, CampaignSettings, CampaignStatus } from './campaign.events';

/** A breaker given in part takes the defaults for the rest (docs/dialing.md). */
function withBreakerDefaults<T extends Partial<CampaignSettings>>(settings: T): T {
  const breaker = settings.failure_breaker;
  return breaker ? { ...settings, failure_breaker: { ...BREAKER_DEFAULTS, ...defined(breaker) } } : settings;
}

export type CampaignCommand =
  /** `settings` are complete when `inputErrors` is empty: the fields in error were taken out. */
  | {
      type: 'CreateCampaign';
      id: number;
      organisationId: number;
      settings: Pick<CampaignSettings, 'name' | 'assistant_id'> & Partial<CampaignSettings>;
      assistantCanCall: boolean;
      inputErrors: FieldErrors;
    }
  | { type: 'UpdateCampaign'; id: number; organisationId: number; changes: Partial<CampaignSettings>; assistantCanCall: boolean; inputErrors: FieldErrors }
  | { type: 'StartCampaign'; id: number; organisationId: number; leadsToCall: number }
  | { type: 'StopCampaign'; id: number; organisationId: number }
  /** The dialer found nothing left: no lead to dial and no call in flight. */
  | { type: 'CompleteCampaign'; id: number; leadsToCall: number; callsInFlight: number }
  /** The dialer failed on this campaign; it is tried again at `retryAt`. */
  | { type: 'RecordDialingFailure'; id: number; message: string; retryAt: Date }
  /** The dialer went through this campaign again without failing. */
  | { type: 'RecordDialingRecovery'; id: number }
  /** docs/dialing.md: `failed` of the last `window` finished calls failed, above the breaker's share. */
  | { type: 'TripFailureBreaker'; id: number; failed: number; window: number };

export type CampaignState = OwnedResource<{ status: CampaignStatus; settings: CampaignSettings; failing: boolean }>;

const notFound = () => DomainError.notFound('Campaign');
export const NO_LEADS_MESSAGE = 'Campaign has no leads to call.';

/** Refuses settings whose fields failed their rules or do not fit together. */
function checkSettings(settings: CampaignSettings, given: Partial<CampaignSettings>, assistantCanCall: boolean, inputErrors: FieldErrors) {
  const errors: FieldErrors = {};
  if ('assistant_id' in given && !assistantCanCall) errors.assistant_id = ['The selected assistant id is invalid.'];
  if (settings.calling_hours.start >= settings.calling_hours.end) {
    errors['calling_hours.end'] = ['The calling hours.end field must be a time after calling hours.start.'];
  }
  const refusal = DomainError.invalid(inputErrors, errors);
  if (refusal) throw refusal;
}

export const campaignDecider: Decider<CampaignCommand, CampaignState, CampaignEvent> = {
  initialState: { exists: false },

  decide(command, state) {
    if (command.type === 'CompleteCampaign') {
      if (!state.exists || state.status !== 'in-progress' || command.leadsToCall > 0 || command.callsInFlight > 0) return [];
      return [{ type: 'CampaignCompleted', data: { campaign_id: command.id, user_id: state.organisationId } }];
    }
    if (command.type === 'RecordDialingFailure') {
      if (!state.exists) return [];
      return [
        {
          type: 'CampaignDialingFailed',
          data: { campaign_id: command.id, user_id: state.organisationId, message: command.message, retry_at: command.retryAt.toISOString() },
        },
      ];
    }
    if (command.type === 'RecordDialingRecovery') {
      return state.exists && state.failing ? [{ type: 'CampaignDialingRecovered', data: { campaign_id: command.id, user_id: state.organisationId } }] : [];
    }
    if (command.type === 'TripFailureBreaker') {
      if (!state.exists || state.status !== 'in-progress') return [];
      const data = { campaign_id: command.id, user_id: state.organisationId, reason: 'failure-rate' as const, failed: command.failed, window: command.window };
      return [{ type: 'CampaignStopped', data }];
    }
    const ids = { campaign_id: command.id, user_id: command.organisationId };
    switch (command.type) {
      case 'CreateCampaign': {
        if (state.exists) throw new DomainError('conflict', 'Campaign already exists');
        const settings = withBreakerDefaults({ ...CAMPAIGN_DEFAULTS, ...command.settings });
        checkSettings(settings, command.settings, command.assistantCanCall, command.inputErrors);
        return [{ type: 'CampaignCreated', data: { ...ids, settings, numbers_reserved: true } }];
      }
      case 'UpdateCampaign':
        if (!ownedLive(state, command.organisationId)) throw notFound();
        checkSettings({ ...state.settings, ...command.changes }, command.changes, command.assistantCanCall, command.inputErrors);
        return [{ type: 'CampaignUpdated', data: { ...ids, changes: withBreakerDefaults(command.changes) } }];
      case 'StartCampaign':
        if (!ownedLive(state, command.organisationId)) throw notFound();
        if (state.status === 'in-progress') return [];
        if (command.leadsToCall === 0) throw new DomainError('validation', NO_LEADS_MESSAGE);
        return [{ type: 'CampaignStarted', data: ids }];
      case 'StopCampaign':
        if (!ownedLive(state, command.organisationId)) throw notFound();
        if (state.status === 'stopped' || state.status === 'completed') return [];
        return [{ type: 'CampaignStopped', data: { ...ids, reason: 'user' } }];
    }
  },

  evolve(state, event) {
    if (event.type === 'CampaignCreated') {
      return { exists: true, organisationId: event.data.user_id, deleted: false, status: 'draft', settings: event.data.settings, failing: false };
    }
    if (!state.exists) return state;
    switch (event.type) {
      case 'CampaignUpdated':
        return { ...state, settings: { ...state.settings, ...event.data.changes } };
      case 'CampaignStarted':
        return { ...state, status: 'in-progress' };
      case 'CampaignStopped':
        return { ...state, status: 'stopped' };
      case 'CampaignCompleted':
        return { ...state, status: 'completed' };
      case 'CampaignDialingFailed':
        return { ...state, failing: true };
      case 'CampaignDialingRecovered':
        return { ...state, failing: false };
    }
  },
};
