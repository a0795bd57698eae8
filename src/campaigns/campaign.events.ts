import { Weekday } from '../shared/calling-window';
import { DomainEvent } from '../shared/event-sourcing/decider';
import { declareFields } from '../shared/event-sourcing/event-fields';

export const campaignStream = (id: number) => `campaign-${id}`;

export type CampaignStatus = 'draft' | 'in-progress' | 'stopped' | 'completed';

export interface CampaignSettings {
  name: string;
  assistant_id: number;
  max_retries: number;
  retry_delay_seconds: number;
  calling_hours: { start: string; end: string };
  calling_days: Weekday[];
  max_concurrent_calls: number;
  /** docs/dialing.md: whose local time the calling hours and days are read in; absent in older events (`assistant`). */
  window_timezone?: WindowTimezone;
  /** docs/dialing.md: date-holidays codes whose public holidays are never dialed; absent in older events (none). */
  holidays?: string[];
  /** docs/dialing.md: whether and when a round that ended so is tried again; absent outcomes retry after `retry_delay_seconds`. */
  retry_policy?: RetryPolicyByOutcome;
  /** docs/dialing.md: new dials per rolling minute; null (and absent in older events): no pacing. */
  max_calls_per_minute?: number | null;
  /** docs/dialing.md: stop the campaign when too many of its last finished calls failed; null: never. */
  failure_breaker?: FailureBreaker | null;
}

export interface FailureBreaker {
  window: number;
  max_failure_ratio: number;
}
export const BREAKER_DEFAULTS: FailureBreaker = { window: 20, max_failure_ratio: 0.5 };

export type RetryOutcome = 'busy' | 'no-answer' | 'machine' | 'failed';
export const RETRY_OUTCOMES: readonly RetryOutcome[] = ['busy', 'no-answer', 'machine', 'failed'];
export type RetryPolicyByOutcome = Partial<Record<RetryOutcome, { retry: boolean; delay_seconds?: number }>>;

export type WindowTimezone = 'assistant' | 'lead';
export const WINDOW_TIMEZONES: readonly WindowTimezone[] = ['assistant', 'lead'];

export const CAMPAIGN_DEFAULTS: Omit<CampaignSettings, 'name' | 'assistant_id'> = {
  max_retries: 3,
  retry_delay_seconds: 3600,
  calling_hours: { start: '09:00', end: '17:00' },
  calling_days: ['mon', 'tue', 'wed', 'thu', 'fri'],
  max_concurrent_calls: 5,
  window_timezone: 'assistant',
  holidays: [],
  retry_policy: {},
  max_calls_per_minute: null,
  failure_breaker: null,
};

type Ids = { campaign_id: number; user_id: number };
/**
 * `numbers_reserved`: each of its leads' numbers is held in the campaign's reservation streams
 * from the first (absent in campaigns made before those streams, whose leads may hold one unlisted).
 */
export type CampaignCreated = DomainEvent<'CampaignCreated', Ids & { settings: CampaignSettings; numbers_reserved?: true }>;
export type CampaignUpdated = DomainEvent<'CampaignUpdated', Ids & { changes: Partial<CampaignSettings> }>;
export type CampaignStarted = DomainEvent<'CampaignStarted', Ids>;
export type StopReason = 'user' | 'failure-rate';
/** Stopped by its user, or by its failure breaker (`reason` absent in older events: the user). */
export type CampaignStopped = DomainEvent<'CampaignStopped', Ids & { reason?: StopReason; failed?: number; window?: number }>;
export type CampaignCompleted = DomainEvent<'CampaignCompleted', Ids>;
/** The dialer could not dial the campaign (whatever its stored data); it tries again at `retry_at`. */
export type CampaignDialingFailed = DomainEvent<'CampaignDialingFailed', Ids & { message: string; retry_at: string }>;
/** The dialer dialed the campaign again after a failure. */
export type CampaignDialingRecovered = DomainEvent<'CampaignDialingRecovered', Ids>;
export type CampaignEvent =
  CampaignCreated | CampaignUpdated | CampaignStarted | CampaignStopped | CampaignCompleted | CampaignDialingFailed | CampaignDialingRecovered;

export const CAMPAIGN_EVENT_TYPES = declareFields<CampaignEvent>({
  CampaignCreated: { campaign_id: 'plain', user_id: 'plain', settings: 'plain', numbers_reserved: 'plain' },
  CampaignUpdated: { campaign_id: 'plain', user_id: 'plain', changes: 'plain' },
  CampaignStarted: { campaign_id: 'plain', user_id: 'plain' },
  CampaignStopped: { campaign_id: 'plain', user_id: 'plain', reason: 'plain', failed: 'plain', window: 'plain' },
  CampaignCompleted: { campaign_id: 'plain', user_id: 'plain' },
  CampaignDialingFailed: { campaign_id: 'plain', user_id: 'plain', message: 'plain', retry_at: 'plain' },
  CampaignDialingRecovered: { campaign_id: 'plain', user_id: 'plain' },
});
