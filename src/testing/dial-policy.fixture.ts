import { RetryPolicy } from '../leads/lead.decider';

/** A campaign policy that lets every contact be dialed at any instant: for tests about something else. */
export const ALWAYS_OPEN: RetryPolicy = {
  max_retries: 3,
  retry_delay_seconds: 3600,
  rules: {
    calling_hours: { start: '00:00', end: '24:00' },
    calling_days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
    window_timezone: 'assistant',
    assistant_timezone: 'UTC',
    quiet_hours: null,
    holidays: [],
  },
};
