// What an imported row costs SQLite alone on this machine, the least any import can take: after an
// import, the rows it wrote (its `ReservationTaken` and `LeadCreated` events, its `rm_leads` row)
// are written again into fresh files made with the store's own tables and indexes, by plain
// statements in transactions of 500 rows, with nothing of the service around them (no parsing,
// validation, decisions or projections). An import cannot go faster than this figure.
'use strict';
const Database = require('better-sqlite3');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const BATCH = 500;

function open(file) {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  return db;
}

/** The same tables and indexes as `table` of `from`, made in `to`. */
function copySchema(from, to, table) {
  const ddl = from.prepare('SELECT sql FROM sqlite_master WHERE tbl_name = ? AND sql IS NOT NULL ORDER BY type DESC').pluck().all(table);
  to.exec(ddl.join(';\n'));
}

/** One row written by the import, as the template of the rows written here. */
function templates(events, read) {
  const event = (type) => events.prepare('SELECT * FROM events WHERE type = ? LIMIT 1').get(type);
  const reservation = event('ReservationTaken');
  const created = event('LeadCreated');
  const lead = read.prepare('SELECT * FROM rm_leads LIMIT 1').get();
  if (!reservation || !created || !lead) throw new Error('the import wrote no lead to copy');
  return { reservation, created, lead };
}

/** Writes `rows` rows as the import wrote them; answers µs a row for the events, the read model and both. `onWritten` sees the files before they go. */
function measure(dataDir, rows, onWritten = () => {}) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-floor-'));
  const source = { events: new Database(join(dataDir, 'events.db'), { readonly: true }), read: new Database(join(dataDir, 'read.db'), { readonly: true }) };
  const events = open(join(dir, 'events.db'));
  const read = open(join(dir, 'read.db'));
  try {
    copySchema(source.events, events, 'events');
    copySchema(source.read, read, 'rm_leads');
    const t = templates(source.events, source.read);
    const revision = events.prepare('SELECT max(revision) FROM events WHERE stream = ?').pluck();
    const columns = Object.keys(t.created).filter((c) => c !== 'position');
    const insertEvent = events.prepare(`INSERT INTO events (${columns.join(', ')}) VALUES (${columns.map((c) => '@' + c).join(', ')})`);
    const leadColumns = Object.keys(t.lead);
    const insertLead = read.prepare(`INSERT INTO rm_leads (${leadColumns.map((c) => `"${c}"`).join(', ')}) VALUES (${leadColumns.map(() => '?').join(', ')})`);
    const shapes = {
      reservation: JSON.parse(t.reservation.data),
      created: JSON.parse(t.created.data),
      doc: JSON.parse(t.lead.doc),
      view: JSON.parse(t.lead.view),
    };
    let eventsNs = 0n;
    let readNs = 0n;
    let id = 0;
    const append = (template, stream, data, now) => {
      revision.get(stream);
      insertEvent.run({
        ...template,
        id: String(++id).padStart(36, '0'),
        stream,
        revision: 0,
        data: JSON.stringify(data),
        metadata: JSON.stringify({ occurred_at: now }),
        occurred_at: now,
      });
    };
    const writeEvents = events.transaction((from, to) => {
      for (let i = from; i < to; i++) {
        const now = new Date().toISOString();
        const number = `+1${String(2_000_000_000 + i)}`;
        append(
          t.reservation,
          `lead_number-1_${Buffer.from(number).toString('base64url').padEnd(24, 'A').slice(0, 24)}`,
          { ...shapes.reservation, holder: i, at: now },
          now,
        );
        append(t.created, `lead-${i}`, { ...shapes.created, id: i, phone_number: number }, now);
      }
    });
    const writeLeads = read.transaction((from, to) => {
      for (let i = from; i < to; i++) {
        const number = `+1${String(2_000_000_000 + i)}`;
        const doc = { ...shapes.doc, id: i, phone_number: number };
        const view = { ...shapes.view, id: i, phone_number: number };
        const row = { ...t.lead, id: String(i), pos: i, doc: JSON.stringify(doc), view: JSON.stringify(view), 'doc.id': i, 'doc.phone_number': number };
        insertLead.run(leadColumns.map((c) => row[c]));
      }
    });
    for (let from = 0; from < rows; from += BATCH) {
      const to = Math.min(rows, from + BATCH);
      const a = process.hrtime.bigint();
      writeEvents(from, to);
      const b = process.hrtime.bigint();
      writeLeads(from, to);
      eventsNs += b - a;
      readNs += process.hrtime.bigint() - b;
    }
    onWritten(events, read);
    const us = (ns) => Number(ns) / 1000 / rows;
    return { events: us(eventsNs), read: us(readNs), both: us(eventsNs + readNs) };
  } finally {
    for (const db of [source.events, source.read, events, read]) db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

module.exports = { measure };
