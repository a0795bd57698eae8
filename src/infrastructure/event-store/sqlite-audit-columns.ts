import Database from 'better-sqlite3';
import { actorOf, organisationOf } from '../../shared/event-sourcing/actor';
import { organisationNamedByEvent, ownedByFirstEvent } from '../../shared/event-sourcing/unstamped-organisation';

/** The columns the audit trail reads an event by (`SqliteAuditTrail`). */
export interface AuditColumns {
  organisation_id: number | null;
  actor_type: string;
  actor_id: number | null;
}

/**
 * An event's organisation and actor as the audit trail files it (docs/teams.md): the command
 * runner's stamps; an event without one (stored before the stamp, or appended outside the runner)
 * under the organisation its data names, else, in a user's, an assistant's or an import's
 * stream, that of the stream's first event.
 */
export function auditColumnsOf(db: Database.Database) {
  const firstOfStream = db.prepare<[string], number | null>('SELECT organisation_id FROM events WHERE stream = ? AND revision = 0').pluck();
  return (stream: string, revision: number, metadata: Record<string, unknown>, data: unknown): AuditColumns => {
    const actor = actorOf(metadata);
    const organisation =
      organisationOf(metadata) ??
      organisationNamedByEvent(stream, revision, data) ??
      (revision > 0 && ownedByFirstEvent(stream) ? firstOfStream.get(stream) : null) ??
      null;
    return { organisation_id: organisation, actor_type: actor.type, actor_id: actor.id };
  };
}

/**
 * A log written before the columns gets them, each event filed as it would be appended now, in
 * the log's order: in one transaction that holds the write lock from the look at the columns on,
 * so a start stopped part-way leaves the log as it was, and two processes starting on it at once
 * upgrade it once.
 */
export function addAuditColumns(db: Database.Database): void {
  db.transaction(() => {
    const columns = db.prepare<[], { name: string }>('PRAGMA table_info(events)').all();
    if (columns.some((c) => c.name === 'organisation_id')) return;
    db.exec(`
      ALTER TABLE events ADD COLUMN organisation_id INTEGER;
      ALTER TABLE events ADD COLUMN actor_type TEXT;
      ALTER TABLE events ADD COLUMN actor_id INTEGER;
    `);
    fill(db);
  }).immediate();
  // One index: each costs an append about 8 µs (bench/README.md), the trail's filters are read
  // from it without the rows, and an organisation's trail is walked newest first along it.
  db.exec('CREATE INDEX IF NOT EXISTS events_audit ON events (organisation_id, position, type, actor_type, actor_id) WHERE organisation_id IS NOT NULL');
}

const PAGE = 1_000;

function fill(db: Database.Database): void {
  const page = db.prepare<[number, number], { position: number; stream: string; revision: number; metadata: string; data: string }>(
    'SELECT position, stream, revision, metadata, data FROM events WHERE position > ? ORDER BY position LIMIT ?',
  );
  const set = db.prepare('UPDATE events SET organisation_id = @organisation_id, actor_type = @actor_type, actor_id = @actor_id WHERE position = @position');
  const columnsOf = auditColumnsOf(db);
  for (let after = 0; ;) {
    const rows = page.all(after, PAGE);
    if (!rows.length) return;
    for (const { position, stream, revision, metadata, data } of rows)
      set.run({ ...columnsOf(stream, revision, JSON.parse(metadata), JSON.parse(data)), position });
    after = rows[rows.length - 1].position;
  }
}
