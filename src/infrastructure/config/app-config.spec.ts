import { loadConfig } from './app-config';
import { ConfigError } from '../../shared/config-error';

describe('loadConfig', () => {
  it('uses the documented defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      eventStore: 'embedded',
      readStore: 'embedded',
      rateLimitPerMinute: 600,
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
      ALLOW_PRIVATE_TARGETS: 'true',
      RATE_LIMIT_PER_MINUTE: '5',
    });
    expect(config.dataKeys.map((key) => key.id)).toEqual(['k2', 'k1']);
    expect(config).toMatchObject({
      port: 8080,
      dataDir: '/tmp/x',
      eventStore: 'eventstoredb',
      readStore: 'mongodb',
      allowPrivateTargets: true,
      rateLimitPerMinute: 5,
    });
  });

  it('reports every bad value at once, naming the variable and the value', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'abc', EVENT_STORE: 'postgres', READ_STORE: 'mongodb', RATE_LIMIT_PER_MINUTE: '0' });
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
      ]),
    );
  });
});
