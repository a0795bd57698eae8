import { DialRules } from '../shared/compliance/dial-window';

/** How a round that reached nobody ended, as `retry_policy` names it (docs/dialing.md). */
export type RoundOutcome = 'busy' | 'no-answer' | 'machine' | 'failed';

/** What decides a lead's rounds: the campaign's retry settings and its dialing rules (docs/dialing.md). */
export interface RetryPolicy {
  max_retries: number;
  retry_delay_seconds: number;
  /** Per outcome: whether to try again, and after how long; an outcome not named retries after `retry_delay_seconds`. */
  by_outcome?: Partial<Record<RoundOutcome, { retry: boolean; delay_seconds?: number }>>;
  rules: DialRules;
}
