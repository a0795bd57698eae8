import { NUMBER_INVALID, NUMBER_REQUIRED, dncBatch } from './dnc-import-rows';

describe('a batch of a do-not-call import', () => {
  it('lists each valid number as E.164, and refuses a missing, empty, invalid or unreadable one with its row', () => {
    const batch = dncBatch([
      { row: 1, body: { phone_number: '+1 201-555-0101', name: 'Ann' } },
      { row: 2, body: { name: 'Bo' } },
      { row: 3, body: { phone_number: '' } },
      { row: 4, body: { phone_number: '2015550104' } },
      { row: 6, unreadable: 'The row must not be larger than 1 MiB.' },
      { row: 7, body: { phone_number: '+12015550101' } },
    ]);
    expect(batch).toEqual({
      numbers: ['+12015550101', '+12015550101'],
      accepted: 2,
      invalid: 4,
      errors: [
        { row: 2, message: NUMBER_REQUIRED },
        { row: 3, message: NUMBER_REQUIRED },
        { row: 4, message: NUMBER_INVALID },
        { row: 6, message: 'The row must not be larger than 1 MiB.' },
      ],
    });
  });
});
