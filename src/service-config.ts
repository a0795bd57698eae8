import { VoiceEntry, readVoicesFile } from './catalog/voices-file';
import { AppConfig, readAppConfig } from './infrastructure/config/app-config';
import { ConfigError } from './shared/config-error';
import { EnvReader } from './infrastructure/config/env-reader';
import { ConfiguredRuntime } from './voice-runtimes/configured-runtime';
import { runtimeFor } from './voice-runtimes/registry';

/** The service's settings with those of its features that read their own: the voice runtime `DIALER` chose, the catalog's voices. */
export type ServiceConfig = AppConfig & {
  readonly runtime: ConfiguredRuntime;
  /** VOICES_FILE's catalog of voices; null: the built-in one. */
  readonly voices: VoiceEntry[] | null;
};

/** Reads and checks the environment (docs/configuration.md); every problem is reported at once, each naming its variable. */
export function loadServiceConfig(env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  const read = new EnvReader(env);
  const config = readAppConfig(read);
  const runtime = runtimeFor(config.dialer, read);
  const voicesFile = read.text('VOICES_FILE');
  const voices = voicesFile ? readVoicesFile(voicesFile, read.problems) : null;
  if (read.problems.length) throw new ConfigError(read.problems);
  return Object.assign(config, { runtime, voices });
}
