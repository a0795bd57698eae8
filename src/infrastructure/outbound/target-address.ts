import ipaddr from 'ipaddr.js';

/**
 * Whether an address is an ordinary public one. Loopback, private, link-local (cloud
 * metadata at 169.254.169.254 among them), unique-local, carrier-grade NAT, multicast,
 * reserved and unspecified ranges are not; IPv4 written as IPv6 is judged as IPv4.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === 'unicast';
}

/** The host of a URL as an IP address when it is written as one (brackets removed), else null. */
export function literalAddress(hostname: string): string | null {
  const bare = hostname.replace(/^\[|\]$/g, '');
  return ipaddr.isValid(bare) ? bare : null;
}
