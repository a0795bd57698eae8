import { EnvReader } from '../infrastructure/config/env-reader';
import { QuietHours } from './user.events';

/** What a user has until they say otherwise (docs/configuration.md). */
export class UserDefaults {
  constructor(
    /** docs/dialing.md: the quiet hours of users who set none, in the called party's time; null: no floor. */
    readonly quietHours: QuietHours | null = { start: '08:00', end: '21:00' },
    /** How many tools a new user's plan holds. */
    readonly toolLimit = 10,
  ) {}

  static read(read: EnvReader): UserDefaults {
    const defaults = new UserDefaults();
    return new UserDefaults(quietHours(read, defaults.quietHours), read.int('TOOL_PLAN_LIMIT', defaults.toolLimit, 0, 1_000_000));
  }
}

function quietHours(read: EnvReader, fallback: QuietHours | null): QuietHours | null {
  const raw = read.text('DEFAULT_QUIET_HOURS');
  if (raw === undefined) return fallback;
  if (raw === 'none') return null;
  const match = /^(([01]\d|2[0-3]):[0-5]\d)-(([01]\d|2[0-3]):[0-5]\d|24:00)$/.exec(raw);
  if (!match || match[1] >= match[3]) {
    read.problems.push(`DEFAULT_QUIET_HOURS must be HH:MM-HH:MM (start before end) or none (got "${raw}")`);
    return null;
  }
  return { start: match[1], end: match[3] };
}
