import { EnvReader } from '../infrastructure/config/env-reader';

/** The webhooks' own settings from the environment (docs/configuration.md). */
export class WebhookSettings {
  constructor(
    /** Seconds before each retry of a delivery that failed. */
    readonly retryDelaysSeconds: readonly number[] = [1, 5, 30, 120],
  ) {}

  static read(read: EnvReader): WebhookSettings {
    const raw = read.text('WEBHOOK_RETRY_DELAYS');
    if (raw === undefined) return new WebhookSettings();
    const items = raw.split(',').map((s) => s.trim());
    const delays = items.map(Number);
    // An empty item (`1,,5`) is no delay of 0 s: it is refused with the rest.
    if (items.some((item, i) => item === '' || !Number.isFinite(delays[i]) || delays[i] < 0)) {
      read.problems.push(`WEBHOOK_RETRY_DELAYS must be a comma-separated list of seconds (got "${raw}")`);
      return new WebhookSettings();
    }
    return new WebhookSettings(delays);
  }
}
