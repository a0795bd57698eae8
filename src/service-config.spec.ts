import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceConfig, loadServiceConfig } from './service-config';
import { RUNTIME_SETTINGS } from './voice-runtimes/voice-runtime';

/** The settings the configured runtime's routes and providers are given. */
const settingsOf = (config: ServiceConfig): any =>
  (config.runtime.providers.find((p) => typeof p === 'object' && 'provide' in p && p.provide === RUNTIME_SETTINGS) as { useValue: unknown }).useValue;

describe('loadServiceConfig', () => {
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
    expect(settingsOf(loadServiceConfig({}))).toBeNull();
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
  });
});
