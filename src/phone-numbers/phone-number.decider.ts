import { Decider } from '../infrastructure/event-sourcing/decider';
import { DomainError } from '../shared/domain-error';
import { PhoneNumberEvent } from './phone-number.events';

export type PhoneNumberCommand =
  | { type: 'AddPhoneNumber'; id: number; userId: number; phoneNumber: string; label: string | null; alreadyOwned: boolean }
  | { type: 'RemovePhoneNumber'; id: number; userId: number };

export interface PhoneNumberState {
  userId: number | null;
  removed: boolean;
}

export const phoneNumberDecider: Decider<PhoneNumberCommand, PhoneNumberState, PhoneNumberEvent> = {
  initialState: { userId: null, removed: false },

  decide(command, state) {
    switch (command.type) {
      case 'AddPhoneNumber':
        if (state.userId !== null) throw new DomainError('conflict', 'Phone number already exists');
        if (command.alreadyOwned) throw DomainError.validation('phone_number', 'The phone number has already been taken.');
        return [
          {
            type: 'PhoneNumberAdded',
            data: { phone_number_id: command.id, user_id: command.userId, phone_number: command.phoneNumber, label: command.label },
          },
        ];
      case 'RemovePhoneNumber':
        if (state.userId !== command.userId || state.removed) throw DomainError.notFound('Phone number');
        return [{ type: 'PhoneNumberRemoved', data: { phone_number_id: command.id, user_id: command.userId } }];
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'PhoneNumberAdded':
        return { userId: event.data.user_id, removed: false };
      case 'PhoneNumberRemoved':
        return { ...state, removed: true };
    }
  },
};
