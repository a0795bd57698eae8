// Bulk data for the benchmark, written through the event store port exactly as the service writes it.
const Database = require('better-sqlite3');
const { v7: timeOrderedUuid } = require('uuid');
const { join } = require('node:path');
const { SqliteEventStore } = require('../dist/infrastructure/event-store/sqlite-event-store');
const { auditColumnsOf } = require('../dist/infrastructure/event-store/sqlite-audit-columns');
const { SqliteKeyStore } = require('../dist/infrastructure/sealing/sqlite-key-store');
const { KEYS_FILE } = require('../dist/infrastructure/sealing/open-sealer');
const { keyFileKeys } = require('../dist/infrastructure/sealing/data-keys');
const { Sealer } = require('../dist/shared/sealing/sealer');
const { withPersonalSealed } = require('../dist/shared/sealing/personal-fields');
const { correlationIdOf } = require('../dist/shared/event-sourcing/correlation');
// The events' field declarations (which values are personal) load with their features.
require('../dist/leads/lead.events');
require('../dist/calls/call.events');

const TERMINAL = ['completed', 'completed', 'ended_by_customer', 'no-answer', 'busy', 'failed'];
const TOPICS = ['billing', 'booking', 'cancel', 'other'];

const { toE164 } = require('../dist/shared/phone');
const exchanges = new Map();
/** Area codes of the primary numbers and of the secondary contacts, per loader prefix. */
const AREAS = { 3: [212, 718], 4: [415, 650], 5: [305, 786] };

/** The i-th valid North American number of an area code: only exchanges the phone library accepts. */
function phone(i, area = 201) {
  if (!exchanges.has(area)) {
    const valid = [];
    for (let e = 200; e <= 999; e++) if (toE164(`+1${area}${e}4567`) && toE164(`+1${area}${e}0100`)) valid.push(e);
    if (!valid.length) throw new Error(`no valid numbers in area code ${area}`);
    exchanges.set(area, valid);
  }
  const valid = exchanges.get(area);
  const k = i % (valid.length * 10_000);
  return `+1${area}${valid[Math.floor(k / 10_000)]}${String(k % 10_000).padStart(4, '0')}`;
}

/**
 * Writes new streams as the service writes them (same rows, same sequences; each personal value
 * sealed under its person's key in DATA_DIR's key store, each event stamped with its organisation
 * and subject, as the command runner does: docs/privacy.md), but many per transaction: loading a
 * million leads one append at a time would take many minutes. Opened with `BulkWriter.open`.
 */
class BulkWriter {
  static async open(dataDir) {
    const problems = [];
    const { keys } = keyFileKeys(dataDir, problems);
    if (problems.length) throw new Error(problems.join('; '));
    const keyStore = new SqliteKeyStore(join(dataDir, KEYS_FILE));
    const sealer = new Sealer(keyStore, keys);
    await sealer.start();
    return new BulkWriter(dataDir, keyStore, sealer);
  }

  constructor(dataDir, keyStore, sealer) {
    const file = join(dataDir, 'events.db');
    new SqliteEventStore(file).close(); // creates or upgrades the schema
    this.keyStore = keyStore;
    this.sealer = sealer;
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.insert = this.db.prepare(
      `INSERT INTO events (id, stream, revision, type, schema_version, data, metadata, occurred_at, correlation_id, organisation_id, actor_type, actor_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.auditColumns = auditColumnsOf(this.db);
    this.sequence = this.db.prepare('INSERT INTO sequences (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value');
    this.current = this.db.prepare('SELECT value FROM sequences WHERE name = ?');
    this.ids = new Map();
    this.pending = 0;
    /** Streams being sealed: a thousand at a time, so their new keys share the key store's transactions. */
    this.sealing = [];
    this.db.exec('BEGIN');
  }

  nextId(name) {
    if (!this.ids.has(name)) this.ids.set(name, this.current.get(name)?.value ?? 0);
    const id = this.ids.get(name) + 1;
    this.ids.set(name, id);
    return id;
  }

  /** A new stream of events of one organisation (their `user_id`); resolves at once but every thousandth. */
  async append(stream, events, at) {
    this.sealing.push(this.write(stream, events, at));
    if (this.sealing.length >= 1000) await Promise.all(this.sealing.splice(0));
  }

  async write(stream, events, at) {
    const organisation = events[0].data.user_id;
    let subject;
    const rows = [];
    for (const e of events) {
      const sealed = await withPersonalSealed(e.type, e.data, organisation, subject, this.sealer, new Date(at));
      subject ??= sealed.subject;
      rows.push({ e, data: sealed.data, subject: sealed.subject });
    }
    rows.forEach(({ e, data, subject: about }, revision) => {
      const correlation = correlationIdOf(e) ?? null;
      const metadata = {
        occurred_at: at,
        organisation_id: organisation,
        ...(about ? { subject: about } : {}),
        ...(correlation ? { $correlationId: correlation } : {}),
      };
      const audit = this.auditColumns(stream, revision, metadata, data);
      this.insert.run(
        timeOrderedUuid(),
        stream,
        revision,
        e.type,
        e.schemaVersion,
        JSON.stringify(data),
        JSON.stringify(metadata),
        at,
        correlation,
        audit.organisation_id,
        audit.actor_type,
        audit.actor_id,
      );
    });
    if (++this.pending % 10_000 === 0) this.commit(true);
  }

  commit(again = false) {
    for (const [name, value] of this.ids) this.sequence.run(name, value);
    this.db.exec('COMMIT');
    if (again) this.db.exec('BEGIN');
  }

  async close() {
    await Promise.all(this.sealing.splice(0));
    this.commit();
    this.db.close();
    await this.keyStore.close();
  }
}

/** `count` leads in a campaign, each with one secondary contact. */
async function loadLeads(dataDir, { userId, campaignId, count, prefix = 3 }) {
  const store = await BulkWriter.open(dataDir);
  const at = new Date().toISOString();
  for (let i = 0; i < count; i++) {
    const id = store.nextId('lead');
    const contact = store.nextId('secondary_contact');
    await store.append(
      `lead-${id}`,
      [
        {
          type: 'LeadCreated',
          schemaVersion: 1,
          data: {
            lead_id: id,
            user_id: userId,
            campaign_id: campaignId,
            phone_number: phone(i, AREAS[prefix][0]),
            variables: { customer_name: `Lead ${i}` },
            secondary_contacts: [{ id: contact, phone_number: phone(i, AREAS[prefix][1]), variables: {} }],
          },
        },
      ],
      at,
    );
  }
  await store.close();
}

/** `count` finished calls spread over 30 days, mixed statuses and types. */
async function loadCalls(dataDir, { userId, assistantId, campaignId, count }) {
  const store = await BulkWriter.open(dataDir);
  const start = Date.parse('2025-01-01T00:00:00Z');
  for (let i = 0; i < count; i++) {
    const id = store.nextId('call');
    const at = new Date(start + Math.floor((i / count) * 30 * 86_400_000)).toISOString();
    const status = TERMINAL[i % TERMINAL.length];
    const type = i % 10 === 0 ? 'inbound' : 'outbound';
    const spec = {
      user_id: userId,
      assistant_id: assistantId,
      assistant_name: 'Bench',
      campaign_id: type === 'inbound' ? null : campaignId,
      campaign_name: type === 'inbound' ? null : 'Bench',
      lead_id: null,
      secondary_contact_id: null,
      type,
      assistant_phone_number: null,
      client_phone_number: phone(i),
      variables: {},
      record: true,
      max_duration_seconds: 600,
      // docs/reports.md: the post-call fields the campaign report counts.
      outcome_fields: ['booked', 'topic'],
    };
    const reached = status === 'completed' || status === 'ended_by_customer';
    await store.append(
      `call-${id}`,
      [
        { type: 'CallInitiated', schemaVersion: 1, data: { call_id: id, ...spec } },
        {
          type: 'CallOutcomeRecorded',
          schemaVersion: 2,
          data: {
            call_id: id,
            user_id: userId,
            campaign_id: spec.campaign_id,
            lead_id: null,
            from: 'initiated',
            status,
            reached,
            details: {
              answered_by: 'human',
              duration: 30,
              ...(reached ? { total_cost: 0.05, variables: { booked: i % 3 === 0, topic: TOPICS[i % TOPICS.length] } } : {}),
            },
          },
        },
      ],
      at,
    );
  }
  await store.close();
}

/** The body of an assistant as the bench creates it through the API. */
function assistantBody(name) {
  return {
    assistant_name: name,
    voice_id: 1,
    language: 'English',
    llm_model: 'gpt-4o',
    calls_direction: 'make',
    engine_type: 'pipeline',
    timezone: 'UTC',
    initial_message: 'Hi',
    system_prompt: 'Be brief.',
  };
}

/** A campaign's settings for dialing at any hour of any day, 100 calls at a time, retried at once. */
function dialingSettings(assistantId) {
  const everyDay = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
  return {
    assistant_id: assistantId,
    max_concurrent_calls: 100,
    max_retries: 2,
    retry_delay_seconds: 0,
    calling_hours: { start: '00:00', end: '24:00' },
    calling_days: everyDay,
  };
}

module.exports = { BulkWriter, loadLeads, loadCalls, phone, assistantBody, dialingSettings };
