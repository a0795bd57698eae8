import { isPublicAddress, literalAddress } from './target-address';

describe('outbound target addresses', () => {
  it.each([
    '127.0.0.1',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '224.0.0.1',
    '255.255.255.255',
    // IPv6 forms that carry an IPv4 address are judged by it.
    '::127.0.0.1',
    '::7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '64:ff9b::127.0.0.1',
    '64:ff9b::a9fe:a9fe',
    '64:ff9b:1::10.1.2.3',
    '2002:7f00:1::1',
    '2002:c0a8:101::',
    '2001:0:7f00:1:0:0:8000:1',
    '2001:0:4136:e378:8000:63bf:80ff:fffe',
  ])('refuses %s', (address) => expect(isPublicAddress(address)).toBe(false));

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::8.8.8.8',
    '2002:808:808::1',
    '2001:0:4136:e378:8000:63bf:f7f7:f7f7',
  ])('allows %s', (address) => expect(isPublicAddress(address)).toBe(true));

  it('reads IP hosts out of URLs, brackets and all', () => {
    expect(literalAddress('[::1]')).toBe('::1');
    expect(literalAddress('127.0.0.1')).toBe('127.0.0.1');
    expect(literalAddress('example.com')).toBeNull();
    // The URL parser writes `[::127.0.0.1]` as `[::7f00:1]`: still refused.
    expect(isPublicAddress(literalAddress(new URL('http://[::127.0.0.1]/').hostname)!)).toBe(false);
  });
});
