import { DomainEvent } from '../shared/event-sourcing/decider';
import { declareFields } from '../shared/event-sourcing/event-fields';
import { AssistantSettings } from './assistant.settings';

export const assistantStream = (id: number) => `assistant-${id}`;

export type AssistantCreated = DomainEvent<'AssistantCreated', { assistant_id: number; user_id: number; uuid: string; settings: AssistantSettings }>;
export type AssistantUpdated = DomainEvent<'AssistantUpdated', { assistant_id: number; user_id: number; changes: Partial<AssistantSettings> }>;
export type AssistantDeleted = DomainEvent<'AssistantDeleted', { assistant_id: number; user_id: number }>;
/**
 * docs/real-calls.md: publishing the assistant to a voice runtime. A publication is claimed (by an
 * append with the expected revision, so one process at a time) for the settings as they stand
 * (`settings_version`: how many settings events the stream held), each object the runtime made is
 * recorded as soon as it exists, and the publication ends with both ids and the `PUBLIC_URL` its
 * callbacks were given (another one publishes again).
 */
export type AssistantPublishStarted = DomainEvent<'AssistantPublishStarted', { assistant_id: number; runtime: 'retell'; settings_version: number; at: string }>;
export type AssistantRetellLlmCreated = DomainEvent<'AssistantRetellLlmCreated', { assistant_id: number; llm_id: string }>;
export type AssistantPublished = DomainEvent<
  'AssistantPublished',
  { assistant_id: number; runtime: 'retell'; settings_version: number; llm_id: string; agent_id: string; public_url: string }
>;
export type AssistantPublicationEvent = AssistantPublishStarted | AssistantRetellLlmCreated | AssistantPublished;

export type AssistantEvent = AssistantCreated | AssistantUpdated | AssistantDeleted | AssistantPublicationEvent;

/** The events that change what the assistant is (its read model's). */
export const ASSISTANT_EVENT_TYPES = declareFields<AssistantCreated | AssistantUpdated | AssistantDeleted>({
  AssistantCreated: { assistant_id: 'plain', user_id: 'plain', uuid: 'plain', settings: 'plain' },
  AssistantUpdated: { assistant_id: 'plain', user_id: 'plain', changes: 'plain' },
  AssistantDeleted: { assistant_id: 'plain', user_id: 'plain' },
});
export const ASSISTANT_PUBLICATION_EVENT_TYPES = declareFields<AssistantPublicationEvent>({
  AssistantPublishStarted: { assistant_id: 'plain', runtime: 'plain', settings_version: 'plain', at: 'plain' },
  AssistantRetellLlmCreated: { assistant_id: 'plain', llm_id: 'plain' },
  AssistantPublished: { assistant_id: 'plain', runtime: 'plain', settings_version: 'plain', llm_id: 'plain', agent_id: 'plain', public_url: 'plain' },
});
