import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from './app.factory';
import { ConfigError } from './shared/config-error';
import { loadServiceConfig } from './service-config';
import { StoreBeingRebuilt } from './infrastructure/read-store/sqlite-rebuild-file';
import { listenWhileStarting } from './infrastructure/http/starting-server';

async function main() {
  let config;
  try {
    config = loadServiceConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78);
    }
    throw error;
  }
  // Liveness answers while the projections catch up; readiness once the service itself listens.
  const starting = await listenWhileStarting(config.port, config.host);
  let app;
  try {
    app = await createApp(config);
    await app.init();
  } catch (error) {
    // A data key the store needs and the service was not given (docs/privacy.md): configuration, not a crash.
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78);
    }
    throw error;
  } finally {
    await starting.close();
  }
  await app.listen(config.port, config.host);
  new Logger('Main').log(
    // The address it listens on (app.getUrl() names 127.0.0.1 for 0.0.0.0), and where clients are told to call.
    `Listening on ${config.host}:${config.port}, public URL ${config.publicUrl} (event store: ${config.eventStore}, read store: ${config.readStore}, data: ${config.dataDir})`,
  );
}

/**
 * A failure the service names (a read store being rebuilt) or a system call's (a port in use)
 * is one line; any other keeps its stack, which Nest's own report no longer shows (AppLogger).
 */
function startFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const named = error instanceof StoreBeingRebuilt || typeof (error as NodeJS.ErrnoException).syscall === 'string';
  return named ? error.message : (error.stack ?? error.message);
}

main().catch((error) => {
  console.error(startFailure(error));
  process.exit(1);
});
