import { AT, projectionSpec } from '../testing/projection-spec';
import { isoMicros } from '../shared/formats';
import { UNREADABLE_ROW } from './import-rows';
import { LeadImportsProjection } from './lead-imports.projection';

const NAMED = `${UNREADABLE_ROW} Invalid Opening Quote: a quote is found on field "phone_number" at line 3, value is "+12015550177"`;
const started = { type: 'LeadImportStarted', data: { import_id: 1, user_id: 9, campaign_id: 2, format: 'csv', allow_duplicate: false } };
const refused = [
  { row: 1, message: 'The phone number field must be a valid phone number.' },
  { row: 2, message: NAMED },
];
const rowsDone = { type: 'LeadImportRowsDone', data: { import_id: 1, last_row: 2, accepted: 0, duplicates: 0, invalid: 2, errors: refused } };
const finished = {
  type: 'LeadImportFinished',
  data: { import_id: 1, campaign_id: 2, status: 'failed', reason: NAMED.replace(UNREADABLE_ROW, 'The file cannot be read:') },
};
const erased = (rows: Array<{ import_id: number; row: number }>) => ({
  type: 'SubjectErased',
  data: {
    erasure_id: 1,
    user_id: 9,
    subject_key: 'ds_x',
    leads: [],
    contacts: [],
    calls: [],
    import_rows: rows,
    requested_by: { type: 'user', id: 9 },
    completed_at: AT,
  },
});
const failed = {
  id: 1,
  user_id: 9,
  list: 'leads',
  campaign_id: 2,
  format: 'csv',
  status: 'failed',
  uploaded: false,
  rows: 2,
  accepted: 0,
  duplicates: 0,
  invalid: 2,
  errors: refused,
  reason: finished.data.reason,
  started_at: isoMicros(AT),
  finished_at: isoMicros(AT),
};

describe('lead imports projection', () => {
  const { given } = projectionSpec(
    (store) => new LeadImportsProjection(store),
    (p) => p.imports,
  );

  it('keeps an import’s counts, refused rows and why it failed', () => given(started, rowsDone, finished).then([failed]));

  it('given a refused row that named an erased number (written before such rows quoted nothing), when erased: its message and the reason read [erased], the rest stays', () =>
    given(started, rowsDone, finished, erased([{ import_id: 1, row: 2 }])).then([
      { ...failed, errors: [refused[0], { row: 2, message: '[erased]' }], reason: '[erased]' },
    ]));
});
