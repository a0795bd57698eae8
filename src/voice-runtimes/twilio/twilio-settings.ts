import { EnvReader } from '../../infrastructure/config/env-reader';

/** The OpenAI-compatible model the service's own conversations (Twilio's relay) run on. */
export interface LlmSettings {
  apiKey: string;
  baseUrl: string;
  /** A model answer that sends nothing for this long has failed. */
  timeoutMs: number;
}

/** docs/real-calls.md: what `DIALER=twilio` needs. */
export interface TwilioSettings {
  accountSid: string;
  authToken: string;
  /** `TWILIO_WEBHOOK_SHARED_KEY_SECRET`: the secret of a SharedKey webhook setting, for callbacks signed with it. */
  sharedKeySecret: string | null;
  apiBaseUrl: string;
  /** null: no cap of the service's own (Twilio queues calls past the account's rate). */
  maxConcurrentCalls: number | null;
  llm: LlmSettings;
}

export const readTwilioSettings = (read: EnvReader): TwilioSettings => ({
  accountSid: read.required('TWILIO_ACCOUNT_SID', 'when DIALER=twilio'),
  authToken: read.required('TWILIO_AUTH_TOKEN', 'when DIALER=twilio'),
  sharedKeySecret: read.text('TWILIO_WEBHOOK_SHARED_KEY_SECRET') ?? null,
  apiBaseUrl: read.baseUrl('TWILIO_API_BASE_URL', 'https://api.twilio.com'),
  maxConcurrentCalls: read.text('TWILIO_MAX_CONCURRENT_CALLS') ? read.int('TWILIO_MAX_CONCURRENT_CALLS', 0, 1, 100_000) : null,
  llm: {
    apiKey: read.required('LLM_API_KEY', 'when DIALER=twilio'),
    baseUrl: read.baseUrl('LLM_BASE_URL', 'https://api.openai.com/v1'),
    timeoutMs: read.int('LLM_TIMEOUT_SECONDS', 10, 1, 600) * 1000,
  },
});
