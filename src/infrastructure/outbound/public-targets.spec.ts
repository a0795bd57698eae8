import { PublicTargets } from './public-targets';

describe('PublicTargets', () => {
  const names: Record<string, string[]> = {
    'mixed.test': ['10.0.0.5', '93.184.216.34'],
    'inside.test': ['10.0.0.5', '192.168.1.2'],
    localhost: ['127.0.0.1', '::1'],
  };
  const resolve = async (host: string) => {
    if (host in names) return names[host];
    throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
  };
  const targets = new PublicTargets(false, resolve);

  it.each([
    ['http://127.0.0.1/x', false],
    ['http://10.1.2.3/x', false],
    ['http://169.254.169.254/latest', false],
    ['http://[::1]:8080/', false],
    ['http://[::ffff:127.0.0.1]/', false],
    ['http://localhost:3000/', false],
    ['https://inside.test/hook', false],
    ['https://mixed.test/hook', true],
    ['https://93.184.216.34/', true],
    ['https://nowhere.test/hook', true],
  ])('%s → %s', async (url, accepted) => expect(await targets.accepts(url)).toBe(accepted));

  it('accepts anything when private targets are allowed', async () => expect(await new PublicTargets(true, resolve).accepts('http://127.0.0.1/')).toBe(true));
});
