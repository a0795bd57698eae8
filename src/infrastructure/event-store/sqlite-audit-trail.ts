import Database from 'better-sqlite3';
import { AuditEntry, AuditFilter, AuditPage, AuditTrail } from '../../shared/ports/audit-trail.port';
import { openSqlite } from '../sqlite/open-sqlite';
import { prepared } from '../sqlite/prepared';

type EntryRow = [
  position: number,
  organisationId: number,
  type: string,
  stream: string,
  actorType: AuditEntry['actor']['type'],
  actorId: number | null,
  occurredAt: string,
];

/**
 * docs/teams.md: the audit trail answered from the embedded log's own index of each event's
 * organisation and actor (sqlite-event-schema.ts), on a connection of its own: no copy of the
 * log is kept, and a rebuild of the read models has nothing of it to redo.
 */
export class SqliteAuditTrail implements AuditTrail {
  private readonly db: Database.Database;

  constructor(eventsFile: string) {
    this.db = openSqlite(eventsFile);
  }

  async page(filter: AuditFilter, skip: number, limit: number): Promise<AuditPage> {
    if (filter.types.length === 0) return { entries: [], total: 0 };
    const { where, params } = whereOf(filter);
    const rows = prepared(
      this.db,
      `SELECT position, organisation_id, type, stream, actor_type, actor_id, occurred_at FROM events ${where} ORDER BY position DESC LIMIT ? OFFSET ?`,
    )
      .raw()
      .all(...params, limit, skip) as EntryRow[];
    const total =
      (prepared(this.db, `SELECT count(*) FROM events ${where}`)
        .pluck()
        .get(...params) as number) ?? 0;
    return { entries: rows.map(toEntry), total };
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}

function whereOf(filter: AuditFilter): { where: string; params: Array<string | number> } {
  const clauses = ['organisation_id = ?', `type IN (${filter.types.map(() => '?').join(', ')})`];
  const params: Array<string | number> = [filter.organisationId, ...filter.types];
  const add = (clause: string, value: string | number | undefined) => {
    if (value === undefined) return;
    clauses.push(clause);
    params.push(value);
  };
  add('type = ?', filter.type);
  add('actor_type = ?', filter.actorType);
  add('actor_id = ?', filter.actorId);
  add('occurred_at >= ?', filter.from);
  add('occurred_at <= ?', filter.to);
  return { where: `WHERE ${clauses.join(' AND ')}`, params };
}

const toEntry = ([position, organisation_id, type, stream, actorType, actorId, occurred_at]: EntryRow): AuditEntry => ({
  position,
  organisation_id,
  type,
  stream,
  actor: { type: actorType, id: actorId },
  occurred_at,
});
