import pino, { Logger as Pino } from 'pino';
import { AppConfig } from '../config/app-config';

const PINO_LEVELS: Record<AppConfig['logLevel'], pino.LevelWithSilent> = { silent: 'silent', error: 'error', warn: 'warn', log: 'info', debug: 'debug' };

/** Where the log goes: the service writes to stdout; the CLI keeps stdout for its JSON result. */
export type LogOutput = 'stdout' | 'stderr';

/** The process's log: JSON lines (`pino-pretty` only when asked, `LOG_PRETTY`), at `LOG_LEVEL`. */
export function createLog(config: Pick<AppConfig, 'logLevel' | 'logPretty'>, output: LogOutput = 'stdout'): Pino {
  const fd = output === 'stdout' ? 1 : 2;
  const options: pino.LoggerOptions = {
    level: PINO_LEVELS[config.logLevel],
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  };
  if (config.logPretty) return pino(options, pino.transport({ target: 'pino-pretty', options: { destination: fd, translateTime: 'SYS:standard' } }));
  return pino(options, pino.destination({ dest: fd, sync: true }));
}
