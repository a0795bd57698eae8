import { EnvReader } from '../infrastructure/config/env-reader';

/** Dialing's own settings from the environment (docs/configuration.md). */
export class DialingSettings {
  constructor(
    /** Milliseconds between scheduler passes when nothing nudges it sooner. */
    readonly intervalMs = 1000,
    /**
     * Seconds after which a dial never confirmed (its process died mid-dial) is sent again under
     * the same call id: longer than the dialer's own 10 s timeout, so a live dial is never resent.
     */
    readonly resendAfterSeconds = 30,
  ) {}

  static read(read: EnvReader): DialingSettings {
    const defaults = new DialingSettings();
    return new DialingSettings(
      read.int('DIAL_INTERVAL_MS', defaults.intervalMs, 10, 3_600_000),
      read.int('DIAL_RESEND_AFTER_SECONDS', defaults.resendAfterSeconds, 11, 3600),
    );
  }
}
