import { EVENT_STORE, EventStore } from '../../src/shared/ports/event-store.port';
import { CampaignCreated, campaignStream } from '../../src/campaigns/campaign.events';
import { CommandRunner } from '../../src/infrastructure/event-sourcing/command-runner';
import { ProjectionRunner } from '../../src/infrastructure/projections/projection-runner';
import { leadImportDecider } from '../../src/lead-imports/lead-import.decider';
import { leadImportStream } from '../../src/lead-imports/lead-import.events';
import { CreateImportedLead } from '../../src/leads/commands/create-imported-lead';
import { CommandBus } from '@nestjs/cqrs';
import { requiredAssistantSettings } from '../../src/testing/assistant.fixture';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../support/fake-provider';
import { cli } from '../support/processes';
import { startTestApp, TestApp } from '../support/test-app';

/** The import once it is no longer running. */
const importEnded = (t: TestApp, token: string, id: number, timeoutMs = 15_000) =>
  eventually(
    async () => {
      const found = (await t.request('GET', `/api/user/lead-imports/${id}`, { token })).body;
      return found.status !== 'running' && found;
    },
    timeoutMs,
    `import ${id} to end`,
  );

/** docs/imports.md: leads in bulk, CSV or NDJSON, streamed, each row taken or refused whole. */
describe('lead import', () => {
  let t: TestApp;
  let token: string;
  let userId: number;
  let campaign: number;

  beforeAll(async () => {
    t = await startTestApp();
    ({ token, id: userId } = await t.createUser());
    const assistant = (await t.request('POST', '/api/user/assistant', { token, body: requiredAssistantSettings })).body.data.id;
    campaign = (await t.request('POST', '/api/user/campaigns', { token, body: { name: 'Imported', assistant_id: assistant } })).body.data.id;
  });
  afterAll(() => t.close());

  const upload = (body: string | Buffer, contentType: string, path = `/api/user/campaigns/${campaign}/leads/import`, headers: Record<string, string> = {}) =>
    fetch(`${t.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': contentType, accept: 'application/json', ...headers },
      body,
    });

  /** A CSV upload sent piece by piece, as a slow client sends it: `send(null)` ends it. */
  const streamed = (path: string) => {
    let send!: (text: string | null) => void;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        send = (text) => (text === null ? controller.close() : controller.enqueue(new TextEncoder().encode(text)));
      },
    });
    const answered = fetch(`${t.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
      body,
      duplex: 'half',
    } as RequestInit);
    return { send, answered };
  };

  const finished = (id: number) => importEnded(t, token, id);

  const leadsOf = async (id: number) =>
    (await t.request('GET', `/api/user/leads?campaign_id=${id}`, { token })).body as Array<{ phone_number: string; variables: object }>;

  it('takes a CSV with a BOM, CRLF, quotes, blank lines and unknown columns, refusing a bad row and a duplicate with their row numbers', async () => {
    const csv = [
      '\uFEFFphone_number,first_name,"note, quoted",timezone,secondary_phone_number_1',
      '+12015550101,Ada,"says ""hi""",America/Chicago,+12015550201',
      '',
      '+12015550102,Bob,"line one\nline two",,',
      'not-a-number,Cy,,,',
      '+12015550101,Dup,,,',
      '+12015550103,Eve,,Mars/Olympus,',
      '',
    ].join('\r\n');
    const res = await upload(csv, 'text/csv');
    expect(res.status).toBe(202);
    const answer = (await res.json()) as { message: string; data: { id: number; status: string } };
    expect(answer).toEqual({ message: 'Import started.', data: { id: expect.any(Number), status: 'running' } });
    const done = await finished(answer.data.id);
    expect(done).toMatchObject({ id: answer.data.id, campaign_id: campaign, status: 'completed', rows: 5, accepted: 2, duplicates: 1, invalid: 2 });
    expect(done.errors).toEqual([
      { row: 3, message: expect.stringMatching(/phone number/i) },
      { row: 4, message: 'The phone number has already been taken for this campaign.' },
      { row: 5, message: expect.stringMatching(/timezone/i) },
    ]);
    expect(done.started_at).toEqual(expect.any(String));
    expect(done.finished_at).toEqual(expect.any(String));
    const leads = await leadsOf(campaign);
    expect(leads.map((l) => l.phone_number)).toEqual(['+12015550101', '+12015550102']);
    expect(leads[0]).toMatchObject({ variables: { first_name: 'Ada', 'note, quoted': 'says "hi"' }, timezone: 'America/Chicago' });
    expect((leads[0] as unknown as { secondary_contacts: Array<{ phone_number: string }> }).secondary_contacts.map((c) => c.phone_number)).toEqual([
      '+12015550201',
    ]);
    expect(leads[1]).toMatchObject({ variables: { first_name: 'Bob', 'note, quoted': 'line one\nline two' } });
    // Against the campaign: the same file again is all duplicates.
    const again = await finished(((await (await upload(csv, 'text/csv')).json()) as { data: { id: number } }).data.id);
    expect(again).toMatchObject({ rows: 5, accepted: 0, duplicates: 3, invalid: 2 });
  });

  it('refuses the number of a lead stored before numbers had reservation streams, in a file as in a single create', async () => {
    // Such a lead has its LeadCreated and no `lead_number-…` stream: its number is found in the read
    // model. Its campaign, made before those streams too, does not say its numbers were all reserved.
    const store = t.app.get<EventStore>(EVENT_STORE);
    const [made] = await store.readStream(campaignStream(campaign));
    const older = await store.nextId('campaign');
    const { numbers_reserved, ...before } = made.data as CampaignCreated['data'];
    expect(numbers_reserved).toBe(true);
    await store.append(campaignStream(older), [{ type: 'CampaignCreated', data: { ...before, campaign_id: older } }], 'no_stream');
    const id = await store.nextId('lead');
    const data = { lead_id: id, user_id: userId, campaign_id: older, phone_number: '+12015550977', variables: {}, secondary_contacts: [] };
    await store.append(`lead-${id}`, [{ type: 'LeadCreated', data }], 'no_stream');
    await t.app.get(ProjectionRunner).catchUp();
    const single = await t.request('POST', '/api/user/lead', { token, body: { campaign_id: older, phone_number: '+12015550977' } });
    expect(single.body).toEqual({
      message: 'The phone number has already been taken for this campaign.',
      errors: { phone_number: ['The phone number has already been taken for this campaign.'] },
    });
    const path = `/api/user/campaigns/${older}/leads/import`;
    const imported = ((await (await upload('phone_number\n+12015550978\n+12015550977\n', 'text/csv', path)).json()) as { data: { id: number } }).data.id;
    expect(await finished(imported)).toMatchObject({
      rows: 2,
      accepted: 1,
      duplicates: 1,
      errors: [{ row: 2, message: 'The phone number has already been taken for this campaign.' }],
    });
  });

  it('refuses a __proto__ column as a single create refuses that variable, and keeps constructor and toString', async () => {
    const assistant = (await t.request('POST', '/api/user/assistant', { token, body: requiredAssistantSettings })).body.data.id;
    const into = (await t.request('POST', '/api/user/campaigns', { token, body: { name: 'Keys', assistant_id: assistant } })).body.data.id;
    const path = `/api/user/campaigns/${into}/leads/import`;
    const refused = await finished(
      ((await (await upload('phone_number,__proto__\n+12015550611,a\n', 'text/csv', path)).json()) as { data: { id: number } }).data.id,
    );
    expect(refused).toMatchObject({ accepted: 0, invalid: 1, errors: [{ row: 1, message: 'The variables field must not contain the key __proto__.' }] });
    const kept = await finished(
      ((await (await upload('phone_number,constructor,toString\n+12015550612,a,b\n', 'text/csv', path)).json()) as { data: { id: number } }).data.id,
    );
    expect(kept).toMatchObject({ accepted: 1 });
    expect((await leadsOf(into))[0].variables).toEqual({ constructor: 'a', toString: 'b' });
  });

  it('refuses at once a CSV whose header has no phone_number column, making no import', async () => {
    const before = (await t.request('GET', '/api/user/lead-imports', { token })).body.total;
    for (const csv of ['name,phone\nAnn,+12015550190\n', '\uFEFFname\r\n', 'name,"phone number"\n' + 'x,y\n'.repeat(20_000)]) {
      const res = await upload(csv, 'text/csv');
      expect([res.status, await res.json()]).toEqual([
        422,
        { message: 'The phone_number column is required.', errors: { phone_number: ['The phone_number column is required.'] } },
      ]);
    }
    expect((await t.request('GET', '/api/user/lead-imports', { token })).body.total).toBe(before);
    const slow = streamed(`/api/user/campaigns/${campaign}/leads/import`);
    slow.send('first_name,');
    slow.send('email\nAnn,');
    expect((await slow.answered).status).toBe(422);
    slow.send(null);
  });

  it('takes NDJSON, numbering rows by their line, and refuses a line that is not an object', async () => {
    const lines = [
      JSON.stringify({ phone_number: '+12015550301', variables: { plan: 'gold' } }),
      '',
      '{"phone_number": ',
      JSON.stringify([1, 2]),
      JSON.stringify({ phone_number: '+12015550302', secondary_contacts: [{ phone_number: '+12015550303' }] }),
    ].join('\n');
    const id = ((await (await upload(lines, 'application/x-ndjson')).json()) as { data: { id: number } }).data.id;
    const done = await finished(id);
    expect(done).toMatchObject({ status: 'completed', rows: 4, accepted: 2, duplicates: 0, invalid: 2 });
    expect(done.errors).toEqual([
      { row: 3, message: 'Malformed JSON body.' },
      { row: 4, message: 'The request body must be a JSON object.' },
    ]);
  });

  it('takes a body past the 1 MiB of JSON bodies on this route only', async () => {
    const rows = Array.from({ length: 30_000 }, (_, i) => `+1201${String(7_000_000 + i)},${'x'.repeat(30)}`);
    const csv = `phone_number,filler\n${rows.join('\n')}\n`;
    expect(Buffer.byteLength(csv)).toBeGreaterThan(1024 * 1024);
    const id = ((await (await upload(csv, 'text/csv')).json()) as { data: { id: number } }).data.id;
    const done = await importEnded(t, token, id, 60_000);
    expect(done).toMatchObject({ status: 'completed', rows: 30_000, accepted: 30_000 });
    const json = await t.request('POST', '/api/user/lead', {
      token,
      body: { campaign_id: campaign, phone_number: '+12015559999', variables: { big: 'y'.repeat(1024 * 1024) } },
    });
    expect(json.status).toBe(413);
  }, 90_000);

  it('refuses a row past the 1 MiB of a single create: an NDJSON line alone, a CSV record and the rest of its file', async () => {
    const assistant = (await t.request('POST', '/api/user/assistant', { token, body: requiredAssistantSettings })).body.data.id;
    const into = (await t.request('POST', '/api/user/campaigns', { token, body: { name: 'Large rows', assistant_id: assistant } })).body.data.id;
    const path = `/api/user/campaigns/${into}/leads/import`;
    const filler = 'x'.repeat(1024 * 1024);
    const ndjson = [{ phone_number: '+12015550631' }, { phone_number: '+12015550632', variables: { note: filler } }, { phone_number: '+12015550633' }];
    const lines = await finished(
      ((await (await upload(ndjson.map((l) => JSON.stringify(l)).join('\n'), 'application/x-ndjson', path)).json()) as { data: { id: number } }).data.id,
    );
    expect(lines).toMatchObject({
      status: 'completed',
      rows: 3,
      accepted: 2,
      invalid: 1,
      errors: [{ row: 2, message: 'The row must not be larger than 1 MiB.' }],
    });
    const csv = `phone_number,note\n+12015550634,a\n+12015550635,${filler}\n+12015550636,c\n`;
    const records = await finished(((await (await upload(csv, 'text/csv', path)).json()) as { data: { id: number } }).data.id);
    expect(records).toMatchObject({
      status: 'failed',
      rows: 2,
      accepted: 1,
      invalid: 1,
      errors: [{ row: 2, message: expect.stringContaining('Max Record Size') }],
    });
  });

  it('reads a file in the charset its Content-Type names (Excel’s Windows-1252), and refuses one it cannot read', async () => {
    const assistant = (await t.request('POST', '/api/user/assistant', { token, body: requiredAssistantSettings })).body.data.id;
    const into = (await t.request('POST', '/api/user/campaigns', { token, body: { name: 'Charsets', assistant_id: assistant } })).body.data.id;
    const path = `/api/user/campaigns/${into}/leads/import`;
    const cp1252 = Buffer.concat([
      Buffer.from('phone_number,name\r\n+12015550641,Jos'),
      Buffer.from([0xe9]),
      Buffer.from(' M'),
      Buffer.from([0xfc]),
      Buffer.from('ller\r\n'),
    ]);
    const id = ((await (await upload(cp1252, 'text/csv; charset=windows-1252', path)).json()) as { data: { id: number } }).data.id;
    expect(await finished(id)).toMatchObject({ status: 'completed', accepted: 1 });
    expect((await leadsOf(into))[0].variables).toEqual({ name: 'José Müller' });
    const unknown = await upload('phone_number\n+12015550642\n', 'text/csv; charset=klingon', path);
    expect([unknown.status, await unknown.json()]).toEqual([415, { message: 'The charset of the Content-Type header is not one this service can read.' }]);
  });

  it('dials imported leads of a campaign in progress as they land', async () => {
    const assistant = (await t.request('POST', '/api/user/assistant', { token, body: requiredAssistantSettings })).body.data.id;
    const open = { calling_hours: { start: '00:00', end: '24:00' }, calling_days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] };
    const running = (await t.request('POST', '/api/user/campaigns', { token, body: { name: 'Running', assistant_id: assistant, ...open } })).body.data.id;
    await t.request('POST', '/api/user/lead', { token, body: { campaign_id: running, phone_number: '+12015550700' } });
    expect((await t.request('POST', '/api/user/campaigns/update-status', { token, body: { campaign_id: running, action: 'start' } })).status).toBe(200);
    await upload('phone_number\n+12015550701\n+12015550702\n', 'text/csv', `/api/user/campaigns/${running}/leads/import`);
    const dialed = await eventually(
      async () => {
        const calls = (await t.request('GET', `/api/user/calls?campaign_id=${running}`, { token })).body.data as Array<{ client_phone_number: string }>;
        const numbers = calls.map((c) => c.client_phone_number);
        return numbers.includes('+12015550701') && numbers.includes('+12015550702') && numbers;
      },
      15_000,
      'the imported leads to be dialed',
    );
    expect(dialed).toEqual(expect.arrayContaining(['+12015550700', '+12015550701', '+12015550702']));
  });

  it('makes rows while the body is still arriving, and shows them in its progress', async () => {
    const rows = (from: number, count: number) => Array.from({ length: count }, (_, i) => `+1201${String(6_000_000 + from + i)}\n`).join('');
    const { send, answered } = streamed(`/api/user/campaigns/${campaign}/leads/import`);
    send(`phone_number\n${rows(0, 1200)}`);
    // The upload is still open: no answer yet, and the import shows its first batches done.
    const importing = await eventually(
      async () => {
        const list = (await t.request('GET', '/api/user/lead-imports', { token })).body;
        const running = list.data.find((i: { status: string; rows: number }) => i.status === 'running' && i.rows >= 500);
        return running;
      },
      15_000,
      'rows made while the upload runs',
    );
    send(rows(1200, 300));
    send(null);
    const answer = (await (await answered).json()) as { data: { id: number } };
    expect(answer.data.id).toBe(importing.id);
    expect(await finished(importing.id)).toMatchObject({ status: 'completed', rows: 1500, accepted: 1500 });
  });

  it('answers 202 for a body whose rows stopped being readable while it arrived, and keeps no file of a failed import', async () => {
    const assistant = (await t.request('POST', '/api/user/assistant', { token, body: requiredAssistantSettings })).body.data.id;
    const into = (await t.request('POST', '/api/user/campaigns', { token, body: { name: 'Bad early', assistant_id: assistant } })).body.data.id;
    const { send, answered } = streamed(`/api/user/campaigns/${into}/leads/import`);
    send('phone_number,note\n+12015550661,fine\n+12015550662,says a"b\n');
    let more = 0;
    const failed = await eventually(
      async () => {
        // csv-parse hands on what follows an unreadable record a chunk later: the body goes on arriving.
        send(`+1201${String(7_700_000 + more++)},after\n`);
        const list = (await t.request('GET', '/api/user/lead-imports', { token })).body.data;
        return list.find((i: { campaign_id: number; status: string }) => i.campaign_id === into && i.status === 'failed');
      },
      15_000,
      'the import to fail while its body arrives',
    );
    send(null);
    const answer = await answered;
    expect([answer.status, ((await answer.json()) as { data: { id: number } }).data.id]).toEqual([202, failed.id]);
    expect(await finished(failed.id)).toMatchObject({ status: 'failed', rows: 2, accepted: 1, invalid: 1 });
    // Neither this body nor the one failed whole on arrival is kept.
    const whole = (
      (await (await upload('phone_number\n"never closed\n', 'text/csv', `/api/user/campaigns/${into}/leads/import`)).json()) as { data: { id: number } }
    ).data.id;
    await finished(whole);
    // Removed once the end is recorded: a crash before that finds the body to end the import from.
    const kept = () => readdirSync(join(t.dataDir, 'imports')).filter((f) => [`${failed.id}.csv`, `${whole}.csv`].includes(f));
    await eventually(() => kept().length === 0, 5_000, 'the failed imports’ bodies to be removed');
  });

  it('puts an import’s end in its campaign’s history, with the reason a file that cannot be read failed', async () => {
    const assistant = (await t.request('POST', '/api/user/assistant', { token, body: requiredAssistantSettings })).body.data.id;
    const into = (await t.request('POST', '/api/user/campaigns', { token, body: { name: 'Trail', assistant_id: assistant } })).body.data.id;
    const path = `/api/user/campaigns/${into}/leads/import`;
    const ok = ((await (await upload('phone_number\n+12015550951\n', 'text/csv', path)).json()) as { data: { id: number } }).data.id;
    await finished(ok);
    // The header's quote is never closed: not one row can be read.
    const unreadable = ((await (await upload('"phone_number\n+12015550952\n', 'text/csv', path)).json()) as { data: { id: number } }).data.id;
    expect(await finished(unreadable)).toMatchObject({ status: 'failed', rows: 0, errors: [] });
    const trail = (await t.request('GET', `/api/user/campaigns/${into}/history?limit=100`, { token })).body.data as Array<{ type: string; data: object }>;
    expect(trail.filter((e) => e.type === 'LeadImportFinished').map((e) => e.data)).toEqual([
      { import_id: ok, campaign_id: into, status: 'completed', reason: null },
      { import_id: unreadable, campaign_id: into, status: 'failed', reason: expect.stringMatching(/^The file cannot be read: .*quote/i) },
    ]);
  });

  it('ends an import whose upload is cut short failed, keeping the rows made, and goes on serving', async () => {
    const assistant = (await t.request('POST', '/api/user/assistant', { token, body: requiredAssistantSettings })).body.data.id;
    const cut = (await t.request('POST', '/api/user/campaigns', { token, body: { name: 'Cut', assistant_id: assistant } })).body.data.id;
    const aborted = new AbortController();
    let send!: (text: string) => void;
    const body = new ReadableStream<Uint8Array>({ start: (controller) => void (send = (text) => controller.enqueue(new TextEncoder().encode(text))) });
    const answered = fetch(`${t.url}/api/user/campaigns/${cut}/leads/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
      body,
      duplex: 'half',
      signal: aborted.signal,
    } as RequestInit).catch((error: Error) => error);
    send(`phone_number\n${Array.from({ length: 700 }, (_, i) => `+1201${String(6_100_000 + i)}`).join('\n')}\n`);
    const running = await eventually(
      async () =>
        (await t.request('GET', '/api/user/lead-imports', { token })).body.data.find(
          (i: { campaign_id: number; rows: number }) => i.campaign_id === cut && i.rows >= 500,
        ),
      15_000,
      'rows made before the cut',
    );
    aborted.abort();
    expect(await answered).toMatchObject({ name: 'AbortError' });
    const ended = await finished(running.id);
    expect(ended).toMatchObject({ status: 'failed' });
    expect(ended.accepted).toBeGreaterThanOrEqual(500);
    expect((await t.request('GET', '/health')).status).toBe(200);
  });

  it('ends an import failed, not running for ever, at a row csv-parse cannot read: the rows before it made, that row refused with why', async () => {
    const assistant = (await t.request('POST', '/api/user/assistant', { token, body: requiredAssistantSettings })).body.data.id;
    for (const [bad, made] of [
      ['+12015550601\nsays a"quote,x\n+12015550602', 1], // a quote opening inside an unquoted field
      ['+12015550603\n"never closed\n+12015550604', 1],
    ] as const) {
      const into = (await t.request('POST', '/api/user/campaigns', { token, body: { name: 'Unreadable', assistant_id: assistant } })).body.data.id;
      const id = (
        (await (await upload(`phone_number,note\n${bad}\n`, 'text/csv', `/api/user/campaigns/${into}/leads/import`)).json()) as { data: { id: number } }
      ).data.id;
      const failed = await finished(id);
      expect(failed).toMatchObject({ status: 'failed', rows: made + 1, accepted: made, invalid: 1, finished_at: expect.any(String) });
      expect(failed.errors).toEqual([{ row: made + 1, message: expect.stringMatching(/^The file cannot be read from this row on: /) }]);
      expect(await leadsOf(into)).toHaveLength(made);
    }
  });

  it('answers the same import again for the same Idempotency-Key and file, refuses another file under it, and lists the imports newest first', async () => {
    const csv = 'phone_number\n+12015550401\n';
    const first = await upload(csv, 'text/csv', undefined, { 'idempotency-key': 'import-once' });
    const second = await upload(csv, 'text/csv', undefined, { 'idempotency-key': 'import-once' });
    const [a, b] = [(await first.json()) as { data: { id: number } }, (await second.json()) as { data: { id: number } }];
    expect(b.data.id).toBe(a.data.id);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    // Another file, or the same file as another type, under the key: another request (docs/api.md).
    for (const [body, type] of [
      ['phone_number\n+12015550402\n', 'text/csv'],
      [csv, 'application/x-ndjson'],
    ]) {
      const other = await upload(body, type, undefined, { 'idempotency-key': 'import-once' });
      expect([other.status, await other.json()]).toEqual([422, { message: 'Idempotency key reused with another request.' }]);
    }
    // The connection that carried a refused file still serves.
    expect((await upload(csv, 'text/csv', undefined, { 'idempotency-key': 'import-once' })).status).toBe(202);
    await finished(a.data.id);
    const list = (await t.request('GET', '/api/user/lead-imports', { token })).body;
    expect(list.data[0]).toMatchObject({ id: a.data.id, status: 'completed', accepted: 1 });
    expect(list.data.map((i: { id: number }) => i.id)).toEqual([...list.data.map((i: { id: number }) => i.id)].sort((x: number, y: number) => y - x));
  });

  it('refuses another content type, another user’s campaign and import, and a CSV body on other routes', async () => {
    const refused = { message: 'Content-Type header must be text/csv or application/x-ndjson.' };
    for (const [type, body] of [
      ['application/json', '{}'],
      // Not parsed as JSON first: the route's own refusal, not a malformed body's 400.
      ['application/json', 'phone_number\n+12015550101\n'],
      // Nor held to the 1 MiB of JSON bodies: the route's refusal, not 413.
      ['application/json', JSON.stringify({ a: 'x'.repeat(2 * 1024 * 1024) })],
      ['application/xml', '<a/>'],
      ['text/plain', 'phone_number\n'],
    ]) {
      const answer = await upload(body, type);
      expect([type, answer.status, await answer.json()]).toEqual([type, 415, refused]);
    }
    const untyped = await fetch(`${t.url}/api/user/campaigns/${campaign}/leads/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: new TextEncoder().encode('phone_number\n'),
    });
    expect([untyped.status, await untyped.json()]).toEqual([415, refused]);
    const xmlElsewhere = await fetch(`${t.url}/api/user/lead`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/xml' },
      body: '<a/>',
    });
    expect([xmlElsewhere.status, await xmlElsewhere.json()]).toEqual([415, { message: 'Content-Type header must be application/json.' }]);
    const nowhere = await fetch(`${t.url}/api/user/nowhere`, { method: 'POST', headers: { 'content-type': 'application/xml' }, body: '<a/>' });
    expect([nowhere.status, await nowhere.json()]).toEqual([404, { message: 'Not found.' }]);
    expect((await upload('phone_number\n', 'text/csv', '/api/user/campaigns/999999/leads/import')).status).toBe(404);
    const other = await t.createUser();
    const mine = ((await (await upload('phone_number\n+12015550501\n', 'text/csv')).json()) as { data: { id: number } }).data.id;
    expect((await t.request('GET', `/api/user/lead-imports/${mine}`, { token: other.token })).status).toBe(404);
    const elsewhere = await fetch(`${t.url}/api/user/lead`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
      body: 'a,b',
    });
    expect(elsewhere.status).toBe(415);
  });

  it('imports a file from the CLI beside the running service, with a progress bar on stderr and the summary on stdout', async () => {
    const file = join(t.dataDir, 'leads.ndjson');
    writeFileSync(file, [{ phone_number: '+12015550601' }, { phone_number: 'nope' }].map((l) => JSON.stringify(l)).join('\n'));
    const imported = await cli({ DATA_DIR: t.dataDir }, 'leads:import', '--campaign', String(campaign), '--user', String(userId), file);
    expect(imported.code).toBe(0);
    expect(imported.json).toMatchObject({
      campaign_id: campaign,
      status: 'completed',
      rows: 2,
      accepted: 1,
      invalid: 1,
      errors: [{ row: 2, message: expect.any(String) }],
    });
    expect(imported.stderr).toContain('Importing');
    expect((await t.request('GET', `/api/user/lead-imports/${imported.json.id}`, { token })).body).toMatchObject({ status: 'completed', accepted: 1 });
    const refused = await cli({ DATA_DIR: t.dataDir }, 'leads:import', '--campaign', String(campaign), '--user', String(userId), join(t.dataDir, 'leads.txt'));
    expect(refused.code).toBe(64);
  });

  it('imports a Windows-1252 file from the CLI with --charset, and refuses a charset it cannot read', async () => {
    const assistant = (await t.request('POST', '/api/user/assistant', { token, body: requiredAssistantSettings })).body.data.id;
    const into = (await t.request('POST', '/api/user/campaigns', { token, body: { name: 'CLI charset', assistant_id: assistant } })).body.data.id;
    const file = join(t.dataDir, 'excel.csv');
    writeFileSync(file, Buffer.concat([Buffer.from('phone_number,name\r\n+12015550651,Ren'), Buffer.from([0xe9]), Buffer.from('e\r\n')]));
    const args = ['leads:import', '--campaign', String(into), '--user', String(userId)];
    const imported = await cli({ DATA_DIR: t.dataDir }, ...args, '--charset', 'windows-1252', file);
    expect([imported.code, imported.json.accepted]).toEqual([0, 1]);
    expect((await leadsOf(into))[0].variables).toEqual({ name: 'Renée' });
    expect((await cli({ DATA_DIR: t.dataDir }, ...args, '--charset', 'klingon', file)).code).toBe(64);
  });

  it('exits 1 from the CLI when the import fails, its summary showing the end and the unreadable row', async () => {
    const file = join(t.dataDir, 'unreadable.csv');
    writeFileSync(file, 'phone_number,note\n+12015550621,fine\n+12015550622,says a"b\n+12015550623,lost\n');
    const imported = await cli({ DATA_DIR: t.dataDir }, 'leads:import', '--campaign', String(campaign), '--user', String(userId), file);
    expect(imported.code).toBe(1);
    expect(imported.json).toMatchObject({
      status: 'failed',
      rows: 2,
      accepted: 1,
      invalid: 1,
      finished_at: expect.any(String),
      reason: expect.stringMatching(/^The file cannot be read: .*Invalid Opening Quote/),
    });
    expect(imported.json.errors).toEqual([{ row: 2, message: expect.stringContaining('Invalid Opening Quote') }]);
    expect(imported.stderr).toContain('| 2/');
  });

  it('makes leads of two imports racing on one campaign without a number twice', async () => {
    const numbers = Array.from({ length: 300 }, (_, i) => `+1201${String(8_000_000 + i)}`);
    const csv = `phone_number\n${numbers.join('\n')}\n`;
    const assistant = (await t.request('POST', '/api/user/assistant', { token, body: requiredAssistantSettings })).body.data.id;
    const raced = (await t.request('POST', '/api/user/campaigns', { token, body: { name: 'Raced', assistant_id: assistant } })).body.data.id;
    const path = `/api/user/campaigns/${raced}/leads/import`;
    const [a, b] = await Promise.all([upload(csv, 'text/csv', path), upload(csv, 'text/csv', path)]);
    const ids = [((await a.json()) as { data: { id: number } }).data.id, ((await b.json()) as { data: { id: number } }).data.id];
    const [x, y] = await Promise.all(ids.map(finished));
    expect(x.accepted + y.accepted).toBe(300);
    expect(x.duplicates + y.duplicates).toBe(300);
    const imported = await leadsOf(raced);
    expect(imported).toHaveLength(300);
    expect(new Set(imported.map((l) => l.phone_number))).toEqual(new Set(numbers));
  });

  it('starts a batch’s rows fifty at a time, other work served between them (calls in progress hear no gap)', async () => {
    const numbers = Array.from({ length: 120 }, (_, i) => `+1201${String(8_100_000 + i)}`);
    const assistant = (await t.request('POST', '/api/user/assistant', { token, body: requiredAssistantSettings })).body.data.id;
    const into = (await t.request('POST', '/api/user/campaigns', { token, body: { name: 'Paced', assistant_id: assistant } })).body.data.id;
    // A counter other work moves: each row's start is stamped with it.
    let turn = 0;
    const ticking = setInterval(() => turn++, 0);
    const startedAt: number[] = [];
    const bus = t.app.get(CommandBus);
    const execute = bus.execute.bind(bus);
    const spy = jest.spyOn(bus, 'execute').mockImplementation((command) => {
      if (command instanceof CreateImportedLead) startedAt.push(turn);
      return execute(command);
    });
    try {
      const answered = await upload(`phone_number\n${numbers.join('\n')}\n`, 'text/csv', `/api/user/campaigns/${into}/leads/import`);
      expect((await finished(((await answered.json()) as { data: { id: number } }).data.id)).accepted).toBe(120);
    } finally {
      spy.mockRestore();
      clearInterval(ticking);
    }
    const groups = [...new Set(startedAt)].map((at) => startedAt.filter((n) => n === at).length);
    expect(groups).toEqual([50, 50, 20]);
  });
});

describe('lead import past IMPORT_MAX_BYTES', () => {
  let t: TestApp;
  afterAll(() => t.close());

  it('answers 413 and ends the import failed, keeping nothing of the file', async () => {
    t = await startTestApp({ IMPORT_MAX_BYTES: '100' });
    const { token } = await t.createUser();
    const assistant = (await t.request('POST', '/api/user/assistant', { token, body: requiredAssistantSettings })).body.data.id;
    const campaign = (await t.request('POST', '/api/user/campaigns', { token, body: { name: 'Small', assistant_id: assistant } })).body.data.id;
    const csv = `phone_number\n${Array.from({ length: 20 }, (_, i) => `+1201555${String(1000 + i)}`).join('\n')}\n`;
    const res = await fetch(`${t.url}/api/user/campaigns/${campaign}/leads/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
      body: csv,
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ message: 'The file must not be larger than 100 bytes.' });
    const [failed] = (await t.request('GET', '/api/user/lead-imports', { token })).body.data;
    expect(failed).toMatchObject({ status: 'failed', finished_at: expect.any(String) });
    expect(readdirSync(join(t.dataDir, 'imports'))).toEqual([]);
  });
});

describe('lead import bodies left by a stop', () => {
  it('removes at start the body of an import that ended before it was removed, and keeps one whose import is not known yet', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'import-bodies-'));
    let t = await startTestApp({}, { dataDir });
    try {
      const { token } = await t.createUser();
      const assistant = (await t.request('POST', '/api/user/assistant', { token, body: requiredAssistantSettings })).body.data.id;
      const campaign = (await t.request('POST', '/api/user/campaigns', { token, body: { name: 'Left', assistant_id: assistant } })).body.data.id;
      const res = await fetch(`${t.url}/api/user/campaigns/${campaign}/leads/import`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
        body: 'phone_number\n+12015550931\n',
      });
      const { id } = ((await res.json()) as { data: { id: number } }).data;
      await eventually(async () => (await t.request('GET', `/api/user/lead-imports/${id}`, { token })).body.status === 'completed', 15_000, 'the import');
      await t.close();
      // As a stop between recording the import's end and removing its body leaves it; beside it, a
      // body whose import is not known yet (one arriving in another process).
      writeFileSync(join(dataDir, 'imports', `${id}.csv`), 'phone_number\n+12015550931\n');
      writeFileSync(join(dataDir, 'imports', `${id + 1}.csv`), 'phone_number\n');
      t = await startTestApp({}, { dataDir });
      await eventually(() => !readdirSync(join(dataDir, 'imports')).includes(`${id}.csv`), 15_000, 'the ended import’s body to be removed');
      expect(readdirSync(join(dataDir, 'imports'))).toEqual([`${id + 1}.csv`]);
    } finally {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('lead import whose upload died with its process', () => {
  /**
   * What a process that died while storing an import's body leaves: the import started, two rows
   * reserved and not done, and in DATA_DIR the part of the file that arrived, if it is stored on
   * this host. Then the service is started again on it.
   */
  async function restartAfterUploadDied(dataDir: string, storedHere: string | null) {
    let t = await startTestApp({}, { dataDir });
    try {
      const { token, id: userId } = await t.createUser();
      const assistant = (await t.request('POST', '/api/user/assistant', { token, body: requiredAssistantSettings })).body.data.id;
      const campaign = (await t.request('POST', '/api/user/campaigns', { token, body: { name: 'Cut', assistant_id: assistant } })).body.data.id;
      const store = t.app.get<EventStore>(EVENT_STORE);
      const importId = await store.nextId('lead_import');
      const leadIds = [await store.nextId('lead'), await store.nextId('lead')];
      const run = (command: Parameters<typeof leadImportDecider.decide>[0]) =>
        t.app.get(CommandRunner).run(leadImportStream(importId), leadImportDecider, command);
      await run({ type: 'StartImport', importId, organisationId: userId, campaignId: campaign, format: 'csv', allowDuplicate: false });
      await run({ type: 'ReserveRows', importId, firstRow: 1, lastRow: 2, leadIds });
      if (storedHere !== null) {
        mkdirSync(join(dataDir, 'imports'), { recursive: true });
        writeFileSync(join(dataDir, 'imports', `${importId}.csv`), storedHere);
      }
      await t.close();
      t = await startTestApp({}, { dataDir });
      return { t, token, campaign, importId, leadIds };
    } catch (error) {
      await t.close();
      throw error;
    }
  }

  const leadsOf = async (t: TestApp, token: string, campaign: number) =>
    ((await t.request('GET', `/api/user/leads?campaign_id=${campaign}`, { token })).body as Array<{ id: number; phone_number: string }>).map((l) => [
      l.id,
      l.phone_number,
    ]);

  it('is ended at start as cut short, the batch in hand made on its ids and nothing after it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'import-cut-'));
    // The part that arrived ends with a line cut short.
    const { t, token, campaign, importId, leadIds } = await restartAfterUploadDied(dataDir, 'phone_number\n+12015550961\n+12015550962\n+12015550963\n+120155');
    try {
      expect(await importEnded(t, token, importId)).toMatchObject({ status: 'failed', rows: 2, accepted: 2, invalid: 0, errors: [] });
      expect(await leadsOf(t, token, campaign)).toEqual([
        [leadIds[0], '+12015550961'],
        [leadIds[1], '+12015550962'],
      ]);
      // The part stored is removed just after the import's end is recorded.
      await eventually(() => readdirSync(join(dataDir, 'imports')).length === 0, 5_000, 'the part stored to be removed');
    } finally {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('is ended failed, not retried for ever, when the part that arrived is not stored here', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'import-elsewhere-'));
    // Stored in another host's DATA_DIR.
    const { t, token, campaign, importId } = await restartAfterUploadDied(dataDir, null);
    try {
      expect(await importEnded(t, token, importId)).toMatchObject({ status: 'failed', rows: 0, accepted: 0, errors: [] });
      expect(await leadsOf(t, token, campaign)).toEqual([]);
    } finally {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
