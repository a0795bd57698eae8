import { ConsoleLogger } from '@nestjs/common';

/**
 * The CLI's log: errors only, less Nest's report of a start that failed, which the CLI answers
 * itself in one line (a message, no stack) as it does every other failure.
 */
export class CliLogger extends ConsoleLogger {
  constructor() {
    super({ logLevels: ['error', 'fatal'] });
  }

  override error(message: unknown, ...rest: unknown[]): void {
    if (rest[rest.length - 1] === 'ExceptionHandler') return;
    super.error(message, ...rest);
  }
}
