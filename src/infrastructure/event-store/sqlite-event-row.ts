import { RecordedEvent } from '../../shared/ports/event-store.port';

/** A stored event as its columns, in `SELECT_EVENTS` order. */
export type EventRow = [
  position: number,
  id: string,
  stream: string,
  revision: number,
  type: string,
  schemaVersion: number,
  data: string,
  metadata: string,
  occurredAt: string,
];

/** Reads hand back each row as an array (`raw`): an object per row costs a rebuild dearly. */
export const SELECT_EVENTS = 'SELECT position, id, stream, revision, type, schema_version, data, metadata, occurred_at FROM events';

export function toRecorded([position, id, stream, revision, type, schemaVersion, data, metadata, occurredAt]: EventRow): RecordedEvent {
  return { id, stream, revision, position, type, schemaVersion, data: JSON.parse(data), metadata: JSON.parse(metadata), occurredAt };
}
