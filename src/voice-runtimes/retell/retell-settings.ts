import { EnvReader } from '../../infrastructure/config/env-reader';

/** docs/real-calls.md: what `DIALER=retell` needs. */
export interface RetellSettings {
  apiKey: string;
  /** `RETELL_WEBHOOK_API_KEY`: the key Retell's events are verified with (default: the API key). */
  webhookApiKey: string;
  baseUrl: string;
  maxConcurrentCalls: number;
}

export const readRetellSettings = (read: EnvReader): RetellSettings => {
  const apiKey = read.required('RETELL_API_KEY', 'when DIALER=retell');
  return {
    apiKey,
    // Retell signs its events with the key that carries its webhook badge, which may be another than the API key.
    webhookApiKey: read.text('RETELL_WEBHOOK_API_KEY') ?? apiKey,
    baseUrl: read.baseUrl('RETELL_BASE_URL', 'https://api.retellai.com'),
    maxConcurrentCalls: read.int('RETELL_MAX_CONCURRENT_CALLS', 20, 1, 100_000),
  };
};
