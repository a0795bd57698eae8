import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requiredAssistantSettings } from '../../src/testing/assistant.fixture';
import { Receiver } from '../support/receiver';
import { eventually, FakeProvider } from '../support/fake-provider';
import { cli } from '../support/processes';
import { startTestApp, TestApp } from '../support/test-app';

const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? filesUnder(join(dir, name)) : [join(dir, name)]));

const subject = '+12015550177';
/** The number in every spelling a byte search looks for: E.164, stream names' digits, national digits. */
const spellings = [subject, subject.slice(1), subject.slice(2)];
/** Values only the subject's records hold: variables, a contact's, what was said, recorded and judged, why they were listed, what the user's system answered. */
const values = [
  'Zelda-Quokkafield',
  'ward-seven-rooftop',
  'Yolanda-sister-of',
  'zelda-said-quokka',
  'rec-zelda-7781',
  'mood-zelda-bright',
  'zelda-asked-stop',
  'zelda-crm-note',
];
const SECRET = 'erasure-telephony-secret';

/** docs/privacy.md: an erasure by crypto-shredding, verified by what it leaves. */
describe('POST /api/user/privacy/erasures', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'erasure-'));
  // The generic HTTP runtime, on loopback: each call to the person ends with a transcript, a recording and an evaluation.
  const provider = new FakeProvider(SECRET, () => 'human');
  provider.lastDetails = (dial) =>
    dial.request.to === subject
      ? {
          transcript: 'AI: Hello. Customer: zelda-said-quokka',
          recording_url: 'https://rec.example.com/rec-zelda-7781.wav',
          evaluation: { mood: 'mood-zelda-bright' },
        }
      : {};
  const env: Record<string, string> = { DIAL_INTERVAL_MS: '20', DIALER: 'http', TELEPHONY_SECRET: SECRET };
  let t: TestApp;
  let token: string;
  let campaign: number;
  let waiting: number;
  let reportBefore: unknown;
  const ids: Record<string, number> = {};

  const report = async () => {
    const { generated_at: _at, ...counts } = (await t.request('GET', `/api/user/campaigns/${campaign}/report`, { token })).body;
    return counts;
  };
  const leadOf = async (id: number) =>
    (await t.request('GET', `/api/user/leads?campaign_id=${campaign}&per_page=100`, { token })).body.find((lead: { id: number }) => lead.id === id);
  const found = () =>
    filesUnder(dataDir).flatMap((file) => {
      const bytes = readFileSync(file);
      return [...spellings, ...values].filter((value) => bytes.includes(value)).map((value) => `${file.slice(dataDir.length)}: ${value}`);
    });

  // The user's system answers a delivery about the person (a call to them, their lead's end) with a note of its own about them.
  const about = (body: { call?: { client_phone_number?: string }; lead?: { phone_number?: string } }) =>
    body.call?.client_phone_number ?? body.lead?.phone_number;
  const receiver = new Receiver((request) => ({ status: 200, body: about(request.body) === subject ? { ok: true, note: values[7] } : { ok: true } }));

  beforeAll(async () => {
    const hooks = (await receiver.start()).url;
    env.DIALER_URL = await provider.start();
    t = await startTestApp(env, { dataDir });
    ({ token } = await t.createUser());
    // Its calls' ends are sent to the user's system: the delivery bodies name the person too.
    const assistant = (
      await t.request('POST', '/api/user/assistant', { token, body: { ...requiredAssistantSettings, is_webhook_active: true, webhook_url: `${hooks}/ended` } })
    ).body.data.id;
    const body = {
      name: 'Erasures',
      assistant_id: assistant,
      max_retries: 0,
      calling_hours: { start: '00:00', end: '24:00' },
      calling_days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
    };
    campaign = (await t.request('POST', '/api/user/campaigns', { token, body })).body.data.id;
    const lead = (body: object, headers: Record<string, string> = {}) =>
      t.request('POST', '/api/user/lead', { token, headers, body: { campaign_id: campaign, ...body } });
    ids.own = (
      await lead({ phone_number: subject, variables: { first_name: values[0], note: values[1] } }, { 'Idempotency-Key': 'erasure-own-lead' })
    ).body.data.id;
    ids.contact = (
      await lead({
        phone_number: '+12015550178',
        variables: { first_name: 'Keep' },
        secondary_contacts: [{ phone_number: subject, variables: { relation: values[2] } }],
      })
    ).body.data.id;
    ids.other = (await lead({ phone_number: '+12015550179', variables: { first_name: 'Other' } })).body.data.id;
    // A campaign not started yet, whose lead (and a contact of another) is the person: started after the erasure.
    waiting = (await t.request('POST', '/api/user/campaigns', { token, body: { ...body, name: 'Later' } })).body.data.id;
    await t.request('POST', '/api/user/lead', { token, body: { campaign_id: waiting, phone_number: subject } });
    await t.request('POST', '/api/user/lead', {
      token,
      body: { campaign_id: waiting, phone_number: '+12015550180', secondary_contacts: [{ phone_number: subject }] },
    });
    // An import into it whose row the CSV reader cannot read: refused with what it found and where, never the piece of the row it quotes.
    const imported = await fetch(`${t.url}/api/user/campaigns/${waiting}/leads/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv', accept: 'application/json' },
      body: `phone_number,first_name\n${subject}"q,Zed\n`,
    });
    ids.import = ((await imported.json()) as { data: { id: number } }).data.id;
    await eventually(
      async () => (await t.request('GET', `/api/user/lead-imports/${ids.import}`, { token })).body.status !== 'running',
      15_000,
      'the import to end',
    );
    await t.request('POST', '/api/user/campaigns/update-status', { token, body: { campaign_id: campaign, action: 'start' } });
    await eventually(
      async () => (await t.request('GET', `/api/user/campaigns/${campaign}`, { token })).body.status === 'completed',
      20_000,
      'campaign to complete',
    );
    await eventually(
      async () => {
        const held = (await t.request('GET', `/api/user/privacy/subjects/${encodeURIComponent(subject)}`, { token })).body;
        return held.webhook_deliveries.some((d: { status: string }) => d.status === 'delivered');
      },
      20_000,
      'a webhook delivery about the person',
    );
    // Listed by the user, with a reason about the person (the erasure lists the number again, as its own).
    const listed = await t.request('POST', '/api/user/dnc', { token, body: { phone_numbers: [subject], reason: `${values[6]} on the phone` } });
    expect(listed.status).toBe(200);
    reportBefore = await report();
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await receiver.stop();
    await provider.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('holds the values sealed in the log before: none of them is in any file but the read store', async () => {
    await t.close();
    const hits = found();
    // The search finds what is there: the read store holds every value in plain text until the erasure.
    const inReadStore = hits.filter((hit) => /^\/read\./.test(hit)).map((hit) => hit.slice(hit.indexOf(': ') + 2));
    expect([...new Set(inReadStore)].sort()).toEqual([...spellings, ...values].sort());
    expect(hits.filter((hit) => !/^\/read\./.test(hit))).toEqual([]);
    t = await startTestApp(env, { dataDir });
  }, 30_000);

  it('erases the number: 202 pending, then done; lists, exports, history, audit and the subject show [erased], counts stay', async () => {
    const before = (await t.request('GET', `/api/user/privacy/subjects/${encodeURIComponent(subject)}`, { token })).body;
    expect(before.import_rows).toEqual([]);
    const refused = (await t.request('GET', `/api/user/lead-imports/${ids.import}`, { token })).body;
    expect(refused.errors).toEqual([{ row: 1, message: 'The file cannot be read from this row on: Invalid Opening Quote at line 2' }]);
    const requested = await t.request('POST', '/api/user/privacy/erasures', { token, body: { phone_number: subject } });
    expect(requested.status).toBe(202);
    expect(requested.body).toMatchObject({ message: 'Erasure requested.', data: { status: 'pending', completed_at: null } });
    const id = requested.body.data.id;
    await eventually(async () => (await t.request('GET', `/api/user/privacy/erasures/${id}`, { token })).body.status === 'done', 20_000, 'erasure to be done');

    const own = await leadOf(ids.own);
    expect(own).toMatchObject({ phone_number: '[erased]', variables: { first_name: '[erased]', note: '[erased]' } });
    const contact = await leadOf(ids.contact);
    expect(contact).toMatchObject({ phone_number: '+12015550178', variables: { first_name: 'Keep' } });
    expect(contact.secondary_contacts[0]).toMatchObject({ phone_number: '[erased]', variables: { relation: '[erased]' } });
    expect((await leadOf(ids.other)).variables).toEqual({ first_name: 'Other' });

    const calls = (await t.request('GET', `/api/user/calls?campaign_id=${campaign}&per_page=100`, { token })).body.data;
    const erasedCalls = calls.filter((call: { client_phone_number: string }) => call.client_phone_number === '[erased]');
    expect(erasedCalls.length).toBeGreaterThan(0);
    for (const call of erasedCalls)
      expect(call).toMatchObject({ transcript: '[erased]', recording_url: '[erased]', evaluation: { mood: '[erased]' }, status: 'completed' });

    const everything = [
      await t.request('GET', `/api/user/leads?campaign_id=${campaign}&per_page=100`, { token }),
      await t.request('GET', '/api/user/leads/export', { token }),
      await t.request('GET', '/api/user/calls/export', { token }),
      await t.request('GET', `/api/user/campaigns/${campaign}/history?as_of=${encodeURIComponent(new Date().toISOString())}`, { token }),
      await t.request('GET', '/api/user/audit?per_page=100', { token }),
      await t.request('GET', '/api/user/dnc', { token }),
      await t.request('GET', '/api/user/webhook-deliveries?per_page=100', { token }),
      await t.request('GET', `/api/user/lead-imports/${ids.import}`, { token }),
      // The idempotent answer of the lead's creation, replayed.
      await t.request('POST', '/api/user/lead', {
        token,
        headers: { 'Idempotency-Key': 'erasure-own-lead' },
        body: { campaign_id: campaign, phone_number: subject, variables: { first_name: values[0], note: values[1] } },
      }),
    ];
    for (const res of everything) {
      const text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
      for (const value of [...spellings, ...values]) expect([res.status, value, text.includes(value)]).toEqual([res.status, value, false]);
    }
    // The subject route answers the number it is asked about, and nothing held on it.
    const held = (await t.request('GET', `/api/user/privacy/subjects/${encodeURIComponent(subject)}`, { token })).body;
    expect(held).toMatchObject({ leads: [], calls: [], webhook_deliveries: [], import_rows: [] });
    for (const value of values) expect(JSON.stringify(held)).not.toContain(value);
    expect(await report()).toEqual(reportBefore);
  }, 60_000);

  it('keeps the number unreachable: on the do-not-call list as a keyed hash, refused as a new lead', async () => {
    const dnc = (await t.request('GET', '/api/user/dnc', { token })).body.data;
    expect(dnc).toEqual([expect.objectContaining({ phone_number: '[erased]', source: 'erasure' })]);
    const refused = await t.request('POST', '/api/user/lead', { token, body: { campaign_id: campaign, phone_number: subject } });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.phone_number).toEqual(['This number asked not to be called.']);
    expect((await t.request('DELETE', `/api/user/dnc/${encodeURIComponent(subject)}`, { token })).status).toBe(409);
    // Never dialed again: a campaign holding the person as a lead and as a contact runs to its end without a call to them.
    const dialsBefore = provider.dials.filter((d) => d.request.to === subject).length;
    await t.request('POST', '/api/user/campaigns/update-status', { token, body: { campaign_id: waiting, action: 'start' } });
    await eventually(
      async () => (await t.request('GET', `/api/user/campaigns/${waiting}`, { token })).body.status === 'completed',
      20_000,
      'the later campaign to end',
    );
    expect(provider.dials.filter((d) => d.request.to === subject)).toHaveLength(dialsBefore);
    expect(provider.dials.some((d) => d.request.to === '+12015550180')).toBe(true);
  });

  it('leaves nothing in any file of the data directory, nor after a rebuild of every read model', async () => {
    await t.close();
    expect(found()).toEqual([]);
    const rebuilt = await cli({ DATA_DIR: dataDir }, 'projections:rebuild');
    expect(rebuilt.code).toBe(0);
    expect(found()).toEqual([]);
    t = await startTestApp(env, { dataDir });
    expect(await leadOf(ids.own)).toMatchObject({ phone_number: '[erased]', variables: { first_name: '[erased]' } });
    expect(await report()).toEqual(reportBefore);
  }, 90_000);

  it('is refused for a non-number (422), unknown to another organisation (404), and for admins and owners only (403)', async () => {
    expect((await t.request('POST', '/api/user/privacy/erasures', { token, body: { phone_number: 'nope' } })).status).toBe(422);
    const other = await t.createUser();
    expect((await t.request('GET', '/api/user/privacy/erasures/1', { token: other.token })).status).toBe(404);
    const editor = await t.request('POST', '/api/user/members', { token, body: { email: 'editor-erasure@example.com', role: 'editor' } });
    expect((await t.request('POST', '/api/user/privacy/erasures', { token: editor.body.data.token, body: { phone_number: '+12015550179' } })).status).toBe(403);
  });
});
