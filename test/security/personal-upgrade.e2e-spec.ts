import Database from 'better-sqlite3';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { keyFileKeys } from '../../src/infrastructure/sealing/data-keys';
import { Sealer } from '../../src/shared/sealing/sealer';
import { SqliteEventStore } from '../../src/infrastructure/event-store/sqlite-event-store';
import { SqliteKeyStore } from '../../src/infrastructure/sealing/sqlite-key-store';
import { sign } from '../../src/shared/signature';
import { requiredAssistantSettings } from '../../src/testing/assistant.fixture';
import { allDayCampaign } from '../support/all-day-campaign';
import { openCall } from '../support/calls';
import { eventually } from '../support/fake-provider';
import { httpRuntimeEnv } from '../support/http-runtime';
import { cli } from '../support/processes';
import { Receiver } from '../support/receiver';
import { startTestApp } from '../support/test-app';

const primary = '+12015550161';
const contact = '+12015550162';
const listed = '+12015550163';
const values = ['Upgrade-Vera-Quill', 'Upgrade-aunt-Ida'];

/** Files of the event store (its log included) holding `text`. */
const inLog = (dir: string, text: string) => readdirSync(dir).filter((file) => file.startsWith('events.db') && readFileSync(join(dir, file)).includes(text));

/** `value` with each subject-sealed string opened, again while it was sealed twice. */
async function opened(value: unknown, sealer: Sealer): Promise<unknown> {
  if (typeof value === 'string' && /^sealed:v2:d[sr]_/.test(value)) return opened(JSON.parse((await sealer.openForSubject(value))!), sealer);
  if (Array.isArray(value)) return Promise.all(value.map((item) => opened(item, sealer)));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(await Promise.all(Object.entries(value).map(async ([k, v]) => [k, await opened(v, sealer)])));
  return value;
}

/** The key store's sealer, for a test that plays an earlier build's writes. */
async function storeSealer(dataDir: string): Promise<{ sealer: Sealer; close(): Promise<void> }> {
  const keys = new SqliteKeyStore(join(dataDir, 'keys.db'));
  const sealer = new Sealer(keys, keyFileKeys(dataDir, []).keys);
  await sealer.start();
  return { sealer, close: () => keys.close() };
}

/**
 * Turns an event store back into what the build before personal sealing wrote: every personal value
 * in plain text, no `subject` in the metadata, streams named by a number's digits, the upgrade not marked.
 */
async function asTheEarlierBuildWroteIt(dataDir: string, organisationId: number, campaignId: number): Promise<void> {
  const { sealer, close } = await storeSealer(dataDir);
  const events = new Database(join(dataDir, 'events.db'));
  const rows = events.prepare("SELECT position, data, metadata FROM events WHERE data LIKE '%sealed:v_:d%' OR metadata LIKE '%\"subject\"%'").all() as Array<{
    position: number;
    data: string;
    metadata: string;
  }>;
  for (const row of rows) {
    const { subject: _subject, ...metadata } = JSON.parse(row.metadata) as Record<string, unknown>;
    const data = await opened(JSON.parse(row.data), sealer);
    events.prepare('UPDATE events SET data = ?, metadata = ? WHERE position = ?').run(JSON.stringify(data), JSON.stringify(metadata), row.position);
  }
  const rename = events.prepare('UPDATE events SET stream = ? WHERE stream = ?');
  rename.run(`lead_number-${campaignId}_${primary.slice(1)}`, `lead_number-${campaignId}_${sealer.keyedHash(primary)}`);
  rename.run(`dnc_number-${organisationId}_${listed.slice(1)}`, `dnc_number-${organisationId}_${sealer.subjectKeyId(organisationId, listed)}`);
  events.prepare("DELETE FROM sequences WHERE name = 'upgrade:personal-sealed'").run();
  events.pragma('wal_checkpoint(TRUNCATE)');
  events.close();
  await close();
}

/** docs/privacy.md: a store written before personal values were sealed is sealed in place at the first start of this version. */
describe('the upgrade that seals the personal values of an earlier store', () => {
  it('leaves none of them in the log, keeps every one readable, and the numbers found by their new stream names', async () => {
    let t = await startTestApp({});
    const dataDir = t.dataDir;
    try {
      const { token, organisation_id: organisationId } = await t.createUser();
      const campaign = await allDayCampaign(t, token, { name: 'Upgrade' });
      const made = await t.request('POST', '/api/user/lead', {
        token,
        body: {
          campaign_id: campaign,
          phone_number: primary,
          variables: { first_name: values[0] },
          secondary_contacts: [{ phone_number: contact, variables: { relation: values[1] } }],
        },
      });
      expect(made.status).toBe(200);
      expect((await t.request('POST', '/api/user/dnc', { token, body: { phone_numbers: [listed] } })).status).toBe(200);
      await t.stop();
      await asTheEarlierBuildWroteIt(dataDir, organisationId, campaign);
      for (const text of [...values, primary, contact]) expect([text, inLog(dataDir, text).length > 0]).toEqual([text, true]);

      t = await startTestApp({}, { dataDir });
      for (const text of [...values, primary, contact, listed, primary.slice(1), listed.slice(1)]) expect([text, inLog(dataDir, text)]).toEqual([text, []]);
      const [lead] = (await t.request('GET', `/api/user/leads?campaign_id=${campaign}`, { token })).body;
      expect(lead).toMatchObject({
        phone_number: primary,
        variables: { first_name: values[0] },
        secondary_contacts: [{ phone_number: contact, variables: { relation: values[1] } }],
      });
      // The number's reservation and listing are found under their keyed names.
      const again = await t.request('POST', '/api/user/lead', { token, body: { campaign_id: campaign, phone_number: primary } });
      expect(again.status).toBe(422);
      expect((await t.request('DELETE', `/api/user/dnc/${encodeURIComponent(listed)}`, { token })).status).toBe(200);
      // And an erasure now reaches what was written before.
      const erasure = (await t.request('POST', '/api/user/privacy/erasures', { token, body: { phone_number: primary } })).body.data;
      await eventually(
        async () => (await t.request('GET', `/api/user/privacy/erasures/${erasure.id}`, { token })).body.status === 'done',
        10_000,
        'the erasure',
      );
      const [erased] = (await t.request('GET', `/api/user/leads?campaign_id=${campaign}`, { token })).body;
      expect(erased).toMatchObject({ phone_number: '[erased]', variables: { first_name: '[erased]' } });
    } finally {
      await t.close();
    }
  }, 60_000);

  it("masks at the first start the number an earlier build's record of a runtime's refusal named", async () => {
    let t = await startTestApp({});
    const dataDir = t.dataDir;
    const refused = '+12015550164';
    try {
      await t.stop();
      // As the build before the masking recorded Twilio's Geo Permissions refusal, its marker not set.
      const events = new SqliteEventStore(join(dataDir, 'events.db'));
      const reason = `dial refused: twilio answered 400: Account not authorized to call ${refused}. Perhaps you need to enable some international permissions`;
      const data = { call_id: 1, user_id: 1, campaign_id: 1, lead_id: 1, from: 'initiated', status: 'failed', reached: false, details: {}, reason };
      await events.append('call-1', [{ type: 'CallOutcomeRecorded', data }], 'no_stream');
      await events.close();
      const marked = new Database(join(dataDir, 'events.db'));
      marked.prepare("DELETE FROM sequences WHERE name = 'upgrade:refusals-masked'").run();
      marked.close();
      expect(inLog(dataDir, refused.slice(1))).not.toEqual([]);

      t = await startTestApp({}, { dataDir });
      for (const spelling of [refused, refused.slice(1), refused.slice(2)]) expect([spelling, inLog(dataDir, spelling)]).toEqual([spelling, []]);
    } finally {
      await t.close();
    }
  }, 60_000);

  it("seals at the first start a do-not-call listing's reason an earlier build wrote in plain text", async () => {
    let t = await startTestApp({});
    const dataDir = t.dataDir;
    const reason = 'Upgrade-Ida-asked-to-stop';
    try {
      const { token } = await t.createUser();
      expect((await t.request('POST', '/api/user/dnc', { token, body: { phone_numbers: [listed], reason } })).status).toBe(200);
      await t.stop();
      // As the build before recorded it: the reason in plain text, its upgrade not marked.
      const events = new Database(join(dataDir, 'events.db'));
      events.prepare("UPDATE events SET data = json_set(data, '$.reason', ?) WHERE type = 'NumbersAddedToDoNotCall'").run(reason);
      events.prepare("DELETE FROM sequences WHERE name = 'upgrade:listing-reasons-sealed'").run();
      events.pragma('wal_checkpoint(TRUNCATE)');
      events.close();
      expect(inLog(dataDir, reason)).not.toEqual([]);

      t = await startTestApp({}, { dataDir });
      expect(inLog(dataDir, reason)).toEqual([]);
      const [entry] = (await t.request('GET', '/api/user/dnc', { token })).body.data;
      expect(entry).toMatchObject({ phone_number: listed, reason });
    } finally {
      await t.close();
    }
  }, 60_000);

  it("seals at the first start what a user's system answered about a person, written in plain text by an earlier build", async () => {
    const SECRET = 'upgrade-telephony-secret';
    const note = 'Upgrade-crm-note-on-Vera';
    const receiver = await new Receiver(() => ({ status: 200, body: { ok: true, note } })).start();
    const env = httpRuntimeEnv(SECRET);
    let t = await startTestApp(env);
    const dataDir = t.dataDir;
    try {
      const user = await t.createUser();
      const settings = { ...requiredAssistantSettings, is_webhook_active: true, webhook_url: `${receiver.url}/ended` };
      const assistant = (await t.request('POST', '/api/user/assistant', { token: user.token, body: settings })).body.data.id;
      const id = await openCall(t.app, { user_id: user.id, assistant_id: assistant, client_phone_number: primary });
      const ended = JSON.stringify({ status: 'completed', answered_by: 'human', duration: 5 });
      await t.request('POST', `/api/telephony/calls/${id}/events`, { body: ended, headers: { 'x-signature': sign(ended, SECRET) } });
      const answered = async () => (await t.request('GET', `/api/user/calls/${id}`, { token: user.token })).body.webhook_response?.body;
      await eventually(async () => (await answered())?.note === note, 10_000, 'the answer recorded');
      await t.stop();
      // As the build before recorded it: the delivery's stream about no one, the answer in plain text, its upgrade not marked.
      const { sealer, close } = await storeSealer(dataDir);
      const events = new Database(join(dataDir, 'events.db'));
      const rows = events.prepare("SELECT position, type, data, metadata FROM events WHERE stream GLOB 'webhook-*'").all() as Array<Record<string, string>>;
      for (const row of rows) {
        const { subject: _subject, ...metadata } = JSON.parse(row.metadata) as Record<string, unknown>;
        const data = JSON.parse(row.data) as { body?: unknown };
        if (row.type === 'WebhookAttemptFinished') data.body = await opened(data.body, sealer);
        events.prepare('UPDATE events SET data = ?, metadata = ? WHERE position = ?').run(JSON.stringify(data), JSON.stringify(metadata), row.position);
      }
      events.prepare("DELETE FROM sequences WHERE name = 'upgrade:webhook-answers-sealed'").run();
      events.pragma('wal_checkpoint(TRUNCATE)');
      events.close();
      await close();
      expect(inLog(dataDir, note)).not.toEqual([]);

      t = await startTestApp(env, { dataDir });
      expect(inLog(dataDir, note)).toEqual([]);
      await t.stop();
      // Read again from the sealed log, the answer is the same.
      expect((await cli({ ...env, DATA_DIR: dataDir }, 'projections:rebuild', '--projection', 'calls')).code).toBe(0);
      t = await startTestApp(env, { dataDir });
      expect(await answered()).toEqual({ ok: true, note });
    } finally {
      await t.close();
      await receiver.stop();
    }
  }, 60_000);
});
