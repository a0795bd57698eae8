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
});
