import { DialingSettings } from './dialing/dialing-settings';
import { EnvReader } from './infrastructure/config/env-reader';
import { ImportSettings } from './lead-imports/import-settings';
import { ServiceConfig, loadServiceConfig } from './service-config';
import { UserDefaults } from './users/user-defaults';
import { WebhookSettings } from './webhooks/webhook-settings';

const features = (env: NodeJS.ProcessEnv): ServiceConfig['features'] => loadServiceConfig(env).features;

describe("each feature's own settings", () => {
  it('uses the documented defaults for an empty environment', () => {
    expect(features({})).toEqual({
      dialing: new DialingSettings(1000, 30),
      users: new UserDefaults({ start: '08:00', end: '21:00' }, 10),
      webhooks: new WebhookSettings([1, 5, 30, 120]),
      imports: new ImportSettings(512 * 1024 * 1024),
    });
  });

  it('reads every variable they know', () => {
    expect(
      features({
        DIAL_INTERVAL_MS: '50',
        DIAL_RESEND_AFTER_SECONDS: '45',
        DEFAULT_QUIET_HOURS: '09:30-20:00',
        TOOL_PLAN_LIMIT: '3',
        WEBHOOK_RETRY_DELAYS: '0, 1',
        IMPORT_MAX_BYTES: '1024',
      }),
    ).toEqual({
      dialing: new DialingSettings(50, 45),
      users: new UserDefaults({ start: '09:30', end: '20:00' }, 3),
      webhooks: new WebhookSettings([0, 1]),
      imports: new ImportSettings(1024),
    });
    expect(features({ DEFAULT_QUIET_HOURS: 'none' }).users.quietHours).toBeNull();
  });

  it("refuses a resend sooner than the dialer's own 10 s timeout, so a dial still waiting for its answer is never resent", () => {
    expect(() => loadServiceConfig({ DIAL_RESEND_AFTER_SECONDS: '10' })).toThrow('DIAL_RESEND_AFTER_SECONDS must be an integer from 11 to 3600 (got "10")');
    expect(() => loadServiceConfig({ DIAL_INTERVAL_MS: '1' })).toThrow('DIAL_INTERVAL_MS');
  });

  it('reports every bad value with those of the service at once, each naming its variable', () => {
    const read = new EnvReader({ DEFAULT_QUIET_HOURS: '21:00-08:00', WEBHOOK_RETRY_DELAYS: '1,x', IMPORT_MAX_BYTES: '0', TOOL_PLAN_LIMIT: '-1' });
    UserDefaults.read(read);
    WebhookSettings.read(read);
    ImportSettings.read(read);
    expect(read.problems).toEqual([
      'DEFAULT_QUIET_HOURS must be HH:MM-HH:MM (start before end) or none (got "21:00-08:00")',
      'TOOL_PLAN_LIMIT must be an integer from 0 to 1000000 (got "-1")',
      'WEBHOOK_RETRY_DELAYS must be a comma-separated list of seconds (got "1,x")',
      'IMPORT_MAX_BYTES must be an integer from 1 to 9007199254740991 (got "0")',
    ]);
    expect(() => loadServiceConfig({ PORT: 'x', WEBHOOK_RETRY_DELAYS: '-1' })).toThrow(/PORT[\s\S]*WEBHOOK_RETRY_DELAYS/);
    expect(() => loadServiceConfig({ WEBHOOK_RETRY_DELAYS: '1,,5' })).toThrow('WEBHOOK_RETRY_DELAYS must be a comma-separated list of seconds (got "1,,5")');
  });

  it('reads DIALER among the runtimes of the registry', () => {
    expect(loadServiceConfig({ DIALER: 'http', DIALER_URL: 'http://127.0.0.1:9/dial', TELEPHONY_SECRET: 'own' }).runtime.kind).toBe('http');
    expect(() => loadServiceConfig({ DIALER: 'pstn' })).toThrow('DIALER must be one of simulated, http, vapi, retell, twilio (got "pstn")');
  });
});
