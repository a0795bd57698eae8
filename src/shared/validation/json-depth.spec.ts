import { tooDeepField } from './json-depth';

const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

describe('tooDeepField', () => {
  it('lets a field nest 32 levels and names the field that nests 33', () => {
    expect(tooDeepField(`{"a":1,"variables":${nested(32)}}`)).toBeNull();
    expect(tooDeepField(`{"a":1,"variables":${nested(33)}}`)).toBe('variables');
  });

  it('names the outermost field, not an inner key, and ignores brackets inside strings', () => {
    const inner = `{"x":${'{"y":'.repeat(40)}1${'}'.repeat(40)}}`;
    expect(tooDeepField(`{"name":"[[[[{{{{","sch\\"ema":${inner}}`)).toBe('sch"ema');
    expect(tooDeepField(`{"name":"${'['.repeat(100)}"}`)).toBeNull();
  });

  it('names the body when the body itself is a deep array', () => {
    expect(tooDeepField(nested(2000))).toBe('body');
  });
});
