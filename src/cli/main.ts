import 'reflect-metadata';
import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../app.module';
import { ConfigError } from '../shared/config-error';
import { loadServiceConfig } from '../service-config';
import { AppLogger } from '../infrastructure/logging/app-logger';
import { createLog } from '../infrastructure/logging/pino-log';
import { DomainError } from '../shared/domain-error';
import { commands, projectsAtStart, usage } from './commands';
import { CliUsageError } from './usage-error';

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const command = name ? commands[name] : undefined;
  const helpAsked = (args: string[]) => args.some((a) => a === '--help' || a === '-h');
  if (!command) {
    // Help asked for is the answer (stdout); a command that does not exist is a usage error (stderr).
    if (!name || ['help', '--help', '-h'].includes(name)) {
      process.stdout.write(usage());
      return 0;
    }
    process.stderr.write(`Unknown command ${name}\n\n${usage()}`);
    return 64;
  }
  if (helpAsked(rest)) {
    process.stdout.write(usage(name));
    return 0;
  }
  let app: INestApplicationContext | undefined;
  try {
    const config = loadServiceConfig({ ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'error' });
    const log = createLog(config, 'stderr');
    app = await NestFactory.createApplicationContext(AppModule.forRoot({ config, background: false, projectAtStart: projectsAtStart(name) }), {
      logger: new AppLogger(log),
      abortOnError: false,
    });
    const output = await command.run(app, rest);
    if (output !== undefined) process.stdout.write(`${JSON.stringify(output)}\n`);
    return command.failed?.(output) ? 1 : 0;
  } catch (error) {
    if (error instanceof CliUsageError) {
      process.stderr.write(`${error.message}\n\n${usage(name)}`);
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
