import { isoMicros } from '../shared/formats';
import { AT, projectionSpec } from '../testing/projection-spec';
import { PhoneNumbersProjection } from './phone-numbers.projection';

const added = (id: number, label: string | null) => ({
  type: 'PhoneNumberAdded',
  data: { phone_number_id: id, user_id: 1, phone_number: `+1201555000${id}`, label },
});

describe('phone numbers projection', () => {
  const { given } = projectionSpec(
    (store) => new PhoneNumbersProjection(store),
    (p) => p.numbers,
  );

  it('keeps each number added until it is removed', () =>
    given(added(1, 'main'), added(2, null), { type: 'PhoneNumberRemoved', data: { phone_number_id: 1, user_id: 1 } }).then([
      { id: 2, user_id: 1, phone_number: '+12015550002', label: null, created_at: isoMicros(AT) },
    ]));
});
