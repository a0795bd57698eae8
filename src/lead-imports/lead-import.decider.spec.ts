import { deciderSpec } from '../testing/decider-spec';
import { leadImportDecider } from './lead-import.decider';
import { KEPT_ERRORS, LeadImportEvent } from './lead-import.events';

const spec = deciderSpec(leadImportDecider);
const importId = 7;
const started: LeadImportEvent = {
  type: 'LeadImportStarted',
  data: { import_id: importId, user_id: 1, campaign_id: 3, format: 'csv', allow_duplicate: false },
};
const uploaded: LeadImportEvent = { type: 'LeadImportUploaded', data: { import_id: importId, bytes: 120 } };
const reserved = (first: number, last: number): LeadImportEvent => ({
  type: 'LeadImportRowsReserved',
  data: { import_id: importId, first_row: first, last_row: last, lead_ids: Array.from({ length: last - first + 1 }, (_, i) => 100 + first + i) },
});
const done = (last: number, errors = 0): LeadImportEvent => ({
  type: 'LeadImportRowsDone',
  data: {
    import_id: importId,
    last_row: last,
    accepted: 0,
    duplicates: 0,
    invalid: errors,
    errors: Array.from({ length: errors }, (_, i) => ({ row: i + 1, message: 'bad' })),
  },
});

describe('lead import decider', () => {
  it('starts once', () => {
    spec.given([]).when({ type: 'StartImport', importId, organisationId: 1, campaignId: 3, format: 'csv', allowDuplicate: false }).then([started]);
    spec
      .given([started])
      .when({ type: 'StartImport', importId, organisationId: 1, campaignId: 3, format: 'csv', allowDuplicate: false })
      .thenThrows('Import already exists');
  });

  it('reserves the rows right after the last done, one lead id per row, one batch at a time', () => {
    const given = spec.given([started, uploaded, reserved(1, 2), done(2)]);
    given
      .when({ type: 'ReserveRows', importId, firstRow: 3, lastRow: 4, leadIds: [5, 6] })
      .then([{ type: 'LeadImportRowsReserved', data: { import_id: importId, first_row: 3, last_row: 4, lead_ids: [5, 6] } }]);
    given.when({ type: 'ReserveRows', importId, firstRow: 5, lastRow: 6, leadIds: [5, 6] }).thenThrows('The next rows start at 3');
    given.when({ type: 'ReserveRows', importId, firstRow: 3, lastRow: 4, leadIds: [5] }).thenThrows('One lead id per row');
    spec
      .given([started, uploaded, reserved(1, 2)])
      .when({ type: 'ReserveRows', importId, firstRow: 3, lastRow: 4, leadIds: [5, 6] })
      .thenThrows(/reserved and not done/);
  });

  it('records the batch in hand done once: a repeat of it changes nothing', () => {
    const command = { type: 'RecordRowsDone' as const, importId, lastRow: 2, accepted: 1, duplicates: 1, invalid: 0, errors: [{ row: 2, message: 'dup' }] };
    spec
      .given([started, uploaded, reserved(1, 2)])
      .when(command)
      .then([
        {
          type: 'LeadImportRowsDone',
          data: { import_id: importId, last_row: 2, accepted: 1, duplicates: 1, invalid: 0, errors: [{ row: 2, message: 'dup' }] },
        },
      ]);
    spec
      .given([started, uploaded, reserved(1, 2), done(2)])
      .when(command)
      .then([]);
    spec
      .given([started, uploaded, reserved(1, 4)])
      .when(command)
      .thenThrows('The rows in hand end at 4');
  });

  it('keeps only the first errors of the import', () => {
    const errors = Array.from({ length: 10 }, (_, i) => ({ row: KEPT_ERRORS + i, message: 'bad' }));
    const decided = spec
      .given([started, uploaded, reserved(1, KEPT_ERRORS - 3), done(KEPT_ERRORS - 3, KEPT_ERRORS - 3), reserved(KEPT_ERRORS - 2, KEPT_ERRORS + 9)])
      .when({ type: 'RecordRowsDone', importId, lastRow: KEPT_ERRORS + 9, accepted: 0, duplicates: 0, invalid: 10, errors })
      .decided();
    expect(decided[0].type === 'LeadImportRowsDone' && decided[0].data.errors).toEqual(errors.slice(0, 3));
    expect(decided[0].type === 'LeadImportRowsDone' && decided[0].data.invalid).toBe(10);
  });

  it('records the upload once, and of an import ended while its body arrived, nothing (the upload answers as it went)', () => {
    spec.given([started]).when({ type: 'RecordUpload', importId, bytes: 120 }).then([uploaded]);
    spec.given([started, uploaded]).when({ type: 'RecordUpload', importId, bytes: 120 }).then([]);
    const failed: LeadImportEvent = { type: 'LeadImportFinished', data: { import_id: importId, status: 'failed', reason: 'unreadable' } };
    spec.given([started, failed]).when({ type: 'RecordUpload', importId, bytes: 120 }).then([]);
    spec.given([]).when({ type: 'RecordUpload', importId, bytes: 120 }).thenThrows('Import not found');
  });

  it('finishes once, naming its campaign (for the campaign’s trail), never completed with rows in hand; a finished import takes no more rows', () => {
    spec
      .given([started, uploaded])
      .when({ type: 'FinishImport', importId, status: 'completed', reason: null })
      .then([{ type: 'LeadImportFinished', data: { import_id: importId, campaign_id: 3, status: 'completed', reason: null } }]);
    spec
      .given([started, uploaded, reserved(1, 2)])
      .when({ type: 'FinishImport', importId, status: 'completed', reason: null })
      .thenThrows('Rows are still in hand');
    const finished: LeadImportEvent = { type: 'LeadImportFinished', data: { import_id: importId, status: 'failed', reason: 'cut short' } };
    spec.given([started, finished]).when({ type: 'FinishImport', importId, status: 'completed', reason: null }).then([]);
    spec
      .given([started, finished])
      .when({ type: 'ReserveRows', importId, firstRow: 1, lastRow: 1, leadIds: [1] })
      .thenThrows('The import is failed.');
    // The batch in hand when the upload was cut short is counted still: its leads were made.
    const inHand = { type: 'RecordRowsDone' as const, importId, lastRow: 2, accepted: 2, duplicates: 0, invalid: 0, errors: [] };
    expect(
      spec
        .given([started, reserved(1, 2), finished])
        .when(inHand)
        .decided(),
    ).toHaveLength(1);
    spec.given([started, finished]).when(inHand).thenThrows('The import is failed.');
  });
});
