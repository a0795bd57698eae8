import { ERASED } from '../shared/sealing/personal-fields';
import { SUBJECT_ERASED_TYPES, SubjectErased } from '../shared/sealing/subject-erased.event';
import { Inject, Injectable } from '@nestjs/common';
import { RecordedEvent } from '../shared/ports/event-store.port';
import { Projection, ReadModelProjection } from '../infrastructure/projections/projection';
import { Collection, DocumentStore, READ_STORE } from '../shared/ports/document-store.port';
import { isoMicros } from '../shared/formats';
import { ImportFormat, ImportStatus, KEPT_ERRORS, LEAD_IMPORT_EVENT_TYPES, LeadImportEvent, RowError } from './lead-import.events';
import { UNREADABLE_ROW } from './import-rows';

/** An import as `GET /api/user/lead-imports/{id}` shows it (docs/imports.md), and what the service keeps of it. */
/** What an import's rows are made into (docs/imports.md). */
export type ImportList = 'leads' | 'do_not_call';

export interface LeadImportDocument {
  id: number;
  user_id: number;
  list: ImportList;
  /** Null for a do-not-call import. */
  campaign_id: number | null;
  format: ImportFormat;
  status: ImportStatus;
  /** The body is stored whole: the rows can be read (again) from it. */
  uploaded: boolean;
  rows: number;
  accepted: number;
  duplicates: number;
  invalid: number;
  errors: RowError[];
  reason: string | null;
  started_at: string;
  finished_at: string | null;
}

export const importView = ({ id, campaign_id, status, rows, accepted, duplicates, invalid, errors, started_at, finished_at }: LeadImportDocument) => ({
  id,
  campaign_id,
  status,
  rows,
  accepted,
  duplicates,
  invalid,
  errors,
  started_at,
  finished_at,
});

export const dncImportView = ({ id, status, rows, accepted, invalid, errors, started_at, finished_at }: LeadImportDocument) => ({
  id,
  status,
  rows,
  accepted,
  invalid,
  errors,
  started_at,
  finished_at,
});

@Projection()
@Injectable()
export class LeadImportsProjection implements ReadModelProjection {
  readonly name = 'lead_imports';
  /**
   * 3: an erased number's unreadable row takes the import's reason with it; 4: projected again from
   * a log whose CSV messages quote no piece of a row (docs/privacy.md).
   */
  readonly version = 4;
  readonly collections = ['lead_imports'];
  readonly eventTypes = [...LEAD_IMPORT_EVENT_TYPES.filter((type) => type !== 'LeadImportRowsReserved'), ...SUBJECT_ERASED_TYPES];
  readonly imports: Collection<LeadImportDocument>;

  constructor(@Inject(READ_STORE) store: DocumentStore) {
    this.imports = store.collection<LeadImportDocument>('lead_imports', { indexes: [{ fields: ['user_id', 'list', 'id'] }, { fields: ['status'] }] });
  }

  async apply(recorded: RecordedEvent): Promise<void> {
    if (recorded.type === 'SubjectErased') return this.erase((recorded as RecordedEvent & SubjectErased).data.import_rows, recorded.position);
    const event = recorded as RecordedEvent & LeadImportEvent;
    const id = event.data.import_id;
    if (event.type === 'LeadImportStarted') {
      const { user_id, campaign_id, format } = event.data;
      const at = isoMicros(recorded.occurredAt);
      const doc: LeadImportDocument = {
        ...{
          id,
          user_id,
          list: campaign_id === null ? 'do_not_call' : 'leads',
          campaign_id,
          format,
          status: 'running',
          uploaded: false,
          rows: 0,
          accepted: 0,
          duplicates: 0,
          invalid: 0,
          errors: [],
        },
        ...{ reason: null, started_at: at, finished_at: null },
      };
      await this.imports.upsert(id, doc, recorded.position);
      return;
    }
    const current = await this.imports.get(id);
    if (!current) return;
    switch (event.type) {
      case 'LeadImportUploaded':
        await this.imports.upsert(id, { ...current, uploaded: true }, recorded.position);
        return;
      case 'LeadImportRowsDone': {
        const { accepted, duplicates, invalid, errors } = event.data;
        const changed = {
          ...current,
          rows: current.rows + accepted + duplicates + invalid,
          accepted: current.accepted + accepted,
          duplicates: current.duplicates + duplicates,
          invalid: current.invalid + invalid,
          errors: [...current.errors, ...errors].slice(0, KEPT_ERRORS),
        };
        await this.imports.upsert(id, changed, recorded.position);
        return;
      }
      case 'LeadImportFinished':
        await this.imports.upsert(
          id,
          { ...current, status: event.data.status, reason: event.data.reason, finished_at: isoMicros(recorded.occurredAt) },
          recorded.position,
        );
        return;
    }
  }

  /**
   * docs/privacy.md: refused rows that named an erased number keep their row, their message reads
   * `[erased]`; so does the import's reason when the row is the one the file could not be read from.
   */
  private async erase(rows: SubjectErased['data']['import_rows'], position: number): Promise<void> {
    for (const found of await this.imports.getMany([...new Set(rows.map((r) => r.import_id))])) {
      const erased = new Set(rows.filter((r) => r.import_id === found.id).map((r) => r.row));
      const unreadable = found.errors.some((error) => erased.has(error.row) && error.message.startsWith(UNREADABLE_ROW));
      const errors = found.errors.map((error) => (erased.has(error.row) ? { ...error, message: ERASED } : error));
      await this.imports.upsert(found.id, { ...found, errors, reason: unreadable && found.reason !== null ? ERASED : found.reason }, position);
    }
  }
}
