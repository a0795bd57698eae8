import { DomainEvent } from '../shared/event-sourcing/decider';
import { declareFields } from '../shared/event-sourcing/event-fields';

export const phoneNumberStream = (id: number) => `phone-number-${id}`;

export type PhoneNumberAdded = DomainEvent<'PhoneNumberAdded', { phone_number_id: number; user_id: number; phone_number: string; label: string | null }>;
export type PhoneNumberRemoved = DomainEvent<'PhoneNumberRemoved', { phone_number_id: number; user_id: number }>;
export type PhoneNumberEvent = PhoneNumberAdded | PhoneNumberRemoved;

export const PHONE_NUMBER_EVENT_TYPES = declareFields<PhoneNumberEvent>({
  PhoneNumberAdded: { phone_number_id: 'plain', user_id: 'plain', phone_number: 'plain', label: 'plain' },
  PhoneNumberRemoved: { phone_number_id: 'plain', user_id: 'plain' },
});
