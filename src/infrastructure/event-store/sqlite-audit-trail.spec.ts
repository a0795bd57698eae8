import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { auditTrailContract } from '../../testing/contracts/audit-trail.contract';
import { madeInTempDirForEachTest } from '../../testing/temp-dir';
import { SqliteAuditTrail } from './sqlite-audit-trail';
import { SqliteEventStore } from './sqlite-event-store';

const TEMP = 'audit-trail-';

auditTrailContract('SQLite (the log its own index)', async () => {
  const dir = mkdtempSync(join(tmpdir(), TEMP));
  const events = new SqliteEventStore(join(dir, 'events.db'));
  const trail = new SqliteAuditTrail(join(dir, 'events.db'));
  return {
    events,
    trail,
    settled: async () => undefined,
    close: async () => {
      await trail.close();
      await events.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

/** The events table as builds before the trail's columns wrote it. */
const EARLIER_EVENTS_TABLE = `
  CREATE TABLE events (
    position INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, stream TEXT NOT NULL, revision INTEGER NOT NULL,
    type TEXT NOT NULL, schema_version INTEGER NOT NULL, data TEXT NOT NULL, metadata TEXT NOT NULL, occurred_at TEXT NOT NULL,
    correlation_id TEXT, UNIQUE (stream, revision)
  )`;

describe('SQLite audit trail over a log written before its columns (docs/teams.md)', () => {
  const made = madeInTempDirForEachTest(
    TEMP,
    async () => ({}),
    async () => undefined,
  );
  const AT = '2025-01-01T00:00:00.000Z';

  it('files each earlier event as it would be appended now: by its stamp, else by what its data or its stream’s first event names', async () => {
    const file = join(made().dir, 'events.db');
    const earlier = new Database(file);
    earlier.exec(EARLIER_EVENTS_TABLE);
    const insert = earlier.prepare(
      'INSERT INTO events (id, stream, revision, type, schema_version, data, metadata, occurred_at) VALUES (?, ?, ?, ?, 1, ?, ?, ?)',
    );
    const rows: Array<[string, number, string, object, object]> = [
      ['campaign-4', 0, 'CampaignCreated', { campaign_id: 4, user_id: 7 }, { organisation_id: 9, actor: { type: 'user', id: 3 } }],
      ['user-3', 0, 'UserRegistered', { user_id: 3, email: 'm@b.c' }, {}],
      ['user-3', 1, 'AccessTokenIssued', { user_id: 3 }, {}],
      ['lead_import-77', 3, 'LeadImportUploaded', { import_id: 77 }, {}],
      ['organisation-8', 0, 'OrganisationFounded', { organisation_id: 8, owner_user_id: 8 }, { actor: 'not an actor' }],
    ];
    rows.forEach(([stream, revision, type, data, metadata], i) =>
      insert.run(`e${i}`, stream, revision, type, JSON.stringify(data), JSON.stringify(metadata), AT),
    );
    earlier.close();

    const events = new SqliteEventStore(file);
    const trail = new SqliteAuditTrail(file);
    try {
      const types = rows.map(([, , type]) => type);
      const filed = async (organisationId: number) =>
        (await trail.page({ organisationId, types }, 0, 50)).entries.map((e) => [e.position, e.type, e.actor]).reverse();
      const system = { type: 'system', id: null };
      expect(await filed(9)).toEqual([[1, 'CampaignCreated', { type: 'user', id: 3 }]]);
      expect(await filed(3)).toEqual([
        [2, 'UserRegistered', system],
        [3, 'AccessTokenIssued', system],
      ]);
      expect(await filed(8)).toEqual([[5, 'OrganisationFounded', system]]);
      // Its stream's first event was never stored: no organisation to file it under.
      expect((await trail.page({ organisationId: 77, types }, 0, 50)).total).toBe(0);
      // New events are filed as they are appended, beside the filled ones.
      await events.append('campaign-4', [{ type: 'CampaignStarted', data: {}, metadata: { organisation_id: 9 } }], 0);
      expect((await trail.page({ organisationId: 9, types: [...types, 'CampaignStarted'] }, 0, 50)).total).toBe(2);
    } finally {
      await trail.close();
      await events.close();
    }
  });

  it('leaves an earlier log as it was when its upgrade stops part-way, and fills it whole at the next start', async () => {
    const file = join(made().dir, 'events.db');
    const earlier = new Database(file);
    earlier.exec(EARLIER_EVENTS_TABLE);
    const insert = earlier.prepare(
      'INSERT INTO events (id, stream, revision, type, schema_version, data, metadata, occurred_at) VALUES (?, ?, ?, ?, 1, ?, ?, ?)',
    );
    insert.run('e1', 'campaign-4', 0, 'CampaignCreated', '{}', JSON.stringify({ organisation_id: 9 }), AT);
    // A row the upgrade cannot read stops it after the first row was filled.
    insert.run('e2', 'campaign-4', 1, 'CampaignStarted', 'not json', JSON.stringify({ organisation_id: 9 }), AT);
    earlier.close();

    expect(() => new SqliteEventStore(file)).toThrow();
    const stopped = new Database(file);
    const columns = stopped.prepare('PRAGMA table_info(events)').all() as Array<{ name: string }>;
    expect(columns.map((c) => c.name)).not.toContain('organisation_id');
    stopped.prepare("UPDATE events SET data = '{}' WHERE id = 'e2'").run();
    stopped.close();

    const events = new SqliteEventStore(file);
    const trail = new SqliteAuditTrail(file);
    try {
      expect((await trail.page({ organisationId: 9, types: ['CampaignCreated', 'CampaignStarted'] }, 0, 50)).total).toBe(2);
    } finally {
      await trail.close();
      await events.close();
    }
  });

  it('walks the organisation’s index for a page (reading only its rows) and counts its total from the index alone', () => {
    const file = join(made().dir, 'events.db');
    new SqliteEventStore(file).close();
    const db = new Database(file);
    const plan = (sql: string) =>
      db
        .prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .all([])
        .map((row) => (row as { detail: string }).detail)
        .join('; ');
    try {
      const where = "WHERE organisation_id = 1 AND type IN ('A', 'B') AND actor_type = 'user' AND actor_id = 5";
      expect(plan(`SELECT position, type, actor_type, actor_id FROM events ${where} ORDER BY position DESC LIMIT 50`)).toMatch(
        /USING COVERING INDEX events_audit/,
      );
      expect(plan(`SELECT count(*) FROM events ${where}`)).toMatch(/USING COVERING INDEX events_audit/);
    } finally {
      db.close();
    }
  });
});
