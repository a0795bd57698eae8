import ipaddr from 'ipaddr.js';

const v4 = (high: number, low: number) => ipaddr.fromByteArray([high >> 8, high & 0xff, low >> 8, low & 0xff]) as ipaddr.IPv4;

/**
 * The IPv4 addresses an IPv6 address carries, which a packet to it may reach: IPv4-mapped
 * (`::ffff:0:0/96`), IPv4-compatible (`::/96`, RFC 4291), NAT64 (`64:ff9b::/96`, RFC 6052, and
 * the local-use `64:ff9b:1::/48`, RFC 8215), 6to4 (`2002::/16`, RFC 3056) and Teredo
 * (`2001::/32`, RFC 4380: its server, and its client stored inverted).
 */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4[] {
  const p = address.parts;
  const zeros = (from: number, to: number) => p.slice(from, to).every((part) => part === 0);
  if (zeros(0, 5) && (p[5] === 0xffff || p[5] === 0)) return [v4(p[6], p[7])];
  if (p[0] === 0x64 && p[1] === 0xff9b && (zeros(2, 6) || p[2] === 1)) return [v4(p[6], p[7])];
  if (p[0] === 0x2002) return [v4(p[1], p[2])];
  if (p[0] === 0x2001 && p[1] === 0) return [v4(p[2], p[3]), v4(p[6] ^ 0xffff, p[7] ^ 0xffff)];
  return [];
}

/**
 * Whether an address is an ordinary public one. Loopback, private, link-local (cloud
 * metadata at 169.254.169.254 among them), unique-local, carrier-grade NAT, multicast,
 * reserved and unspecified ranges are not; an IPv6 address that embeds an IPv4 one is judged
 * by that IPv4 address too.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  const embedded = embeddedIPv4(parsed as ipaddr.IPv6);
  if (embedded.length) return embedded.every((ipv4) => ipv4.range() === 'unicast');
  return parsed.range() === 'unicast';
}

/** The host of a URL as an IP address when it is written as one (brackets removed), else null. */
export function literalAddress(hostname: string): string | null {
  const bare = hostname.replace(/^\[|\]$/g, '');
  return ipaddr.isValid(bare) ? bare : null;
}
