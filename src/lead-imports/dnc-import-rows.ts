import { toE164 } from '../shared/phone';
import { ImportRow } from './import-rows';
import { RowError } from './lead-import.events';

export const NUMBER_REQUIRED = 'The phone number field is required.';
export const NUMBER_INVALID = 'The phone number field must be a valid phone number in E.164 format.';

/** A batch of a do-not-call import: the numbers (E.164) to list, and the rows refused with why. */
export interface DncBatch {
  numbers: string[];
  accepted: number;
  invalid: number;
  errors: RowError[];
}

/** Reads a batch of rows as numbers for the do-not-call list (docs/imports.md); a number listed already is still accepted. */
export function dncBatch(rows: readonly ImportRow[]): DncBatch {
  const batch: DncBatch = { numbers: [], accepted: 0, invalid: 0, errors: [] };
  for (const row of rows) {
    const written = 'body' in row ? row.body.phone_number : undefined;
    const e164 = typeof written === 'string' ? toE164(written) : null;
    if (e164) {
      batch.numbers.push(e164);
      batch.accepted++;
      continue;
    }
    batch.invalid++;
    const message = 'unreadable' in row ? row.unreadable : written === undefined || written === '' ? NUMBER_REQUIRED : NUMBER_INVALID;
    batch.errors.push({ row: row.row, message });
  }
  return batch;
}
