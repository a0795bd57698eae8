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
      DIALER: 'http',
      DIALER_URL: 'http://127.0.0.1:9000/dial',
      ALLOW_PRIVATE_TARGETS: 'true',
      RATE_LIMIT_PER_MINUTE: '5',
      WEBHOOK_RETRY_DELAYS: '0, 1',
    });
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
});
