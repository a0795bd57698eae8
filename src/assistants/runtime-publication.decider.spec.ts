import { deciderSpec } from '../testing/decider-spec';
import { DomainError } from '../shared/domain-error';
import { AssistantEvent } from './assistant.events';
import { PUBLISH_CLAIM_MS, publicationDecider } from './runtime-publication.decider';
import { ASSISTANT_DEFAULTS } from './assistant.settings';
import { requiredAssistantSettings } from '../testing/assistant.fixture';

const { given } = deciderSpec(publicationDecider);
const T = new Date('2026-06-01T10:00:00.000Z');
const URL = 'https://calls.example.com';
const created: AssistantEvent = {
  type: 'AssistantCreated',
  data: { assistant_id: 3, user_id: 1, uuid: 'u', settings: { ...ASSISTANT_DEFAULTS, ...requiredAssistantSettings } },
};
const updated: AssistantEvent = { type: 'AssistantUpdated', data: { assistant_id: 3, user_id: 1, changes: { system_prompt: 'New.' } } };
const started = (version: number, at = T): AssistantEvent => ({
  type: 'AssistantPublishStarted',
  data: { assistant_id: 3, runtime: 'retell', settings_version: version, at: at.toISOString() },
});
const llm: AssistantEvent = { type: 'AssistantRetellLlmCreated', data: { assistant_id: 3, llm_id: 'llm_1' } };
const published = (version: number): AssistantEvent => ({
  type: 'AssistantPublished',
  data: { assistant_id: 3, runtime: 'retell', settings_version: version, llm_id: 'llm_1', agent_id: 'agent_1', public_url: URL },
});
const claim = { type: 'ClaimPublish' as const, assistantId: 3, publicUrl: URL };
const isConflict = (error: unknown) => error instanceof DomainError && error.kind === 'conflict';

describe("an assistant's publication to Retell (docs/real-calls.md)", () => {
  it('is claimed for the settings as they stand, by one process while its claim is young', () => {
    given([created])
      .when(claim, T)
      .then([started(1)]);
    given([created, started(1)])
      .when(claim, new Date(T.getTime() + PUBLISH_CLAIM_MS - 1))
      .thenThrows(isConflict);
    given([created, started(1)])
      .when(claim, new Date(T.getTime() + PUBLISH_CLAIM_MS))
      .then([started(1, new Date(T.getTime() + PUBLISH_CLAIM_MS))]);
  });

  it('needs nothing once published, and is claimed again after a change', () => {
    given([created, started(1), llm, published(1)])
      .when(claim, T)
      .then([]);
    given([created, started(1), llm, published(1), updated])
      .when(claim, T)
      .then([started(2)]);
    // A claim for the settings before a change does not hold off the publication of the new ones.
    given([created, started(1), updated])
      .when(claim, T)
      .then([started(2)]);
  });

  it('is claimed again when the callbacks must reach another PUBLIC_URL', () => {
    given([created, started(1), llm, published(1)])
      .when({ ...claim, publicUrl: 'https://new.example.com' }, T)
      .then([started(1)]);
  });

  it('records the LLM once, and an assistant never made cannot be published', () => {
    given([created, started(1), llm])
      .when({ type: 'RecordLlmCreated', assistantId: 3, llmId: 'llm_1' })
      .then([]);
    given([])
      .when(claim, T)
      .thenThrows((e) => e instanceof DomainError && e.kind === 'not_found');
  });
});
