/** docs/api.md: tools and assistants carry `2025-01-31T12:00:00.000000Z`, leads and calls `2025-01-31 12:00:00` (UTC). */
export const isoMicros = (iso: string) => iso.replace(/\.(\d{3})Z$/, '.$1000Z');
export const sqlDateTime = (iso: string) => iso.slice(0, 19).replace('T', ' ');
