import { parse } from './commands';
import { CliUsageError } from './usage-error';

describe('CLI options', () => {
  const spec = { token: { type: 'string' as const }, user: { type: 'string' as const } };

  it('takes a value that starts with a dash, as tokens may', () => {
    expect(parse(['--token', '-Ab_9'], spec, false).values).toEqual({ token: '-Ab_9' });
    expect(parse(['--token', '--x'], spec, false).values).toEqual({ token: '--x' });
    expect(parse(['--token=-Ab_9', '--user', '2'], spec, false).values).toEqual({ token: '-Ab_9', user: '2' });
  });

  it('does not take another option as a value, and refuses unknown ones', () => {
    expect(() => parse(['--token', '--user', '2'], spec, false)).toThrow(CliUsageError);
    expect(() => parse(['--nope', 'x'], spec, false)).toThrow(CliUsageError);
  });
});
