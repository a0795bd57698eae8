import { Decider } from '../shared/event-sourcing/decider';
import { DomainError } from '../shared/domain-error';
import { ImportFormat, ImportStatus, KEPT_ERRORS, LeadImportEvent, RowError } from './lead-import.events';

export interface LeadImportState {
  exists: boolean;
  organisationId?: number;
  /** Null: a do-not-call import. */
  campaignId?: number | null;
  format?: ImportFormat;
  allowDuplicate?: boolean;
  status?: ImportStatus;
  uploaded?: boolean;
  /** The last row done; rows after it are made (again) from the stored body. */
  rowsDone: number;
  /** The reserved batch not done yet, if any. */
  reserved: { firstRow: number; lastRow: number; leadIds: number[] } | null;
  errorsKept: number;
}

export type LeadImportCommand =
  | { type: 'StartImport'; importId: number; organisationId: number; campaignId: number | null; format: ImportFormat; allowDuplicate: boolean }
  | { type: 'RecordUpload'; importId: number; bytes: number }
  | { type: 'ReserveRows'; importId: number; firstRow: number; lastRow: number; leadIds: number[] }
  | { type: 'RecordRowsDone'; importId: number; lastRow: number; accepted: number; duplicates: number; invalid: number; errors: RowError[] }
  | { type: 'FinishImport'; importId: number; status: 'completed' | 'failed'; reason: string | null };

const running = (state: LeadImportState) => {
  if (!state.exists) throw new DomainError('not_found', 'Import not found');
  if (state.status !== 'running') throw new DomainError('conflict', `The import is ${state.status}.`);
};

/**
 * An import's progress (docs/imports.md): rows are taken in batches, each reserved (with its lead
 * ids) before any lead is made and recorded done after, so a restart redoes at most the one
 * batch in hand, on the same ids. A batch already recorded is not recorded twice.
 */
export const leadImportDecider: Decider<LeadImportCommand, LeadImportState, LeadImportEvent> = {
  initialState: { exists: false, rowsDone: 0, reserved: null, errorsKept: 0 },

  decide(command, state) {
    const id = command.importId;
    switch (command.type) {
      case 'StartImport':
        if (state.exists) throw new DomainError('conflict', 'Import already exists');
        return [
          {
            type: 'LeadImportStarted',
            data: {
              import_id: id,
              user_id: command.organisationId,
              campaign_id: command.campaignId,
              format: command.format,
              allow_duplicate: command.allowDuplicate,
            },
          },
        ];
      case 'RecordUpload':
        if (!state.exists) throw new DomainError('not_found', 'Import not found');
        // Ended while its body arrived (a row that cannot be read): the upload itself went well.
        return state.uploaded || state.status !== 'running' ? [] : [{ type: 'LeadImportUploaded', data: { import_id: id, bytes: command.bytes } }];
      case 'ReserveRows':
        running(state);
        if (state.reserved) throw new DomainError('conflict', `Rows ${state.reserved.firstRow}-${state.reserved.lastRow} are reserved and not done`);
        if (command.firstRow !== state.rowsDone + 1) throw new DomainError('conflict', `The next rows start at ${state.rowsDone + 1}`);
        if (command.leadIds.length !== command.lastRow - command.firstRow + 1) throw new DomainError('conflict', 'One lead id per row');
        return [{ type: 'LeadImportRowsReserved', data: { import_id: id, first_row: command.firstRow, last_row: command.lastRow, lead_ids: command.leadIds } }];
      case 'RecordRowsDone': {
        // A batch in hand when the upload was cut short is still counted: its leads were made.
        if (!(state.status === 'failed' && state.reserved)) running(state);
        // Done already (a retried append that had landed): nothing more.
        if (command.lastRow <= state.rowsDone) return [];
        if (state.reserved && command.lastRow !== state.reserved.lastRow)
          throw new DomainError('conflict', `The rows in hand end at ${state.reserved.lastRow}`);
        const errors = command.errors.slice(0, Math.max(0, KEPT_ERRORS - state.errorsKept));
        const { accepted, duplicates, invalid } = command;
        return [{ type: 'LeadImportRowsDone', data: { import_id: id, last_row: command.lastRow, accepted, duplicates, invalid, errors } }];
      }
      case 'FinishImport': {
        if (!state.exists) throw new DomainError('not_found', 'Import not found');
        if (state.status !== 'running') return [];
        if (command.status === 'completed' && state.reserved) throw new DomainError('conflict', 'Rows are still in hand');
        if (command.status === 'completed' && !state.uploaded) throw new DomainError('conflict', 'The file is not stored whole yet');
        const campaign = state.campaignId ? { campaign_id: state.campaignId } : {};
        return [{ type: 'LeadImportFinished', data: { import_id: id, ...campaign, status: command.status, reason: command.reason } }];
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'LeadImportStarted':
        return {
          ...state,
          exists: true,
          organisationId: event.data.user_id,
          campaignId: event.data.campaign_id,
          format: event.data.format,
          allowDuplicate: event.data.allow_duplicate,
          status: 'running',
        };
      case 'LeadImportUploaded':
        return { ...state, uploaded: true };
      case 'LeadImportRowsReserved':
        return { ...state, reserved: { firstRow: event.data.first_row, lastRow: event.data.last_row, leadIds: event.data.lead_ids } };
      case 'LeadImportRowsDone':
        return { ...state, rowsDone: event.data.last_row, reserved: null, errorsKept: state.errorsKept + event.data.errors.length };
      case 'LeadImportFinished':
        return { ...state, status: event.data.status };
    }
  },
};
