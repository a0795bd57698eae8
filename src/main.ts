import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from './app.factory';
import { ConfigError, loadConfig } from './infrastructure/config/app-config';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78);
    }
    throw error;
  }
  const app = await createApp(config);
  await app.listen(config.port, config.host);
  new Logger('Main').log(
    `Listening on ${await app.getUrl()} (event store: ${config.eventStore}, read store: ${config.readStore}, data: ${config.dataDir})`,
  );
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
