import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '../../infrastructure/event-store/sqlite-event-store';
import { trimEmbeddedCsvMessages } from './trim-embedded-csv-messages';

const PIECE = 'Quok-Zelda';
/** What the build before recorded of a stray quote in a name: csv-parse's whole message. */
const QUOTED = `Invalid Opening Quote: a quote is found on field "name" at line 3, value is "${PIECE}"`;
const OWN = 'Max Record Size at line 4';

describe("the upgrade that cuts earlier imports' CSV messages to what the parser found and where", () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'csv-messages-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const inLog = (text: string) => readdirSync(dir).filter((file) => file.startsWith('events.db') && readFileSync(join(dir, file)).includes(text));

  it('given imports as the earlier build wrote them, when upgraded: no piece of a row is left in the files, the rest as it was, once', async () => {
    const file = join(dir, 'events.db');
    const written = new SqliteEventStore(file);
    const rows = (errors: object[]) => ({ type: 'LeadImportRowsDone', data: { import_id: 1, last_row: 3, accepted: 1, duplicates: 0, invalid: 2, errors } });
    const finished = (reason: string) => ({ type: 'LeadImportFinished', data: { import_id: 1, campaign_id: 1, status: 'failed', reason } });
    const errors = [
      { row: 1, message: 'The phone number field must be a valid phone number.' },
      { row: 2, message: `The file cannot be read from this row on: ${QUOTED}` },
    ];
    await written.append('lead_import-1', [rows(errors), finished(`The file cannot be read: ${QUOTED}`)], 'no_stream');
    await written.append('lead_import-2', [finished(`The file cannot be read: ${OWN}`)], 'no_stream');
    await written.close();
    expect(inLog(PIECE)).not.toEqual([]);

    expect(trimEmbeddedCsvMessages(file)).toBe(2);

    expect(inLog(PIECE)).toEqual([]);
    const store = new SqliteEventStore(file);
    const [done, reason, other] = await store.readAll(0, 10);
    await store.close();
    expect(done.data.errors).toEqual([errors[0], { row: 2, message: 'The file cannot be read from this row on: Invalid Opening Quote at line 3' }]);
    expect(reason.data.reason).toBe('The file cannot be read: Invalid Opening Quote at line 3');
    expect(other.data.reason).toBe(`The file cannot be read: ${OWN}`);
    expect(trimEmbeddedCsvMessages(file)).toBe(0);
  });
});
