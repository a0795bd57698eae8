import { PATH_METADATA } from '@nestjs/common/constants';
import { readAppConfig } from '../infrastructure/config/app-config';
import { EnvReader } from '../infrastructure/config/env-reader';
import { Dialer } from './dialer.port';
import { VOICE_RUNTIMES } from './registry';

const RUNTIME_ENV: Record<string, Record<string, string>> = {
  http: { DIALER: 'http', DIALER_URL: 'http://127.0.0.1:9/dial', TELEPHONY_SECRET: 'spec-secret' },
  vapi: { DIALER: 'vapi', VAPI_API_KEY: 'k', VAPI_WEBHOOK_SECRET: 's' },
  retell: { DIALER: 'retell', RETELL_API_KEY: 'k' },
  twilio: { DIALER: 'twilio', TWILIO_ACCOUNT_SID: 'AC1', TWILIO_AUTH_TOKEN: 't', LLM_API_KEY: 'sk' },
};

/** docs/adding-a-runtime.md: what every registered runtime must have. */
describe('the voice runtime registry', () => {
  it.each(Object.entries(VOICE_RUNTIMES))('%s has every part a runtime needs', async (key, runtime) => {
    expect(runtime.kind).toBe(key);
    const read = new EnvReader(RUNTIME_ENV[key] ?? {});
    const config = readAppConfig(read);
    const settings = runtime.settings(read);
    expect(read.problems).toEqual([]);
    await runtime.prepare?.();
    const dialer = await runtime.dialer(config, settings, {} as never);
    expect(dialer).toBeInstanceOf(Dialer);
    expect(dialer.provider).toBe(key);
    if (key === 'simulated') return void expect(runtime.controllers).toEqual([]);
    // A real runtime calls back: its routes live under /api/telephony.
    expect(runtime.controllers.length).toBeGreaterThan(0);
    for (const controller of runtime.controllers) expect(String(Reflect.getMetadata(PATH_METADATA, controller))).toMatch(/^api\/telephony(\/|$)/);
  });

  it('gives each runtime routes of its own', () => {
    const paths = Object.values(VOICE_RUNTIMES).flatMap((runtime) => runtime.controllers.map((c) => String(Reflect.getMetadata(PATH_METADATA, c))));
    expect(new Set(paths).size).toBe(paths.length);
  });
});
