import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '../../infrastructure/event-store/sqlite-event-store';
import { maskEmbeddedRefusals } from './mask-embedded-refusals';

const NUMBER = '+36305830161';
/** What the build before the masking recorded of Twilio's Geo Permissions refusal (its message names the number called). */
const EARLIER = `dial refused: twilio answered 400: Account not authorized to call ${NUMBER}. Perhaps you need to enable some international permissions`;
const OWN = 'dial refused: no Twilio number is set on the assistant';

const outcome = (call_id: number, reason: string) => ({
  type: 'CallOutcomeRecorded',
  data: { call_id, user_id: 1, campaign_id: 1, lead_id: 1, from: 'initiated', status: 'failed', reached: false, details: {}, reason },
});

describe('the upgrade that masks the numbers of earlier refusals', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'refusals-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const inLog = (text: string) => readdirSync(dir).filter((file) => file.startsWith('events.db') && readFileSync(join(dir, file)).includes(text));

  it('given a store as the earlier build wrote it, when upgraded: no spelling of the number is left in its files, the rest as it was, once', async () => {
    const file = join(dir, 'events.db');
    const written = new SqliteEventStore(file);
    await written.append('call-1', [outcome(1, EARLIER)], 'no_stream');
    await written.append('call-2', [outcome(2, OWN)], 'no_stream');
    await written.close();
    expect(inLog(NUMBER.slice(1))).not.toEqual([]);

    expect(maskEmbeddedRefusals(file)).toBe(1);

    for (const spelling of [NUMBER, NUMBER.slice(1), NUMBER.slice(3)]) expect(inLog(spelling)).toEqual([]);
    const store = new SqliteEventStore(file);
    const reasons = (await store.readAll(0, 10)).map((event) => (event.data as { reason: string }).reason);
    expect(reasons).toEqual([EARLIER.replace(NUMBER, '[number]'), OWN]);
    await store.close();
    expect(maskEmbeddedRefusals(file)).toBe(0);
  });
});
