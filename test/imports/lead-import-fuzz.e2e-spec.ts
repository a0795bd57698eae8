import fc from 'fast-check';
import { requiredAssistantSettings } from '../../src/testing/assistant.fixture';
import { eventually } from '../support/fake-provider';
import { oddValue } from '../support/fuzz-bodies';
import { TestApp, startTestApp } from '../support/test-app';

/** Imports per run; each makes a campaign and waits for its import to end. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 150) / 3;
/** Each run waits for an import to end; on 2 cores shared with other suites that is seconds, not milliseconds. */
const PROPERTY_TIMEOUT_MS = 180_000;

/** A few valid numbers, so files repeat them (duplicates), and numbers no plan accepts. */
const NUMBERS = ['+12015550401', '+12015550402', '+12015550403', '+4930901820', '+12015550401 ', '12015550401', '+1', '+999999999999', ''];
const COLUMNS = [
  'phone_number',
  'timezone',
  'secondary_phone_number_1',
  'secondary_phone_number_2',
  'name',
  '',
  ' phone_number ',
  '__proto__',
  'constructor',
  'variables',
  'campaign_id',
  'allow_dupplicate',
];
const CELLS = [...NUMBERS, 'America/New_York', 'Mars/Olympus', 'Ann', 'a,b', 'say "hi"', 'line\nbreak', '\r', '"', 'é😀', 'x'.repeat(3000)];

const csvCell = fc.oneof(fc.constantFrom(...CELLS), fc.string({ maxLength: 6 }));
const quoted = (cell: string) => (/[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);

/** CSV as careless exports write it: odd headers, ragged rows, blank lines, any line ending, a BOM, now and then a stray quote. */
const csvText = fc
  .record({
    bom: fc.boolean(),
    eol: fc.constantFrom('\n', '\r\n', '\r'),
    header: fc.array(fc.constantFrom(...COLUMNS), { minLength: 1, maxLength: 5 }),
    rows: fc.array(fc.array(csvCell, { maxLength: 6 }), { maxLength: 12 }),
    raw: fc.option(fc.constantFrom('"unclosed,', 'a"b,c', '""', ',,,'), { nil: undefined }),
  })
  .map(({ bom, eol, header, rows, raw }) => {
    const lines = [header.map(quoted).join(','), ...rows.map((cells) => cells.map(quoted).join(','))];
    if (raw !== undefined) lines.splice(1 + (lines.length % 3), 0, raw);
    return `${bom ? '\uFEFF' : ''}${lines.join(eol)}`;
  });

const ndjsonLine = fc.oneof(
  fc.record({ phone_number: fc.constantFrom(...NUMBERS) }).map((body) => JSON.stringify(body)),
  fc
    .dictionary(fc.constantFrom('phone_number', 'timezone', 'variables', 'secondary_contacts', 'campaign_id', '__proto__'), oddValue, { maxKeys: 4 })
    .map((body) => JSON.stringify({ phone_number: NUMBERS[0], ...body })),
  fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.stringify(value)),
  fc.constantFrom('', ' ', '{', '{"phone_number": "+12015550402"', 'null', '[]'),
  fc.string({ maxLength: 10 }),
);
const ndjsonText = fc.tuple(fc.array(ndjsonLine, { maxLength: 12 }), fc.constantFrom('\n', '\r\n')).map(([lines, eol]) => lines.join(eol));

interface ImportView {
  status: string;
  rows: number;
  accepted: number;
  duplicates: number;
  invalid: number;
  errors: Array<{ row: number; message: string }>;
}

/** docs/api.md, docs/imports.md: any body a client may send ends as an import whose counts add up to the leads it made. */
describe('fuzzing the lead import', () => {
  let t: TestApp;
  let token: string;
  let assistant: number;

  beforeAll(async () => {
    t = await startTestApp({ LOG_LEVEL: process.env.FUZZ_LOG_LEVEL ?? 'silent' });
    ({ token } = await t.createUser(undefined, 100_000));
    assistant = (await t.request('POST', '/api/user/assistant', { token, body: requiredAssistantSettings })).body.data.id;
  });
  afterAll(() => t.close());

  async function importInto(body: string, contentType: string) {
    const campaign = (await t.request('POST', '/api/user/campaigns', { token, body: { name: 'Fuzz', assistant_id: assistant } })).body.data.id as number;
    const res = await fetch(`${t.url}/api/user/campaigns/${campaign}/leads/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': contentType, accept: 'application/json' },
      body,
    });
    const text = await res.text();
    const where = `${contentType} ${JSON.stringify(body).slice(0, 400)}`;
    // docs/imports.md: a CSV whose header names no phone_number column is refused before any import is made.
    const missing = '{"message":"The phone_number column is required.","errors":{"phone_number":["The phone_number column is required."]}}';
    if (res.status === 422 && text === missing && contentType === 'text/csv') {
      const header = body.split(/\r?\n/).find((line) => line.trim() !== '' && line.trim() !== '\uFEFF') ?? '';
      const columns = header.split(',').map((name) => name.trim().replace(/^"|"$/g, '').trim());
      if (columns.includes('phone_number')) throw new Error(`refused as having no phone_number column: ${where}`);
      return null;
    }
    if (res.status !== 202) throw new Error(`${res.status} for ${where}: ${text.slice(0, 300)}`);
    const id = (JSON.parse(text) as { data: { id: number } }).data.id;
    const done = await eventually(
      async () => {
        const found = (await t.request('GET', `/api/user/lead-imports/${id}`, { token })).body as ImportView;
        return found.status !== 'running' && found;
      },
      15_000,
      `import ${id} to end`,
    );
    const leads = (await t.request('GET', `/api/user/leads?campaign_id=${campaign}`, { token })).body as Array<{ phone_number: string }>;
    return { done, leads, where };
  }

  function checkCounts(imported: { done: ImportView; leads: Array<{ phone_number: string }>; where: string } | null) {
    if (!imported) return;
    const { done, leads, where } = imported;
    const refused = done.duplicates + done.invalid;
    const rows = done.errors.map((e) => e.row);
    const problems = [
      done.rows !== done.accepted + refused && 'rows are not accepted + duplicates + invalid',
      leads.length !== done.accepted && `${leads.length} leads for ${done.accepted} accepted`,
      new Set(leads.map((l) => l.phone_number)).size !== leads.length && 'a number twice in the campaign',
      done.errors.length !== Math.min(refused, 1000) && 'errors do not name every refused row',
      rows.some((row, i) => row < 1 || (i > 0 && row <= rows[i - 1])) && 'error rows not ascending from 1',
      done.errors.some((e) => typeof e.message !== 'string' || !e.message || /node_modules|\.[jt]s:\d+/.test(e.message)) && 'an error without a plain message',
    ].filter(Boolean);
    if (problems.length) throw new Error(`${problems.join('; ')} for ${where}: ${JSON.stringify(done).slice(0, 400)}`);
  }

  it(
    'CSV: every import ends, its counts add up, each number once',
    async () => {
      await fc.assert(
        fc.asyncProperty(csvText, async (csv) => checkCounts(await importInto(csv, 'text/csv'))),
        { numRuns: RUNS },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'NDJSON: every import ends completed, its counts add up, each number once',
    async () => {
      await fc.assert(
        fc.asyncProperty(ndjsonText, async (lines) => {
          const outcome = (await importInto(lines, 'application/x-ndjson'))!;
          // A line that is not JSON refuses that row only: NDJSON never fails as a whole.
          if (outcome.done.status !== 'completed') throw new Error(`${outcome.done.status} for ${outcome.where}`);
          checkCounts(outcome);
        }),
        { numRuns: RUNS },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );
});
