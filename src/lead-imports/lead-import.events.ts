import { DomainEvent } from '../shared/event-sourcing/decider';
import { declareFields } from '../shared/event-sourcing/event-fields';

/** One stream per import (docs/imports.md). */
export const leadImportStream = (importId: number) => `lead_import-${importId}`;

/** `text`: one phone number a line (do-not-call imports only). */
export type ImportFormat = 'csv' | 'ndjson' | 'text';
export type ImportStatus = 'running' | 'completed' | 'failed';

/** A refused row: its 1-based number and the message a single create would have answered. */
export interface RowError {
  row: number;
  message: string;
}

/** The errors an import keeps (docs/imports.md: the first 1,000). */
export const KEPT_ERRORS = 1000;

/** `campaign_id` null: the rows are numbers for the user's do-not-call list (docs/imports.md), not leads. */
export type LeadImportStarted = DomainEvent<
  'LeadImportStarted',
  { import_id: number; user_id: number; campaign_id: number | null; format: ImportFormat; allow_duplicate: boolean }
>;
/** The body is stored whole (`bytes` of it): the import may go on from it after a restart. */
export type LeadImportUploaded = DomainEvent<'LeadImportUploaded', { import_id: number; bytes: number }>;
/**
 * Lead ids set aside for the rows `first_row`..`last_row` before any is created: the row at
 * `first_row + i` becomes lead `lead_ids[i]`, so rows made again after a crash find their lead.
 */
export type LeadImportRowsReserved = DomainEvent<'LeadImportRowsReserved', { import_id: number; first_row: number; last_row: number; lead_ids: number[] }>;
/** Rows up to `last_row` are done: how many of this batch were taken, duplicates or invalid, and their errors (within the kept ones). */
export type LeadImportRowsDone = DomainEvent<
  'LeadImportRowsDone',
  { import_id: number; last_row: number; accepted: number; duplicates: number; invalid: number; errors: RowError[] }
>;
/** `campaign_id` puts the end, and a failure's reason, in the campaign's trail; events recorded before it have none. */
export type LeadImportFinished = DomainEvent<
  'LeadImportFinished',
  { import_id: number; campaign_id?: number; status: 'completed' | 'failed'; reason: string | null }
>;

/** Why an import ended whose body stopped arriving: the client went away, or the process storing it died. */
export const UPLOAD_CUT_SHORT = 'The upload was cut short.';

export type LeadImportEvent = LeadImportStarted | LeadImportUploaded | LeadImportRowsReserved | LeadImportRowsDone | LeadImportFinished;

export const LEAD_IMPORT_EVENT_TYPES = declareFields<LeadImportEvent>({
  LeadImportStarted: { import_id: 'plain', user_id: 'plain', campaign_id: 'plain', format: 'plain', allow_duplicate: 'plain' },
  LeadImportUploaded: { import_id: 'plain', bytes: 'plain' },
  LeadImportRowsReserved: { import_id: 'plain', first_row: 'plain', last_row: 'plain', lead_ids: 'plain' },
  LeadImportRowsDone: { import_id: 'plain', last_row: 'plain', accepted: 'plain', duplicates: 'plain', invalid: 'plain', errors: 'personal' },
  // Why a file could not be read quotes the field it stopped at: a number, maybe.
  LeadImportFinished: { import_id: 'plain', campaign_id: 'plain', status: 'plain', reason: 'personal' },
});
