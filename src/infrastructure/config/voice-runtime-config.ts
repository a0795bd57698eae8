/** docs/real-calls.md: what `DIALER=vapi`, `retell` and `twilio` need, read from the environment. */
export interface VapiSettings {
  apiKey: string;
  webhookSecret: string;
  baseUrl: string;
  /** Calls in flight on the runtime at once, across every campaign and instance. */
  maxConcurrentCalls: number;
}

export interface RetellSettings {
  apiKey: string;
  /** `RETELL_WEBHOOK_API_KEY`: the key Retell's events are verified with (default: the API key). */
  webhookApiKey: string;
  baseUrl: string;
  maxConcurrentCalls: number;
}

/** The OpenAI-compatible model the service's own conversations (Twilio's relay) run on. */
export interface LlmSettings {
  apiKey: string;
  baseUrl: string;
  /** A model answer that sends nothing for this long has failed. */
  timeoutMs: number;
}

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

export interface VoiceRuntimeSettings {
  vapi: VapiSettings | null;
  retell: RetellSettings | null;
  twilio: TwilioSettings | null;
}

export const NO_VOICE_RUNTIME: VoiceRuntimeSettings = { vapi: null, retell: null, twilio: null };

type Int = (name: string, fallback: number, min: number, max: number) => number;

/** The runtime's settings when it is the dialer; a required variable missing is a problem naming it. */
export function voiceRuntimeSettings(env: NodeJS.ProcessEnv, dialer: string, int: Int, problems: string[]): VoiceRuntimeSettings {
  const required = (name: string): string => {
    const value = env[name];
    if (!value) problems.push(`${name} is required when DIALER=${dialer}`);
    return value ?? '';
  };
  const baseUrl = (name: string, fallback: string): string => {
    const raw = env[name] || fallback;
    try {
      if (!['http:', 'https:'].includes(new URL(raw).protocol)) throw new Error();
    } catch {
      problems.push(`${name} must be an http or https URL (got "${raw}")`);
    }
    return raw.replace(/\/+$/, '');
  };
  if (dialer === 'vapi') {
    return {
      vapi: {
        apiKey: required('VAPI_API_KEY'),
        webhookSecret: required('VAPI_WEBHOOK_SECRET'),
        baseUrl: baseUrl('VAPI_BASE_URL', 'https://api.vapi.ai'),
        maxConcurrentCalls: int('VAPI_MAX_CONCURRENT_CALLS', 10, 1, 100_000),
      },
      retell: null,
      twilio: null,
    };
  }
  if (dialer === 'retell') {
    return {
      ...NO_VOICE_RUNTIME,
      retell: {
        apiKey: required('RETELL_API_KEY'),
        // Retell signs its events with the key that carries its webhook badge, which may be another than the API key.
        webhookApiKey: env.RETELL_WEBHOOK_API_KEY || env.RETELL_API_KEY || '',
        baseUrl: baseUrl('RETELL_BASE_URL', 'https://api.retellai.com'),
        maxConcurrentCalls: int('RETELL_MAX_CONCURRENT_CALLS', 20, 1, 100_000),
      },
    };
  }
  if (dialer === 'twilio') {
    return {
      ...NO_VOICE_RUNTIME,
      twilio: {
        accountSid: required('TWILIO_ACCOUNT_SID'),
        authToken: required('TWILIO_AUTH_TOKEN'),
        sharedKeySecret: env.TWILIO_WEBHOOK_SHARED_KEY_SECRET || null,
        apiBaseUrl: baseUrl('TWILIO_API_BASE_URL', 'https://api.twilio.com'),
        maxConcurrentCalls: env.TWILIO_MAX_CONCURRENT_CALLS ? int('TWILIO_MAX_CONCURRENT_CALLS', 0, 1, 100_000) : null,
        llm: {
          apiKey: required('LLM_API_KEY'),
          baseUrl: baseUrl('LLM_BASE_URL', 'https://api.openai.com/v1'),
          timeoutMs: int('LLM_TIMEOUT_SECONDS', 10, 1, 600) * 1000,
        },
      },
    };
  }
  return NO_VOICE_RUNTIME;
}

/** The runtime whose calls in flight are capped across every campaign and instance, and its cap; null: none. */
export function runtimeCap(settings: VoiceRuntimeSettings): { provider: string; capacity: number } | null {
  if (settings.vapi) return { provider: 'vapi', capacity: settings.vapi.maxConcurrentCalls };
  if (settings.retell) return { provider: 'retell', capacity: settings.retell.maxConcurrentCalls };
  if (settings.twilio?.maxConcurrentCalls) return { provider: 'twilio', capacity: settings.twilio.maxConcurrentCalls };
  return null;
}
