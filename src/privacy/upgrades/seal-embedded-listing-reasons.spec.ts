import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { doNotCallStream } from '../../do-not-call/do-not-call.events';
import { SqliteEventStore } from '../../infrastructure/event-store/sqlite-event-store';
import { sealerForEachTest } from '../../testing/sealer.fixture';
import { sealEmbeddedListingReasons } from './seal-embedded-listing-reasons';

const REASON = 'Vera-Quill asked us to stop';

describe("the upgrade that seals earlier do-not-call listings' reasons", () => {
  const made = sealerForEachTest('listing-reasons-');
  const inLog = (text: string) => readdirSync(made.dir).filter((file) => file.startsWith('events.db') && readFileSync(join(made.dir, file)).includes(text));

  it('given a listing as the earlier build wrote it, when upgraded: its reason sealed under the listed number’s key, the rest as it was, once', async () => {
    const { sealer } = made;
    const file = join(made.dir, 'events.db');
    const subject = sealer.subjectKeyId(9, '+12015550161');
    const number = await sealer.sealForSubject(subject, JSON.stringify('+12015550161'), '[erased]');
    const listed = (reason: string | null) => ({ type: 'NumbersAddedToDoNotCall', data: { user_id: 9, phone_numbers: [number], reason, source: 'user' } });
    const written = new SqliteEventStore(file);
    await written.append(doNotCallStream(9, subject), [listed(REASON)], 'no_stream');
    await written.append(doNotCallStream(9, sealer.subjectKeyId(9, '+12015550162')), [listed(null)], 'no_stream');
    await written.close();
    expect(inLog(REASON)).not.toEqual([]);

    expect(await sealEmbeddedListingReasons(file, sealer)).toBe(1);

    expect(inLog(REASON)).toEqual([]);
    const store = new SqliteEventStore(file);
    const [first, second] = await store.readAll(0, 10);
    await store.close();
    expect(first.data.reason).toMatch(new RegExp(`^sealed:v2:${subject}:`));
    expect(await sealer.openForSubject(first.data.reason)).toBe(JSON.stringify(REASON));
    expect(first.data.phone_numbers).toEqual([number]);
    expect(first.metadata.subject).toBe(subject);
    expect(second.data.reason).toBeNull();
    expect(await sealEmbeddedListingReasons(file, sealer)).toBe(0);
  });
});
