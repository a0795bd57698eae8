import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from './app-config';

describe('loadConfig', () => {
  it('uses the documented defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      eventStore: 'embedded',
      readStore: 'embedded',
      dialer: 'simulated',
      rateLimitPerMinute: 600,
      toolPlanLimit: 10,
      webhookRetryDelays: [1, 5, 30, 120],
      allowPrivateTargets: false,
    });
    expect(config.dataDir).toMatch(/data$/);
  });

  it('reads every variable it knows', () => {
    const config = loadConfig({
      PORT: '8080',
      DATA_DIR: '/tmp/x',
      EVENT_STORE: 'eventstoredb',
      EVENTSTOREDB_URL: 'esdb://localhost:2113?tls=false',
      READ_STORE: 'mongodb',
      MONGODB_URL: 'mongodb://localhost:27017/voice',
      DATA_KEYS: 'k2:BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB=,k1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
      DIALER: 'http',
      DIALER_URL: 'http://127.0.0.1:9000/dial',
      TELEPHONY_SECRET: 'our-own-secret',
      ALLOW_PRIVATE_TARGETS: 'true',
      RATE_LIMIT_PER_MINUTE: '5',
      WEBHOOK_RETRY_DELAYS: '0, 1',
    });
    expect(config.dataKeys.map((key) => key.id)).toEqual(['k2', 'k1']);
    expect(config).toMatchObject({
      port: 8080,
      dataDir: '/tmp/x',
      eventStore: 'eventstoredb',
      readStore: 'mongodb',
      dialer: 'http',
      allowPrivateTargets: true,
      rateLimitPerMinute: 5,
      webhookRetryDelays: [0, 1],
    });
  });

  it('refuses the default telephony secret with the real dialer, and only there', () => {
    expect(() => loadConfig({ DIALER: 'http', DIALER_URL: 'http://127.0.0.1:9000/dial' })).toThrow(
      'TELEPHONY_SECRET must be set to a secret of your own when DIALER=http',
    );
    expect(() => loadConfig({ DIALER: 'http', DIALER_URL: 'http://127.0.0.1:9000/dial', TELEPHONY_SECRET: 'change-me-telephony-secret' })).toThrow(
      'TELEPHONY_SECRET',
    );
    expect(loadConfig({}).telephonySecret).toBe('change-me-telephony-secret');
  });

  it('reports every bad value at once, naming the variable and the value', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'abc', EVENT_STORE: 'postgres', READ_STORE: 'mongodb', RATE_LIMIT_PER_MINUTE: '0', DIALER_URL: 'ftp://x' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toEqual(
      expect.arrayContaining([
        'PORT must be an integer from 0 to 65535 (got "abc")',
        'EVENT_STORE must be one of embedded, eventstoredb (got "postgres")',
        'MONGODB_URL is required when READ_STORE=mongodb',
        'RATE_LIMIT_PER_MINUTE must be an integer from 1 to 10000000 (got "0")',
        'DIALER_URL must be a http: or https: URL (got "ftp://x")',
      ]),
    );
  });

  it("reads the provider's limit of open dial requests, none by default", () => {
    expect(loadConfig({ DIALER_MAX_OPEN_REQUESTS: '25' }).dialing.maxOpenDials).toBe(25);
    expect(loadConfig({}).dialing.maxOpenDials).toBeNull();
    expect(() => loadConfig({ DIALER_MAX_OPEN_REQUESTS: '0' })).toThrow('DIALER_MAX_OPEN_REQUESTS must be an integer from 1 to 100000 (got "0")');
  });

  it('reads the dialer settings: interval, seed, odds, step time and resend delay', () => {
    const config = loadConfig({
      DIAL_INTERVAL_MS: '50',
      SIMULATED_DIALER_SEED: '7',
      SIMULATED_DIALER_ODDS: 'human:3, busy:1',
      SIMULATED_CALL_STEP_SECONDS: '0',
      DIAL_RESEND_AFTER_SECONDS: '45',
    });
    expect(config.dialing).toEqual({
      intervalMs: 50,
      maxOpenDials: null,
      simulatedSeed: 7,
      simulatedOdds: { human: 3, machine: 0, busy: 1, 'no-answer': 0, failed: 0, silence: 0 },
      simulatedStepSeconds: 0,
      resendAfterSeconds: 45,
    });
    expect(loadConfig({}).dialing.resendAfterSeconds).toBe(30);
    // Not below the dialer's own 10 s timeout: a dial still waiting for its answer is never resent.
    expect(() => loadConfig({ DIAL_RESEND_AFTER_SECONDS: '10' })).toThrow('DIAL_RESEND_AFTER_SECONDS');
    expect(loadConfig({}).dialing.simulatedOdds.human).toBeGreaterThan(0);
    expect(() => loadConfig({ SIMULATED_DIALER_ODDS: 'human:x' })).toThrow('SIMULATED_DIALER_ODDS');
    expect(() => loadConfig({ SIMULATED_DIALER_ODDS: 'alien:1' })).toThrow('SIMULATED_DIALER_ODDS');
    expect(() => loadConfig({ SIMULATED_DIALER_ODDS: 'human:0' })).toThrow('SIMULATED_DIALER_ODDS must give some outcome');
    expect(() => loadConfig({ SIMULATED_CALL_STEP_SECONDS: '-1' })).toThrow('SIMULATED_CALL_STEP_SECONDS');
    expect(() => loadConfig({ DIAL_INTERVAL_MS: '1' })).toThrow('DIAL_INTERVAL_MS');
  });

  it("needs each voice runtime's keys, naming the one missing, and reads its base URL and cap", () => {
    expect(() => loadConfig({ DIALER: 'vapi' })).toThrow(/VAPI_API_KEY is required when DIALER=vapi[\s\S]*VAPI_WEBHOOK_SECRET is required/);
    expect(() => loadConfig({ DIALER: 'retell' })).toThrow('RETELL_API_KEY is required when DIALER=retell');
    const vapi = loadConfig({ DIALER: 'vapi', VAPI_API_KEY: 'k', VAPI_WEBHOOK_SECRET: 's', VAPI_BASE_URL: 'http://127.0.0.1:9/' });
    expect(vapi.runtimes).toEqual({
      vapi: { apiKey: 'k', webhookSecret: 's', baseUrl: 'http://127.0.0.1:9', maxConcurrentCalls: 10 },
      retell: null,
      twilio: null,
    });
    const retell = loadConfig({ DIALER: 'retell', RETELL_API_KEY: 'k', RETELL_MAX_CONCURRENT_CALLS: '3' });
    expect(retell.runtimes.retell).toEqual({ apiKey: 'k', webhookApiKey: 'k', baseUrl: 'https://api.retellai.com', maxConcurrentCalls: 3 });
    // Retell signs its events with the key that has its webhook badge, when that is another.
    expect(loadConfig({ DIALER: 'retell', RETELL_API_KEY: 'k', RETELL_WEBHOOK_API_KEY: 'w' }).runtimes.retell?.webhookApiKey).toBe('w');
    expect(() => loadConfig({ DIALER: 'retell', RETELL_API_KEY: 'k', RETELL_BASE_URL: 'ftp://x' })).toThrow('RETELL_BASE_URL');
    expect(loadConfig({}).runtimes).toEqual({ vapi: null, retell: null, twilio: null });
    for (const name of ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'LLM_API_KEY'])
      expect(() => loadConfig({ DIALER: 'twilio' })).toThrow(`${name} is required when DIALER=twilio`);
    const twilio = loadConfig({
      DIALER: 'twilio',
      TWILIO_ACCOUNT_SID: 'AC1',
      TWILIO_AUTH_TOKEN: 't',
      LLM_API_KEY: 'sk',
      LLM_BASE_URL: 'http://127.0.0.1:11434/v1',
    });
    expect(twilio.runtimes.twilio).toEqual({
      accountSid: 'AC1',
      authToken: 't',
      sharedKeySecret: null,
      apiBaseUrl: 'https://api.twilio.com',
      maxConcurrentCalls: null,
      llm: { apiKey: 'sk', baseUrl: 'http://127.0.0.1:11434/v1', timeoutMs: 10_000 },
    });
    expect(
      loadConfig({ DIALER: 'twilio', TWILIO_ACCOUNT_SID: 'AC1', TWILIO_AUTH_TOKEN: 't', LLM_API_KEY: 'sk', TWILIO_MAX_CONCURRENT_CALLS: '5' }).runtimes.twilio
        ?.maxConcurrentCalls,
    ).toBe(5);
  });

  it('reads VOICES_FILE as the catalog of voices, refusing a file that is not one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'voices-'));
    const file = (name: string, body: string) => (writeFileSync(join(dir, name), body), join(dir, name));
    const voices = [{ id: 9, name: 'Iris', provider: 'elevenlabs', language: 'English', runtime_voices: { retell: '11labs-Iris' } }];
    expect(loadConfig({ VOICES_FILE: file('ok.json', JSON.stringify(voices)) }).voices).toEqual(voices);
    expect(loadConfig({}).voices).toBeNull();
    expect(() => loadConfig({ VOICES_FILE: join(dir, 'missing.json') })).toThrow('VOICES_FILE must name a readable JSON file');
    expect(() => loadConfig({ VOICES_FILE: file('obj.json', '{}') })).toThrow('VOICES_FILE must hold a JSON array');
    expect(() => loadConfig({ VOICES_FILE: file('bad.json', JSON.stringify([{ id: 1, name: 'A' }])) })).toThrow('voice 0: provider must be a non-empty string');
    const twice = [voices[0], { ...voices[0], runtime_voices: { vapi: { provider: 'openai' } } }];
    expect(() => loadConfig({ VOICES_FILE: file('twice.json', JSON.stringify(twice)) })).toThrow(/runtime_voices.vapi must be[\s\S]*ids must be unique/);
  });
});
