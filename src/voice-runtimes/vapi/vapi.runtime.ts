import { FieldErrors } from '../../shared/domain-error';
import { VoiceRuntime } from '../voice-runtime';
import { VapiDialer } from './vapi-dialer';
import { VapiEventsController } from './vapi-events.controller';
import { loadVapiModels, vapiModelProvider } from './vapi-models';

/** `DIALER=vapi`: a transient assistant sent with each call (docs/real-calls.md). */
export const VAPI_RUNTIME: VoiceRuntime<'vapi'> = {
  kind: 'vapi',
  prepare: loadVapiModels,
  dialer: (config) => VapiDialer.create(config, config.runtimes.vapi!),
  controllers: [VapiEventsController],
  // Vapi serves a model under its own provider's list only (Vapi's OpenAPI document, the OpenAIModel / AnthropicModel / GoogleModel `model` enums).
  refusals: (settings): FieldErrors =>
    vapiModelProvider(settings.llm_model)
      ? {}
      : { llm_model: ['The llm model field must be a model Vapi offers from OpenAI, Anthropic or Google (DIALER=vapi).'] },
};
