import { EnvReader } from '../../infrastructure/config/env-reader';

/** docs/real-calls.md: what `DIALER=vapi` needs. */
export interface VapiSettings {
  apiKey: string;
  webhookSecret: string;
  baseUrl: string;
  /** Calls in flight on the runtime at once, across every campaign and instance. */
  maxConcurrentCalls: number;
}

export const readVapiSettings = (read: EnvReader): VapiSettings => ({
  apiKey: read.required('VAPI_API_KEY', 'when DIALER=vapi'),
  webhookSecret: read.required('VAPI_WEBHOOK_SECRET', 'when DIALER=vapi'),
  baseUrl: read.baseUrl('VAPI_BASE_URL', 'https://api.vapi.ai'),
  maxConcurrentCalls: read.int('VAPI_MAX_CONCURRENT_CALLS', 10, 1, 100_000),
});
