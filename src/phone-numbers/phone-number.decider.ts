import { Decider } from '../shared/event-sourcing/decider';
import { DomainError } from '../shared/domain-error';
import { PhoneNumberEvent } from './phone-number.events';

export type PhoneNumberCommand =
  | { type: 'AddPhoneNumber'; id: number; organisationId: number; phoneNumber: string; label: string | null; alreadyOwned: boolean }
  | { type: 'RemovePhoneNumber'; id: number; organisationId: number };

export interface PhoneNumberState {
  organisationId: number | null;
  removed: boolean;
}

export const phoneNumberDecider: Decider<PhoneNumberCommand, PhoneNumberState, PhoneNumberEvent> = {
  initialState: { organisationId: null, removed: false },

  decide(command, state) {
    switch (command.type) {
      case 'AddPhoneNumber':
        if (state.organisationId !== null) throw new DomainError('conflict', 'Phone number already exists');
        if (command.alreadyOwned) throw DomainError.validation('phone_number', 'The phone number has already been taken.');
        return [
          {
            type: 'PhoneNumberAdded',
            data: { phone_number_id: command.id, user_id: command.organisationId, phone_number: command.phoneNumber, label: command.label },
          },
        ];
      case 'RemovePhoneNumber':
        if (state.organisationId !== command.organisationId || state.removed) throw DomainError.notFound('Phone number');
        return [{ type: 'PhoneNumberRemoved', data: { phone_number_id: command.id, user_id: command.organisationId } }];
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'PhoneNumberAdded':
        return { organisationId: event.data.user_id, removed: false };
      case 'PhoneNumberRemoved':
        return { ...state, removed: true };
    }
  },
};
