import { FieldErrors } from '../../shared/domain-error';
import { VoiceRuntime } from '../voice-runtime';
import { VapiSettings, readVapiSettings } from './vapi-settings';
import { VapiDialer } from './vapi-dialer';
import { VapiEventsController } from './vapi-events.controller';
import { loadVapiModels, vapiModelProvider } from './vapi-models';

/** `DIALER=vapi`: a transient assistant sent with each call (docs/real-calls.md). */
export const VAPI_RUNTIME: VoiceRuntime<'vapi', VapiSettings> = {
  kind: 'vapi',
  settings: readVapiSettings,
  capacity: (settings) => settings.maxConcurrentCalls,
  prepare: loadVapiModels,
  dialer: (config, settings) => VapiDialer.create(config, settings),
  controllers: [VapiEventsController],
  // Vapi serves a model under its own provider's list only (Vapi's OpenAPI document, the OpenAIModel / AnthropicModel / GoogleModel `model` enums).
  refusals: (settings): FieldErrors =>
    vapiModelProvider(settings.llm_model)
      ? {}
      : { llm_model: ['The llm model field must be a model Vapi offers from OpenAI, Anthropic or Google (DIALER=vapi).'] },
};
