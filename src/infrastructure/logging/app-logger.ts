import { ConsoleLogger, LogLevel } from '@nestjs/common';

/** Where Nest reports a start (`create`) or a `listen` that failed, an error it also throws to the caller. */
const START_FAILURE_CONTEXTS = new Set(['ExceptionHandler', 'NestApplication']);

/**
 * Nest's console log at the given levels, less Nest's reports of a start that failed: the
 * service and the CLI answer those themselves, in one line for a failure they name (a read
 * store being rebuilt elsewhere, a port in use), so it is not written twice, once with a stack.
 */
export class AppLogger extends ConsoleLogger {
  constructor(levels: LogLevel[]) {
    super({ logLevels: levels });
  }

  override error(message: unknown, ...rest: unknown[]): void {
    if (START_FAILURE_CONTEXTS.has(rest[rest.length - 1] as string)) return;
    super.error(message, ...rest);
  }
}
