import { Logger, PinoLogger } from 'nestjs-pino';
import type { Logger as Pino } from 'pino';

/** Where Nest reports a start (`create`) or a `listen` that failed, an error it also throws to the caller. */
const START_FAILURE_CONTEXTS = new Set(['ExceptionHandler', 'NestApplication']);

/** Nest's start-up chatter (a line per module and per route), wanted only when debugging. */
const START_DETAIL_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

/**
 * Nest's log through pino (nestjs-pino), less Nest's reports of a start that failed: the
 * service and the CLI answer those themselves, in one line for a failure they name (a read
 * store being rebuilt elsewhere, a port in use), so it is not written twice, once with a stack.
 */
export class AppLogger extends Logger {
  constructor(log: Pino | PinoLogger) {
    super(log instanceof PinoLogger ? log : new PinoLogger({ pinoHttp: { logger: log } }), {});
  }

  override log(message: unknown, ...rest: unknown[]): void {
    if (START_DETAIL_CONTEXTS.has(rest[rest.length - 1] as string)) super.debug(message, ...rest);
    else super.log(message, ...rest);
  }

  override error(message: unknown, ...rest: unknown[]): void {
    if (START_FAILURE_CONTEXTS.has(rest[rest.length - 1] as string)) return;
    super.error(message, ...rest);
  }
}
