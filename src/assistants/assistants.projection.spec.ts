import { isoMicros } from '../shared/formats';
import { requiredAssistantSettings } from '../testing/assistant.fixture';
import { AT, projectionSpec } from '../testing/projection-spec';
import { ASSISTANT_DEFAULTS } from './assistant.settings';
import { AssistantsProjection } from './assistants.projection';

const settings = { ...ASSISTANT_DEFAULTS, ...requiredAssistantSettings };
const created = { type: 'AssistantCreated', data: { assistant_id: 3, user_id: 1, uuid: 'u-3', settings } };
const later = '2025-03-01T11:00:00.000Z';
const doc = { id: 3, user_id: 1, uuid: 'u-3', created_at: isoMicros(AT), updated_at: isoMicros(AT), deleted_at: null, deleted: false, settings };

describe('assistants projection', () => {
  const { given } = projectionSpec(
    (store) => new AssistantsProjection(store),
    (p) => p.assistants,
  );

  it('keeps an assistant as created', () => given(created).then([doc]));

  it('merges its changed settings', () =>
    given(created, { type: 'AssistantUpdated', data: { assistant_id: 3, user_id: 1, changes: { assistant_name: 'Bea' } }, occurredAt: later }).then([
      { ...doc, settings: { ...settings, assistant_name: 'Bea' }, updated_at: isoMicros(later) },
    ]));

  it('keeps a deleted assistant, marked deleted', () =>
    given(created, { type: 'AssistantDeleted', data: { assistant_id: 3, user_id: 1 }, occurredAt: later }).then([
      { ...doc, deleted: true, deleted_at: isoMicros(later), updated_at: isoMicros(later) },
    ]));
});
