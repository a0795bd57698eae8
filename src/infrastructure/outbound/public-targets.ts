import { lookup } from 'node:dns/promises';
import { isPublicAddress, literalAddress } from '../../shared/target-address';

/** How long a name's lookup may take at create/update before it counts as not resolving. */
const LOOKUP_TIMEOUT_MS = 2000;

export type Resolve = (hostname: string) => Promise<string[]>;

const resolveAll: Resolve = async (hostname) => (await lookup(hostname, { all: true })).map((a) => a.address);

/**
 * docs/api.md: a webhook or tool URL whose host is a non-public IP literal, or a name that
 * resolves only to non-public addresses (`localhost` included), is refused when it is saved,
 * not only when it is called. A name that does not resolve is accepted: it is checked again
 * at every call, by the outbound client.
 */
export class PublicTargets {
  constructor(
    private readonly allowPrivate: boolean,
    private readonly resolve: Resolve = resolveAll,
  ) {}

  async accepts(url: string): Promise<boolean> {
    if (this.allowPrivate) return true;
    let hostname: string;
    try {
      hostname = new URL(url).hostname;
    } catch {
      return true; // Not a URL: its own rule refuses it.
    }
    const literal = literalAddress(hostname);
    if (literal) return isPublicAddress(literal);
    const addresses = await Promise.race([
      this.resolve(hostname).catch(() => [] as string[]),
      new Promise<string[]>((resolve) => setTimeout(() => resolve([]), LOOKUP_TIMEOUT_MS).unref()),
    ]);
    return addresses.length === 0 || addresses.some(isPublicAddress);
  }
}

export const NOT_PUBLIC = (attribute: string) => `The ${attribute} field must point to a public address.`;
