import { DomainEvent, eventTypes } from '../infrastructure/event-sourcing/decider';
import { AssistantSettings } from './assistant.settings';

export const assistantStream = (id: number) => `assistant-${id}`;

export type AssistantCreated = DomainEvent<'AssistantCreated', { assistant_id: number; user_id: number; uuid: string; settings: AssistantSettings }>;
export type AssistantUpdated = DomainEvent<'AssistantUpdated', { assistant_id: number; user_id: number; changes: Partial<AssistantSettings> }>;
export type AssistantDeleted = DomainEvent<'AssistantDeleted', { assistant_id: number; user_id: number }>;
export type AssistantEvent = AssistantCreated | AssistantUpdated | AssistantDeleted;

export const ASSISTANT_EVENT_TYPES = eventTypes<AssistantEvent>({ AssistantCreated: true, AssistantUpdated: true, AssistantDeleted: true });
