import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceConfig, loadServiceConfig } from './service-config';
import { DEFAULT_TELEPHONY_SECRET } from './voice-runtimes/http/http-settings';
import { RUNTIME_SETTINGS } from './voice-runtimes/voice-runtime';

/** The settings the configured runtime's routes and providers are given. */
const settingsOf = (config: ServiceConfig): any =>
  (config.runtime.providers.find((p) => typeof p === 'object' && 'provide' in p && p.provide === RUNTIME_SETTINGS) as { useValue: unknown }).useValue;

describe('loadServiceConfig', () => {
  it('refuses a missing or the built-in telephony secret with the generic runtime, and reads its URL and limit', () => {
    expect(() => loadServiceConfig({ DIALER: 'http', DIALER_URL: 'http://127.0.0.1:9000/dial' })).toThrow(
      'TELEPHONY_SECRET must be set to a secret of your own when DIALER=http',
    );
    expect(() => loadServiceConfig({ DIALER: 'http', DIALER_URL: 'http://127.0.0.1:9000/dial', TELEPHONY_SECRET: DEFAULT_TELEPHONY_SECRET })).toThrow(
      'TELEPHONY_SECRET',
    );
    expect(() => loadServiceConfig({ DIALER: 'http', TELEPHONY_SECRET: 'own' })).toThrow('DIALER_URL is required when DIALER=http');
    expect(() => loadServiceConfig({ DIALER: 'http', DIALER_URL: 'ftp://x', TELEPHONY_SECRET: 'own' })).toThrow(
      'DIALER_URL must be a http: or https: URL (got "ftp://x")',
    );
    const http = { DIALER: 'http', DIALER_URL: 'http://127.0.0.1:9000/dial', TELEPHONY_SECRET: 'own' };
    expect(settingsOf(loadServiceConfig(http))).toEqual({ url: 'http://127.0.0.1:9000/dial', secret: 'own', maxOpenDials: null });
    expect(settingsOf(loadServiceConfig({ ...http, DIALER_MAX_OPEN_REQUESTS: '25' })).maxOpenDials).toBe(25);
    expect(() => loadServiceConfig({ ...http, DIALER_MAX_OPEN_REQUESTS: '0' })).toThrow(
      'DIALER_MAX_OPEN_REQUESTS must be an integer from 1 to 100000 (got "0")',
    );
    // Read only where the runtime that uses it is chosen.
    expect(() => loadServiceConfig({ TELEPHONY_SECRET: DEFAULT_TELEPHONY_SECRET, DIALER_URL: 'ftp://x' })).not.toThrow();
  });

  it("reads the simulated dialer's seed, odds and step time", () => {
    expect(settingsOf(loadServiceConfig({ SIMULATED_DIALER_SEED: '7', SIMULATED_DIALER_ODDS: 'human:3, busy:1', SIMULATED_CALL_STEP_SECONDS: '0' }))).toEqual({
      seed: 7,
      odds: { human: 3, machine: 0, busy: 1, 'no-answer': 0, failed: 0, silence: 0 },
      stepSeconds: 0,
    });
    expect(settingsOf(loadServiceConfig({})).odds.human).toBeGreaterThan(0);
    expect(() => loadServiceConfig({ SIMULATED_DIALER_ODDS: 'human:x' })).toThrow('SIMULATED_DIALER_ODDS');
    expect(() => loadServiceConfig({ SIMULATED_DIALER_ODDS: 'alien:1' })).toThrow('SIMULATED_DIALER_ODDS');
    expect(() => loadServiceConfig({ SIMULATED_DIALER_ODDS: 'human:0' })).toThrow('SIMULATED_DIALER_ODDS must give some outcome');
    expect(() => loadServiceConfig({ SIMULATED_CALL_STEP_SECONDS: '-1' })).toThrow('SIMULATED_CALL_STEP_SECONDS');
    expect(() => loadServiceConfig({ SIMULATED_CALL_STEP_SECONDS: '-1', PORT: 'x' })).toThrow(/PORT[\s\S]*SIMULATED_CALL_STEP_SECONDS/);
  });

  it("needs each voice runtime's keys, naming the one missing, and reads its base URL and cap", () => {
    expect(() => loadServiceConfig({ DIALER: 'vapi' })).toThrow(/VAPI_API_KEY is required when DIALER=vapi[\s\S]*VAPI_WEBHOOK_SECRET is required/);
    expect(() => loadServiceConfig({ DIALER: 'retell' })).toThrow('RETELL_API_KEY is required when DIALER=retell');
    const vapi = loadServiceConfig({ DIALER: 'vapi', VAPI_API_KEY: 'k', VAPI_WEBHOOK_SECRET: 's', VAPI_BASE_URL: 'http://127.0.0.1:9/' });
    expect(settingsOf(vapi)).toEqual({ apiKey: 'k', webhookSecret: 's', baseUrl: 'http://127.0.0.1:9', maxConcurrentCalls: 10 });
    expect(vapi.runtime.cap).toEqual({ provider: 'vapi', capacity: 10 });
    const retell = loadServiceConfig({ DIALER: 'retell', RETELL_API_KEY: 'k', RETELL_MAX_CONCURRENT_CALLS: '3' });
    expect(settingsOf(retell)).toEqual({ apiKey: 'k', webhookApiKey: 'k', baseUrl: 'https://api.retellai.com', maxConcurrentCalls: 3 });
    // Retell signs its events with the key that has its webhook badge, when that is another.
    expect(settingsOf(loadServiceConfig({ DIALER: 'retell', RETELL_API_KEY: 'k', RETELL_WEBHOOK_API_KEY: 'w' })).webhookApiKey).toBe('w');
    expect(() => loadServiceConfig({ DIALER: 'retell', RETELL_API_KEY: 'k', RETELL_BASE_URL: 'ftp://x' })).toThrow('RETELL_BASE_URL');
    expect(loadServiceConfig({}).runtime.kind).toBe('simulated');
    expect(loadServiceConfig({}).runtime.cap).toBeNull();
    for (const name of ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'LLM_API_KEY'])
      expect(() => loadServiceConfig({ DIALER: 'twilio' })).toThrow(`${name} is required when DIALER=twilio`);
    const twilio = loadServiceConfig({
      DIALER: 'twilio',
      TWILIO_ACCOUNT_SID: 'AC1',
      TWILIO_AUTH_TOKEN: 't',
      LLM_API_KEY: 'sk',
      LLM_BASE_URL: 'http://127.0.0.1:11434/v1',
    });
    expect(settingsOf(twilio)).toEqual({
      accountSid: 'AC1',
      authToken: 't',
      sharedKeySecret: null,
      apiBaseUrl: 'https://api.twilio.com',
      maxConcurrentCalls: null,
      llm: { apiKey: 'sk', baseUrl: 'http://127.0.0.1:11434/v1', timeoutMs: 10_000 },
    });
    expect(twilio.runtime.cap).toBeNull();
    expect(
      loadServiceConfig({ DIALER: 'twilio', TWILIO_ACCOUNT_SID: 'AC1', TWILIO_AUTH_TOKEN: 't', LLM_API_KEY: 'sk', TWILIO_MAX_CONCURRENT_CALLS: '5' }).runtime
        .cap,
    ).toEqual({ provider: 'twilio', capacity: 5 });
  });

  it('reads VOICES_FILE as the catalog of voices, refusing a file that is not one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'voices-'));
    const file = (name: string, body: string) => (writeFileSync(join(dir, name), body), join(dir, name));
    const voices = [{ id: 9, name: 'Iris', provider: 'elevenlabs', language: 'English', runtime_voices: { retell: '11labs-Iris' } }];
    expect(loadServiceConfig({ VOICES_FILE: file('ok.json', JSON.stringify(voices)) }).voices).toEqual(voices);
    expect(loadServiceConfig({}).voices).toBeNull();
    expect(() => loadServiceConfig({ VOICES_FILE: join(dir, 'missing.json') })).toThrow('VOICES_FILE must name a readable JSON file');
    expect(() => loadServiceConfig({ VOICES_FILE: file('obj.json', '{}') })).toThrow('VOICES_FILE must hold a JSON array');
    expect(() => loadServiceConfig({ VOICES_FILE: file('bad.json', JSON.stringify([{ id: 1, name: 'A' }])) })).toThrow(
      'voice 0: provider must be a non-empty string',
    );
    const twice = [voices[0], { ...voices[0], runtime_voices: { vapi: { provider: 'openai' } } }];
    expect(() => loadServiceConfig({ VOICES_FILE: file('twice.json', JSON.stringify(twice)) })).toThrow(/runtime_voices.vapi must be[\s\S]*ids must be unique/);
    rmSync(dir, { recursive: true });
  });
});
