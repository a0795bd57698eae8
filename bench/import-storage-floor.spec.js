const Database = require('better-sqlite3');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { measure } = require('./import-storage-floor');

/** A data directory holding one imported row, in tables shaped as the store's (two indexes stand for its many). */
function importedStore() {
  const dir = mkdtempSync(join(tmpdir(), 'floor-spec-'));
  const events = new Database(join(dir, 'events.db'));
  events.exec(`CREATE TABLE events (position INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, stream TEXT NOT NULL, revision INTEGER NOT NULL,
    type TEXT NOT NULL, schema_version INTEGER NOT NULL, data TEXT NOT NULL, metadata TEXT NOT NULL, occurred_at TEXT NOT NULL, correlation_id TEXT, UNIQUE (stream, revision));
    CREATE INDEX events_correlation ON events (correlation_id, position) WHERE correlation_id IS NOT NULL`);
  const event = events.prepare('INSERT INTO events (id, stream, revision, type, schema_version, data, metadata, occurred_at) VALUES (?, ?, 0, ?, 1, ?, ?, ?)');
  event.run('a', 'lead_number-1_12012000000', 'ReservationTaken', '{"holder":1}', '{}', 'now');
  event.run('b', 'lead-1', 'LeadCreated', '{"id":1,"phone_number":"+12012000000"}', '{}', 'now');
  events.close();
  const read = new Database(join(dir, 'read.db'));
  read.exec(`CREATE TABLE rm_leads (id TEXT PRIMARY KEY, pos INTEGER NOT NULL, doc TEXT NOT NULL, view TEXT, "doc.id", "doc.phone_number");
    CREATE INDEX rm_leads__phone_number ON rm_leads ("doc.phone_number", "doc.id")`);
  read.prepare('INSERT INTO rm_leads VALUES (?, ?, ?, ?, ?, ?)').run('1', 1, '{"id":1,"phone_number":"+12012000000"}', '{"id":1}', 1, '+12012000000');
  read.close();
  return dir;
}

describe('import storage floor', () => {
  it("writes each row's two events and its lead, through the store's own indexes, and answers their cost", () => {
    const dir = importedStore();
    try {
      let seen;
      const cost = measure(dir, 1_200, (events, read) => {
        seen = {
          events: events.prepare('SELECT type, count(*) AS n FROM events GROUP BY type ORDER BY type').all(),
          streams: events.prepare('SELECT count(DISTINCT stream) FROM events').pluck().get(),
          leads: read.prepare('SELECT count(*) FROM rm_leads').pluck().get(),
          numbers: read.prepare('SELECT count(DISTINCT "doc.phone_number") FROM rm_leads').pluck().get(),
          indexes: read.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL").pluck().all(),
          docNumber: read.prepare("SELECT json_extract(doc, '$.phone_number') = \"doc.phone_number\" FROM rm_leads WHERE id = '7'").pluck().get(),
        };
      });
      expect(seen).toEqual({
        events: [
          { type: 'LeadCreated', n: 1_200 },
          { type: 'ReservationTaken', n: 1_200 },
        ],
        streams: 2_400,
        leads: 1_200,
        numbers: 1_200,
        indexes: ['rm_leads__phone_number'],
        docNumber: 1,
      });
      expect(cost.events).toBeGreaterThan(0);
      expect(cost.read).toBeGreaterThan(0);
      expect(cost.both).toBeCloseTo(cost.events + cost.read, 6);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
