import 'reflect-metadata';
import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../app.module';
import { ConfigError, loadConfig } from '../infrastructure/config/app-config';
import { AppLogger } from '../infrastructure/logging/app-logger';
import { DomainError } from '../shared/domain-error';
import { CliUsageError, commands, projectsAtStart } from './commands';

const USAGE = `Usage: npm run cli -- <command> [options]

  users:create --email <email> [--tool-limit <n>]   create a user; prints its token and webhook secret once
  tokens:create --user <id>                         issue another token for a user
  tokens:revoke --token <token>                     revoke a token from the next request on
  campaigns:history <id> [--as-of <ISO 8601>]       print a campaign's audit trail (and its state at an instant)
  projections:rebuild [--projection <name>]         rebuild read models from the event store (service stopped)
`;

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const command = name ? commands[name] : undefined;
  if (!command) {
    process.stderr.write(USAGE);
    return name && !['help', '--help', '-h'].includes(name) ? 64 : 0;
  }
  let app: INestApplicationContext | undefined;
  try {
    const config = loadConfig({ ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'error' });
    app = await NestFactory.createApplicationContext(AppModule.forRoot({ config, background: false, projectAtStart: projectsAtStart(name) }), {
      logger: new AppLogger(['error', 'fatal']),
      abortOnError: false,
    });
    const output = await command(app, rest);
    if (output !== undefined) process.stdout.write(`${JSON.stringify(output)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof CliUsageError) {
      process.stderr.write(`${error.message}\n\n${USAGE}`);
      return 64;
    }
    if (error instanceof ConfigError || error instanceof DomainError) {
      const errors = error instanceof DomainError ? error.errors : undefined;
      process.stderr.write(`${JSON.stringify({ message: error.message, ...(errors ? { errors } : {}) })}\n`);
      return 1;
    }
    process.stderr.write(`${JSON.stringify({ message: (error as Error).message ?? String(error) })}\n`);
    return 1;
  } finally {
    await app?.close();
  }
}

main(process.argv.slice(2)).then((code) => process.exit(code));
