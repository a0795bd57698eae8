/** Contract §18: what `DIALER=vapi` and `DIALER=retell` need, read from the environment. */
export interface VapiSettings {
  apiKey: string;
  webhookSecret: string;
  baseUrl: string;
  /** Calls in flight on the runtime at once, across every campaign and instance. */
  maxConcurrentCalls: number;
}

export interface RetellSettings {
  apiKey: string;
  baseUrl: string;
  maxConcurrentCalls: number;
}

export interface VoiceRuntimeSettings {
  vapi: VapiSettings | null;
  retell: RetellSettings | null;
}

export const NO_VOICE_RUNTIME: VoiceRuntimeSettings = { vapi: null, retell: null };

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
    };
  }
  if (dialer === 'retell') {
    return {
      vapi: null,
      retell: {
        apiKey: required('RETELL_API_KEY'),
        baseUrl: baseUrl('RETELL_BASE_URL', 'https://api.retellai.com'),
        maxConcurrentCalls: int('RETELL_MAX_CONCURRENT_CALLS', 20, 1, 100_000),
      },
    };
  }
  return NO_VOICE_RUNTIME;
}

/** The runtime whose calls in flight are capped across every campaign and instance, and its cap; null: none. */
export function runtimeCap(settings: VoiceRuntimeSettings): { provider: string; capacity: number } | null {
  if (settings.vapi) return { provider: 'vapi', capacity: settings.vapi.maxConcurrentCalls };
  if (settings.retell) return { provider: 'retell', capacity: settings.retell.maxConcurrentCalls };
  return null;
}
