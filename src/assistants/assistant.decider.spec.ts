import { deciderSpec } from '../testing/decider-spec';
import { AssistantCommand, assistantDecider } from './assistant.decider';
import { AssistantEvent } from './assistant.events';
import { requiredAssistantSettings } from '../testing/assistant.fixture';
import { refusalOf } from '../testing/refusal';
import { ASSISTANT_DEFAULTS } from './assistant.settings';

const { given } = deciderSpec(assistantDecider, new Date('2025-01-01T00:00:00Z'));
const required = requiredAssistantSettings;
const refs = { voiceExists: true, phoneNumberOwned: true, toolsOwned: true, webhookUrlPublic: true, inboundWebhookUrlPublic: true };
const created: AssistantEvent = {
  type: 'AssistantCreated',
  data: { assistant_id: 1, user_id: 5, uuid: 'u', settings: { ...ASSISTANT_DEFAULTS, ...required } },
};
const create = (settings = {}, references = refs): AssistantCommand => ({
  type: 'CreateAssistant',
  id: 1,
  organisationId: 5,
  uuid: 'u',
  settings: { ...required, ...settings },
  references,
  inputErrors: {},
});
const update = (changes: object, references = refs): AssistantCommand => ({
  type: 'UpdateAssistant',
  id: 1,
  organisationId: 5,
  changes,
  references,
  inputErrors: {},
});
const errorsOf = (decide: () => unknown) => refusalOf(decide).errors;

describe('assistant decider', () => {
  it('creates an assistant with the defaults for every optional field left out', () => {
    given([]).when(create()).then([created]);
  });

  it('requires a webhook URL when the webhook is active, on create and on update', () => {
    expect(errorsOf(given([]).when(create({ is_webhook_active: true })))).toEqual({
      webhook_url: ['The webhook url field is required when is webhook active is true.'],
    });
    expect(errorsOf(given([created]).when(update({ is_webhook_active: true })))).toHaveProperty('webhook_url');
    expect(given([created]).when(update({ is_webhook_active: true, webhook_url: 'https://h.io' }))()).toHaveLength(1);
  });

  it("answers the request's own field errors with those it finds, a field keeping its own", () => {
    const speed = ['The speech speed field must be between 0.7 and 1.2.'];
    const url = ['The webhook url field must be a valid URL.'];
    const refused = (c: AssistantCommand) => errorsOf(given([]).when(c));
    expect(
      refused({ ...create({ is_webhook_active: true }, { ...refs, voiceExists: false }), inputErrors: { speech_speed: speed } } as AssistantCommand),
    ).toEqual({
      speech_speed: speed,
      voice_id: ['The selected voice id is invalid.'],
      webhook_url: ['The webhook url field is required when is webhook active is true.'],
    });
    expect(refused({ ...create({ is_webhook_active: true }), inputErrors: { webhook_url: url } } as AssistantCommand)).toEqual({ webhook_url: url });
    expect(refused({ ...create(), inputErrors: { speech_speed: speed } } as AssistantCommand)).toEqual({ speech_speed: speed });
    expect(errorsOf(given([created]).when({ ...update({ is_webhook_active: true }), inputErrors: { speech_speed: speed } } as AssistantCommand))).toEqual({
      speech_speed: speed,
      webhook_url: ['The webhook url field is required when is webhook active is true.'],
    });
    expect(given([created]).when({ ...update({}), organisationId: 9, inputErrors: { speech_speed: speed } } as AssistantCommand)).toThrow(
      'Assistant not found',
    );
  });

  it('turns the webhook off when its URL is removed', () => {
    const active = given([created]).when(update({ is_webhook_active: true, webhook_url: 'https://h.io' }))();
    const [removed] = given([created, ...active]).when(update({ webhook_url: null }))();
    expect(removed.data).toMatchObject({ changes: { webhook_url: null, is_webhook_active: false } });
  });

  it('refuses references the user does not own', () => {
    expect(errorsOf(given([]).when(create({ voice_id: 99 }, { ...refs, voiceExists: false })))).toEqual({ voice_id: ['The selected voice id is invalid.'] });
    expect(errorsOf(given([]).when(create({ tool_ids: [3] }, { ...refs, toolsOwned: false })))).toEqual({ tool_ids: ['The selected tool ids is invalid.'] });
    expect(errorsOf(given([created]).when(update({ phone_number_id: 4 }, { ...refs, phoneNumberOwned: false })))).toEqual({
      phone_number_id: ['The selected phone number id is invalid.'],
    });
  });

  it('lets null unassign the phone number but not blank a required field', () => {
    const [unassigned] = given([created]).when(update({ phone_number_id: null }, { ...refs, phoneNumberOwned: false }))();
    expect(unassigned.data).toMatchObject({ changes: { phone_number_id: null } });
    expect(errorsOf(given([created]).when(update({ assistant_name: null })))).toEqual({ assistant_name: ['The assistant name field is required.'] });
  });

  it("updates only the owner's live assistant", () => {
    expect(given([created]).when({ ...update({}), organisationId: 6 } as AssistantCommand)).toThrow('Assistant not found');
    const deleted = given([created]).when({ type: 'DeleteAssistant', id: 1, organisationId: 5 })();
    expect(given([created, ...deleted]).when(update({ speech_speed: 1 }))).toThrow('Assistant not found');
  });
});

describe('assistant decider: webhook targets (docs/api.md)', () => {
  it('refuses webhook URLs the handler found not public, on create and update', () => {
    const notPublic = { ...refs, webhookUrlPublic: false, inboundWebhookUrlPublic: false };
    expect(errorsOf(given([]).when(create({ webhook_url: 'http://127.0.0.1/h', inbound_webhook_url: 'http://localhost/h' }, notPublic)))).toEqual({
      webhook_url: ['The webhook url field must point to a public address.'],
      inbound_webhook_url: ['The inbound webhook url field must point to a public address.'],
    });
    expect(errorsOf(given([created]).when(update({ webhook_url: 'http://10.0.0.1/h' }, notPublic)))).toEqual({
      webhook_url: ['The webhook url field must point to a public address.'],
    });
    expect(given([created]).when(update({ webhook_url: null }, notPublic))()).toHaveLength(1);
  });
});
