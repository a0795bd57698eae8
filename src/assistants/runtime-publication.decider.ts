import { Decider } from '../shared/event-sourcing/decider';
import { DomainError } from '../shared/domain-error';
import { AssistantEvent } from './assistant.events';

/** A publication claimed this long ago and not ended is taken for one whose process died. */
export const PUBLISH_CLAIM_MS = 30_000;

export interface PublicationState {
  exists: boolean;
  /** How many settings events the stream holds: a publication of fewer is out of date. */
  settingsVersion: number;
  /** The runtime's objects made so far (kept across publications: a change updates them). */
  llmId: string | null;
  agentId: string | null;
  /** The settings version the runtime holds now, and the PUBLIC_URL its callbacks were given; null before the first publication ended. */
  publishedVersion: number | null;
  publishedUrl: string | null;
  claim: { version: number; at: string } | null;
}

export type PublicationCommand =
  | { type: 'ClaimPublish'; assistantId: number; publicUrl: string }
  | { type: 'RecordLlmCreated'; assistantId: number; llmId: string }
  | { type: 'RecordPublished'; assistantId: number; version: number; llmId: string; agentId: string; publicUrl: string };

/** Whether the runtime holds the assistant's settings as they stand, calling back this URL. */
export const isPublished = (state: PublicationState, publicUrl: string) =>
  state.publishedVersion === state.settingsVersion && state.publishedUrl === publicUrl && state.agentId !== null;

/**
 * docs/real-calls.md: the assistant's publication to Retell, on the assistant's own stream. A claim is
 * an append with the expected revision: several instances racing, one publishes and the others
 * wait for its ids; a claim left by a process that died is taken over after PUBLISH_CLAIM_MS, and
 * goes on from the objects already recorded, so one assistant never gets two agents from racers.
 */
export const publicationDecider: Decider<PublicationCommand, PublicationState, AssistantEvent> = {
  initialState: { exists: false, settingsVersion: 0, llmId: null, agentId: null, publishedVersion: null, publishedUrl: null, claim: null },

  decide(command, state, now) {
    if (!state.exists) throw DomainError.notFound('Assistant');
    const id = command.assistantId;
    switch (command.type) {
      case 'ClaimPublish':
        if (isPublished(state, command.publicUrl)) return [];
        if (state.claim && state.claim.version === state.settingsVersion && now.getTime() - Date.parse(state.claim.at) < PUBLISH_CLAIM_MS) {
          throw new DomainError('conflict', 'The assistant is being published.');
        }
        return [
          { type: 'AssistantPublishStarted', data: { assistant_id: id, runtime: 'retell', settings_version: state.settingsVersion, at: now.toISOString() } },
        ];
      case 'RecordLlmCreated':
        return state.llmId === command.llmId ? [] : [{ type: 'AssistantRetellLlmCreated', data: { assistant_id: id, llm_id: command.llmId } }];
      case 'RecordPublished':
        return [
          {
            type: 'AssistantPublished',
            data: {
              ...{ assistant_id: id, runtime: 'retell' as const, settings_version: command.version },
              ...{ llm_id: command.llmId, agent_id: command.agentId, public_url: command.publicUrl },
            },
          },
        ];
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'AssistantCreated':
        return { ...state, exists: true, settingsVersion: 1 };
      case 'AssistantUpdated':
        return { ...state, settingsVersion: state.settingsVersion + 1 };
      case 'AssistantDeleted':
        return state;
      case 'AssistantPublishStarted':
        return { ...state, claim: { version: event.data.settings_version, at: event.data.at } };
      case 'AssistantRetellLlmCreated':
        return { ...state, llmId: event.data.llm_id };
      case 'AssistantPublished':
        return {
          ...state,
          llmId: event.data.llm_id,
          agentId: event.data.agent_id,
          publishedVersion: event.data.settings_version,
          publishedUrl: event.data.public_url,
          claim: null,
        };
    }
  },
};
