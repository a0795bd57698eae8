import { FieldErrors } from '../../shared/domain-error';
import { VoiceRuntime } from '../voice-runtime';
import { RetellSettings, readRetellSettings } from './retell-settings';
import { RetellDialer } from './retell-dialer';
import { RetellEventsController } from './retell-events.controller';
import { RETELL_MIN_CALL_SECONDS, RETELL_MODELS, isRetellModel } from './retell-models';

/** `DIALER=retell`: the assistant published as a Retell LLM and agent (docs/real-calls.md). */
export const RETELL_RUNTIME: VoiceRuntime<'retell', RetellSettings> = {
  kind: 'retell',
  settings: readRetellSettings,
  capacity: (settings) => settings.maxConcurrentCalls,
  dialer: (config, settings, commands) => new RetellDialer(config, settings, commands),
  controllers: [RetellEventsController],
  // Retell's LLM takes its own list of models, and calls of a minute or more (retell-sdk 5.66).
  refusals: (settings) => {
    const errors: FieldErrors = {};
    if (!isRetellModel(settings.llm_model))
      errors.llm_model = [`The llm model field must be one of Retell's models: ${RETELL_MODELS.join(', ')} (DIALER=retell).`];
    if (settings.max_call_duration < RETELL_MIN_CALL_SECONDS) {
      errors.max_call_duration = [`The max call duration field must be at least ${RETELL_MIN_CALL_SECONDS} with Retell (DIALER=retell).`];
    }
    return errors;
  },
};
