import Database from 'better-sqlite3';
import { limitClause } from '../sqlite/limit-clause';
import { openSqlite } from '../sqlite/open-sqlite';
import { prepared } from '../sqlite/prepared';
import { dataVersion, freshDataVersion } from '../sqlite/data-version';
import { EventEmitter } from 'node:events';
import { v7 as timeOrderedUuid } from 'uuid';
import { ConcurrencyError } from '../../shared/ports/event-store.errors';
import {
  AppendResult,
  EventHandler,
  EventStore,
  ExpectedRevision,
  NewEvent,
  RecordedEvent,
  SubscribeOptions,
  Subscription,
} from '../../shared/ports/event-store.port';
import { auditColumnsOf } from './sqlite-audit-columns';
import { pullSubscription } from './pull-subscription';
import { createEventTables } from './sqlite-event-schema';
import { SqliteGroupCommit } from './sqlite-group-commit';
import { EventRow, SELECT_EVENTS, toRecorded } from './sqlite-event-row';
import { SqliteRecentEvents } from './sqlite-recent-events';

export interface SqliteEventStoreOptions {
  /** How often to look for events appended by other processes sharing the file. */
  pollIntervalMs?: number;
}

/**
 * The embedded event store: one SQLite file in WAL mode. Appends are made in IMMEDIATE
 * transactions, so writers in several processes sharing the file are serialised by SQLite's
 * write lock and the (stream, revision) key; the writes of a turn of the event loop commit
 * together (`SqliteGroupCommit`).
 */
export class SqliteEventStore implements EventStore {
  private readonly db: Database.Database;
  private readonly signals = new EventEmitter();
  private pollTimer?: NodeJS.Timeout;
  private lastSeenHead = 0;
  private readonly pollIntervalMs: number;
  private readonly statements;
  private readonly appendWrite;
  private readonly group: SqliteGroupCommit;
  private readonly recent = new SqliteRecentEvents();
  /** The rows of the group being committed, in position order, and the commit counter read inside it. */
  private committing: EventRow[] = [];
  private versionInCommit = 0;

  constructor(file: string, options: SqliteEventStoreOptions = {}) {
    this.pollIntervalMs = options.pollIntervalMs ?? 50;
    this.signals.setMaxListeners(0);
    this.db = openSqlite(file);
    createEventTables(this.db);
    this.statements = {
      streamRevision: this.db.prepare<[string], { revision: number | null }>('SELECT max(revision) AS revision FROM events WHERE stream = ?'),
      insert: this.db.prepare(
        `INSERT INTO events (id, stream, revision, type, schema_version, data, metadata, occurred_at, correlation_id, organisation_id, actor_type, actor_id)
         VALUES (@id, @stream, @revision, @type, @schema_version, @data, @metadata, @occurred_at, @correlation_id, @organisation_id, @actor_type, @actor_id)`,
      ),
      readStream: this.db
        .prepare<[string, number, string], EventRow>(
          `${SELECT_EVENTS} WHERE stream = ? AND revision >= max(?, coalesce((SELECT revision FROM stream_starts WHERE stream = ?), 0)) ORDER BY revision`,
        )
        .raw(),
      truncateBefore: this.db.prepare<[string, number]>(
        'INSERT INTO stream_starts (stream, revision) VALUES (?, ?) ON CONFLICT (stream) DO UPDATE SET revision = max(revision, excluded.revision)',
      ),
      head: this.db.prepare<[], { head: number | null }>('SELECT max(position) AS head FROM events'),
      nextId: this.db.prepare<[string], { value: number }>(
        `INSERT INTO sequences (name, value) VALUES (?, 1)
         ON CONFLICT (name) DO UPDATE SET value = value + 1 RETURNING value`,
      ),
    };
    const auditColumns = auditColumnsOf(this.db);
    this.appendWrite = (stream: string, events: NewEvent[], expected: ExpectedRevision, rows: EventRow[]): AppendResult => {
      const current = this.statements.streamRevision.get(stream)?.revision ?? null;
      if (expected !== 'any') {
        const matches = expected === 'no_stream' ? current === null : current === expected;
        if (!matches) throw new ConcurrencyError(stream, expected, current ?? 'no_stream');
      }
      let revision = current ?? -1;
      let position = 0;
      const now = new Date().toISOString();
      for (const event of events) {
        revision += 1;
        const occurredAt = event.metadata?.occurred_at ?? now;
        const audit = auditColumns(stream, revision, event.metadata ?? {}, event.data);
        // Every field named, not a copy of `row` given more: V8 copies an object that gains
        // properties about twenty times slower (3 µs an event).
        const row = {
          // Time-ordered ids land at the end of the id index instead of on a random page of it.
          id: timeOrderedUuid(),
          stream,
          revision,
          type: event.type,
          schema_version: event.schemaVersion ?? 1,
          data: JSON.stringify(event.data ?? {}),
          metadata: JSON.stringify({ ...event.metadata, occurred_at: occurredAt }),
          occurred_at: occurredAt,
          correlation_id: event.metadata?.$correlationId ?? null,
          organisation_id: audit.organisation_id,
          actor_type: audit.actor_type,
          actor_id: audit.actor_id,
        };
        const info = this.statements.insert.run(row);
        position = Number(info.lastInsertRowid);
        rows.push([position, row.id, stream, revision, row.type, row.schema_version, row.data, row.metadata, occurredAt]);
      }
      return { revision, position };
    };
    this.group = new SqliteGroupCommit(
      this.db,
      (types) => this.committed(types),
      () => (this.versionInCommit = freshDataVersion(this.db)),
    );
  }

  append(stream: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) return Promise.reject(new Error('append needs at least one event'));
    const types = events.map((e) => e.type);
    const rows: EventRow[] = [];
    // One event is one INSERT, after a check that throws before it: a statement alone.
    return this.group.share(
      () => this.appendWrite(stream, events, expected, rows),
      types,
      events.length === 1,
      () => this.committing.push(...rows),
    );
  }

  /**
   * A group committed: its rows kept for the reads at the head, and the watchers told. Positions
   * not following the last this store knew of mean another process appended in between: then
   * any type may have come.
   */
  private committed(types: string[]): void {
    const rows = this.committing;
    this.committing = [];
    this.recent.committed(rows, this.versionInCommit);
    if (rows.length === 0) return;
    const othersBefore = rows[0][0] !== this.lastSeenHead + 1;
    // The poll looks for other processes' appends: this one's own are told here, once.
    this.lastSeenHead = rows[rows.length - 1][0];
    this.signals.emit('appended', othersBefore ? undefined : types);
  }

  async readStream(stream: string, fromRevision = 0): Promise<RecordedEvent[]> {
    return this.statements.readStream.all(stream, fromRevision, stream).map(toRecorded);
  }

  async readAll(afterPosition: number, maxCount: number, types?: readonly string[]): Promise<RecordedEvent[]> {
    if (types?.length === 0) return [];
    const recent = this.recent.after(afterPosition, maxCount, types && new Set(types), dataVersion(this.db));
    if (recent) return recent.map(toRecorded);
    const ofTypes = types ? ` AND type IN (${types.map(() => '?').join(', ')})` : '';
    const rows = this.read(`WHERE position > ?${ofTypes} ORDER BY position ${limitClause(maxCount)}`).all(afterPosition, ...(types ?? []));
    return (rows as EventRow[]).map(toRecorded);
  }

  async truncateBefore(stream: string, revision: number): Promise<void> {
    this.statements.truncateBefore.run(stream, revision);
  }

  async readAt(position: number): Promise<RecordedEvent | null> {
    const row = this.read('WHERE position = ?').get(position) as EventRow | undefined;
    return row ? toRecorded(row) : null;
  }

  async readCorrelated(correlationId: string, afterPosition: number, maxCount: number): Promise<RecordedEvent[]> {
    const rows = this.read(`WHERE correlation_id = ? AND position > ? ORDER BY position ${limitClause(maxCount)}`).all(correlationId, afterPosition);
    return (rows as EventRow[]).map(toRecorded);
  }

  private read(where: string): Database.Statement {
    return prepared(this.db, `${SELECT_EVENTS} ${where}`).raw();
  }

  async headPosition(): Promise<number> {
    return this.recent.head(dataVersion(this.db)) ?? this.statements.head.get()?.head ?? 0;
  }

  subscribeToAll(afterPosition: number, handler: EventHandler, options?: SubscribeOptions): Subscription {
    return pullSubscription(this, afterPosition, handler, options);
  }

  watch(listener: (types?: readonly string[]) => void): () => void {
    this.signals.on('appended', listener);
    this.startPolling();
    return () => {
      this.signals.off('appended', listener);
      if (this.signals.listenerCount('appended') === 0) this.stopPolling();
    };
  }

  nextId(sequence: string): Promise<number> {
    return this.group.share(() => this.statements.nextId.get(sequence)!.value, [], true);
  }

  async ping(): Promise<void> {
    this.statements.head.get();
  }

  async close(): Promise<void> {
    if (this.db.open) this.group.commit();
    this.recent.clear();
    this.stopPolling();
    this.signals.removeAllListeners();
    if (this.db.open) this.db.close();
  }

  /** Other processes append to the same file; noticing them needs a look at the head now and then. */
  private startPolling() {
    if (this.pollTimer) return;
    this.lastSeenHead = this.statements.head.get()?.head ?? 0;
    this.pollTimer = setInterval(() => {
      if (!this.db.open) return;
      const head = this.statements.head.get()?.head ?? 0;
      if (head !== this.lastSeenHead) {
        this.lastSeenHead = head;
        this.signals.emit('appended');
      }
    }, this.pollIntervalMs);
    this.pollTimer.unref();
  }

  private stopPolling() {
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = undefined;
  }
}
