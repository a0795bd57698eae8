import { ConsoleLogger, Logger } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import pino from 'pino';
import { AppLogger } from './app-logger';

/** A PinoLogger over a pino that writes its JSON lines into `lines`. */
function memoryLogger(level: pino.LevelWithSilent, lines: Array<Record<string, unknown>>): PinoLogger {
  const root = pino({ level }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return new (class extends PinoLogger {
    override get logger() {
      return root;
    }
  })({ pinoHttp: {} });
}

describe('AppLogger', () => {
  let lines: Array<Record<string, unknown>>;
  const use = (level: pino.LevelWithSilent) => Logger.overrideLogger(new AppLogger(memoryLogger(level, lines)));
  beforeEach(() => (lines = []));
  afterEach(() => Logger.overrideLogger(new ConsoleLogger()));

  it('given a failed start reported by Nest, then it writes nothing (the process answers it in one line)', () => {
    use('info');
    new Logger('ExceptionHandler').error(new Error('read.db is being rebuilt by process 1'));
    new Logger('NestApplication').error('Error: listen EADDRINUSE: address already in use 127.0.0.1:3000');
    expect(lines).toEqual([]);
  });

  it('given any other error, then it writes one JSON line with its context', () => {
    use('error');
    new Logger('ProjectionRunner').error('Projection batch failed, retrying');
    expect(lines).toEqual([expect.objectContaining({ level: 50, context: 'ProjectionRunner', msg: 'Projection batch failed, retrying' })]);
  });

  it('given anything below its level, then it writes nothing', () => {
    use('error');
    new Logger('NestFactory').log('Starting Nest application...');
    new Logger('ProjectionRunner').warn('behind');
    expect(lines).toEqual([]);
  });

  it("given Nest's route mapping, then it is written at debug only", () => {
    use('info');
    new Logger('RouterExplorer').log('Mapped {/api/user/me, GET} route');
    new Logger('NestApplication').log('Nest application successfully started');
    expect(lines.map((l) => l.msg)).toEqual(['Nest application successfully started']);
    use('debug');
    new Logger('RouterExplorer').log('Mapped {/api/user/me, GET} route');
    expect(lines.at(-1)).toMatchObject({ level: 20, context: 'RouterExplorer' });
  });
});
