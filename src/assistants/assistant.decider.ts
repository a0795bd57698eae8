import { Decider } from '../shared/event-sourcing/decider';
import { DomainError, FieldErrors } from '../shared/domain-error';
import { NOT_PUBLIC } from '../infrastructure/outbound/public-targets';
import { OwnedResource, ownedLive as owned } from '../shared/owned-resource';
import { AssistantEvent } from './assistant.events';
import { ASSISTANT_DEFAULTS, AssistantSettings, NULLABLE_SETTINGS, RequiredSettings } from './assistant.settings';

/** What the handler looked up about the references a command names. */
export interface References {
  voiceExists: boolean;
  phoneNumberOwned: boolean;
  toolsOwned: boolean;
  /** Whether the webhook URLs given point at public addresses (docs/api.md); true when none is given. */
  webhookUrlPublic: boolean;
  inboundWebhookUrlPublic: boolean;
}

export type AssistantCommand =
  /** `settings` are complete when `inputErrors` is empty: the fields in error were taken out. */
  | {
      type: 'CreateAssistant';
      id: number;
      organisationId: number;
      uuid: string;
      settings: RequiredSettings & Partial<AssistantSettings>;
      references: References;
      inputErrors: FieldErrors;
      /** What the configured runtime cannot place of the settings (docs/real-calls.md). */
      placement?: (settings: AssistantSettings) => FieldErrors;
    }
  | {
      type: 'UpdateAssistant';
      id: number;
      organisationId: number;
      changes: { [K in keyof AssistantSettings]?: AssistantSettings[K] | null };
      references: References;
      inputErrors: FieldErrors;
      placement?: (settings: AssistantSettings) => FieldErrors;
    }
  | { type: 'DeleteAssistant'; id: number; organisationId: number };

export type AssistantState = OwnedResource<{ settings: AssistantSettings }>;

const WEBHOOK_REQUIRED = 'The webhook url field is required when is webhook active is true.';

/**
 * Refuses a settings change whose fields failed their rules or do not fit what the assistant would
 * become, or that the configured runtime could not place (judged on the fields it gives).
 */
function check(
  next: AssistantSettings,
  given: Partial<Record<keyof AssistantSettings, unknown>>,
  refs: References,
  inputErrors: FieldErrors,
  placement: (settings: AssistantSettings) => FieldErrors = () => ({}),
) {
  const errors: FieldErrors = {};
  if (Object.keys(inputErrors).length === 0) {
    for (const [field, messages] of Object.entries(placement(next))) if (field in given) errors[field] = messages;
  }
  for (const [field, value] of Object.entries(given)) {
    if (value === null && !NULLABLE_SETTINGS.has(field)) errors[field] = [`The ${field.replace(/_/g, ' ')} field is required.`];
  }
  if ('voice_id' in given && !refs.voiceExists) errors.voice_id = ['The selected voice id is invalid.'];
  if ('phone_number_id' in given && given.phone_number_id !== null && !refs.phoneNumberOwned) {
    errors.phone_number_id = ['The selected phone number id is invalid.'];
  }
  if ('tool_ids' in given && !refs.toolsOwned) errors.tool_ids = ['The selected tool ids is invalid.'];
  if (next.is_webhook_active && !next.webhook_url) errors.webhook_url = [WEBHOOK_REQUIRED];
  if (typeof given.webhook_url === 'string' && !refs.webhookUrlPublic) errors.webhook_url = [NOT_PUBLIC('webhook url')];
  if (typeof given.inbound_webhook_url === 'string' && !refs.inboundWebhookUrlPublic) errors.inbound_webhook_url = [NOT_PUBLIC('inbound webhook url')];
  const refusal = DomainError.invalid(inputErrors, errors);
  if (refusal) throw refusal;
}

export const assistantDecider: Decider<AssistantCommand, AssistantState, AssistantEvent> = {
  initialState: { exists: false },

  decide(command, state) {
    switch (command.type) {
      case 'CreateAssistant': {
        if (state.exists) throw new DomainError('conflict', 'Assistant already exists');
        const settings: AssistantSettings = { ...ASSISTANT_DEFAULTS, ...command.settings };
        check(settings, command.settings, command.references, command.inputErrors, command.placement);
        return [{ type: 'AssistantCreated', data: { assistant_id: command.id, user_id: command.organisationId, uuid: command.uuid, settings } }];
      }
      case 'UpdateAssistant': {
        if (!owned(state, command.organisationId)) throw DomainError.notFound('Assistant');
        const changes = { ...command.changes } as Partial<AssistantSettings>;
        // Removing the URL turns the webhook off (docs/api.md).
        if (changes.webhook_url === null && changes.is_webhook_active === undefined) changes.is_webhook_active = false;
        check({ ...state.settings, ...changes }, command.changes, command.references, command.inputErrors, command.placement);
        return [{ type: 'AssistantUpdated', data: { assistant_id: command.id, user_id: command.organisationId, changes } }];
      }
      case 'DeleteAssistant':
        if (!owned(state, command.organisationId)) throw DomainError.notFound('Assistant');
        return [{ type: 'AssistantDeleted', data: { assistant_id: command.id, user_id: command.organisationId } }];
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'AssistantCreated':
        return { exists: true, organisationId: event.data.user_id, deleted: false, settings: event.data.settings };
      case 'AssistantUpdated':
        return state.exists ? { ...state, settings: { ...state.settings, ...event.data.changes } } : state;
      case 'AssistantDeleted':
        return state.exists ? { ...state, deleted: true } : state;
      default:
        // Its publications to runtimes change nothing of what the assistant is.
        return state;
    }
  },
};
