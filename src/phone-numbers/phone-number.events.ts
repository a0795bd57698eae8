import { DomainEvent, eventTypes } from '../infrastructure/event-sourcing/decider';

export const phoneNumberStream = (id: number) => `phone-number-${id}`;

export type PhoneNumberAdded = DomainEvent<'PhoneNumberAdded', { phone_number_id: number; user_id: number; phone_number: string; label: string | null }>;
export type PhoneNumberRemoved = DomainEvent<'PhoneNumberRemoved', { phone_number_id: number; user_id: number }>;
export type PhoneNumberEvent = PhoneNumberAdded | PhoneNumberRemoved;

export const PHONE_NUMBER_EVENT_TYPES = eventTypes<PhoneNumberEvent>({ PhoneNumberAdded: true, PhoneNumberRemoved: true });
