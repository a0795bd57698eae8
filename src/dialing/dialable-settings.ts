import { WEEKDAYS } from '../shared/calling-window';

const HH_MM = /^(([01]\d|2[0-3]):[0-5]\d|24:00)$/;
const isInt = (value: unknown, min: number) => Number.isInteger(value) && (value as number) >= min;

/** The settings the dialer reads, as a stored campaign may hold them (validation may not have written them). */
export interface StoredDialingSettings {
  calling_hours?: unknown;
  calling_days?: unknown;
  max_concurrent_calls?: unknown;
  max_retries?: unknown;
  retry_delay_seconds?: unknown;
}

/**
 * Why a stored campaign cannot be dialed, or null when it can: the dialer checks the data it
 * reads rather than trust that every event was written through today's validation.
 */
export function undialableBecause(settings: StoredDialingSettings): string | null {
  const hours = settings.calling_hours as { start?: unknown; end?: unknown } | null | undefined;
  if (hours === null || typeof hours !== 'object' || Array.isArray(hours)) return 'calling_hours is not an object';
  if (typeof hours.start !== 'string' || !HH_MM.test(hours.start) || typeof hours.end !== 'string' || !HH_MM.test(hours.end)) {
    return 'calling_hours must hold start and end as HH:MM';
  }
  if (hours.start >= hours.end) return 'calling_hours must start before they end';
  const days = settings.calling_days;
  if (!Array.isArray(days) || !days.length || !days.every((d) => (WEEKDAYS as readonly unknown[]).includes(d)))
    return 'calling_days must be a list of weekdays';
  if (!isInt(settings.max_concurrent_calls, 1)) return 'max_concurrent_calls must be a positive integer';
  if (!isInt(settings.max_retries, 0)) return 'max_retries must be an integer from 0';
  if (!isInt(settings.retry_delay_seconds, 0)) return 'retry_delay_seconds must be an integer from 0';
  return null;
}

/** Throws when a stored campaign cannot be dialed, naming why. */
export function assertDialable(settings: StoredDialingSettings): void {
  const undialable = undialableBecause(settings);
  if (undialable) throw new Error(`Campaign settings cannot be dialed: ${undialable}.`);
}
