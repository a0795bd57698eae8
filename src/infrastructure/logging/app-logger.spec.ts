import { ConsoleLogger, Logger } from '@nestjs/common';
import { AppLogger } from './app-logger';

describe('AppLogger', () => {
  let written: string;
  let restore: () => void;
  beforeEach(() => {
    written = '';
    const spy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((written += String(chunk)), true));
    const stdout = jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((written += String(chunk)), true));
    Logger.overrideLogger(new AppLogger(['error', 'fatal']));
    restore = () => {
      spy.mockRestore();
      stdout.mockRestore();
      Logger.overrideLogger(new ConsoleLogger());
    };
  });
  afterEach(() => restore());

  it('given a failed start reported by Nest, then it writes nothing (the process answers it in one line)', () => {
    new Logger('ExceptionHandler').error(new Error('read.db is being rebuilt by process 1'));
    expect(written).toBe('');
  });

  it('given a failed listen reported by Nest, then it writes nothing (the service answers it in one line)', () => {
    new Logger('NestApplication').error('Error: listen EADDRINUSE: address already in use 127.0.0.1:3000');
    expect(written).toBe('');
  });

  it('given any other error, then it writes it', () => {
    new Logger('ProjectionRunner').error('Projection batch failed, retrying');
    expect(written).toContain('Projection batch failed, retrying');
  });

  it('given anything below its levels, then it writes nothing', () => {
    new Logger('NestFactory').log('Starting Nest application...');
    new Logger('ProjectionRunner').warn('behind');
    expect(written).toBe('');
  });
});
