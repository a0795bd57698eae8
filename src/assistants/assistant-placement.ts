import { FieldErrors } from '../shared/domain-error';
import { AssistantSettings } from './assistant.settings';

/**
 * Port (docs/real-calls.md): what the configured voice runtime cannot place of an assistant's
 * settings, field by field, so that it is refused when saved, never at the dial. The runtimes
 * answer it; with none configured, everything can be placed.
 */
export abstract class AssistantPlacement {
  abstract refusals(settings: AssistantSettings): FieldErrors;
}

export const PLACES_EVERYTHING: AssistantPlacement = { refusals: () => ({}) };
