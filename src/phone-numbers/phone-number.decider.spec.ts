import { deciderSpec } from '../testing/decider-spec';
import { phoneNumberDecider } from './phone-number.decider';
import { PhoneNumberEvent } from './phone-number.events';

const { given } = deciderSpec(phoneNumberDecider);
const added: PhoneNumberEvent = { type: 'PhoneNumberAdded', data: { phone_number_id: 1, user_id: 2, phone_number: '+12015550123', label: null } };

describe('phone number decider', () => {
  it('adds a number the user does not hold yet', () => {
    given([]).when({ type: 'AddPhoneNumber', id: 1, organisationId: 2, phoneNumber: '+12015550123', label: null, alreadyOwned: false }).then([added]);
  });
  it('refuses a number the user already holds', () => {
    expect(given([]).when({ type: 'AddPhoneNumber', id: 1, organisationId: 2, phoneNumber: '+12015550123', label: null, alreadyOwned: true })).toThrow(
      'Validation failed',
    );
  });
  it("removes only the owner's number, once", () => {
    expect(given([added]).when({ type: 'RemovePhoneNumber', id: 1, organisationId: 3 })).toThrow('Phone number not found');
    const removed = given([added]).when({ type: 'RemovePhoneNumber', id: 1, organisationId: 2 })();
    expect(given([added, ...removed]).when({ type: 'RemovePhoneNumber', id: 1, organisationId: 2 })).toThrow('Phone number not found');
  });
});
