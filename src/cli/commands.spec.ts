import { commands, parse, usage } from './commands';
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

describe('CLI usage', () => {
  it('puts every command’s summary in one column, two spaces at least after its usage, or under it when the usage is long', () => {
    const lines = usage().split('\n');
    for (const [name, command] of Object.entries(commands)) {
      const call = command.usage ? `${name} ${command.usage}` : name;
      const at = lines.findIndex((line) => line.startsWith(`  ${call}`));
      const alone = lines[at] === `  ${call}`;
      const summaryLine = alone ? lines[at + 1] : lines[at];
      expect(summaryLine.slice(52)).toBe(command.summary);
      expect(summaryLine.slice(0, 52).trim()).toBe(alone ? '' : call);
      expect(summaryLine.slice(50, 52)).toBe('  ');
    }
  });
});
