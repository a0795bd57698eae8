import { DynamicModule, Module, ValueProvider } from '@nestjs/common';
import { VoiceEntry, readVoicesFile } from './catalog/voices-file';
import { DialingSettings } from './dialing/dialing-settings';
import { AppConfig, readAppConfig } from './infrastructure/config/app-config';
import { ImportSettings } from './lead-imports/import-settings';
import { ConfigError } from './shared/config-error';
import { EnvReader } from './infrastructure/config/env-reader';
import { UserDefaults } from './users/user-defaults';
import { ConfiguredRuntime } from './voice-runtimes/configured-runtime';
import { runtimeFor } from './voice-runtimes/registry';
import { WebhookSettings } from './webhooks/webhook-settings';

/** The settings each feature reads for itself, injected by their class. */
export interface FeatureSettings {
  readonly dialing: DialingSettings;
  readonly users: UserDefaults;
  readonly webhooks: WebhookSettings;
  readonly imports: ImportSettings;
}

/** The service's settings with those of its features: the voice runtime `DIALER` chose, the catalog's voices, and each feature's own. */
export type ServiceConfig = AppConfig & {
  readonly runtime: ConfiguredRuntime;
  /** VOICES_FILE's catalog of voices; null: the built-in one. */
  readonly voices: VoiceEntry[] | null;
  readonly features: FeatureSettings;
};

/** Reads and checks the environment (docs/configuration.md); every problem is reported at once, each naming its variable. */
export function loadServiceConfig(env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  const read = new EnvReader(env);
  const config = readAppConfig(read);
  const runtime = runtimeFor(read);
  const features: FeatureSettings = {
    dialing: DialingSettings.read(read),
    users: UserDefaults.read(read),
    webhooks: WebhookSettings.read(read),
    imports: ImportSettings.read(read),
  };
  const voicesFile = read.text('VOICES_FILE');
  const voices = voicesFile ? readVoicesFile(voicesFile, read.problems) : null;
  if (read.problems.length) throw new ConfigError(read.problems);
  return Object.assign(config, { runtime, voices, features });
}

@Module({})
class FeatureSettingsModule {}

/** Each feature's settings, for any module to inject by its class. */
export function featureSettingsModule(features: FeatureSettings): DynamicModule {
  const providers: ValueProvider[] = Object.values(features).map((settings) => ({ provide: settings.constructor, useValue: settings }));
  return { module: FeatureSettingsModule, global: true, providers, exports: providers.map((p) => p.provide) };
}
