import { Global, Module } from '@nestjs/common';
import { AssistantPlacement } from '../../assistants/assistant-placement';
import { AssistantSettings } from '../../assistants/assistant.settings';
import { AppConfig } from '../../infrastructure/config/app-config';
import { FieldErrors } from '../../shared/domain-error';
import { RETELL_MIN_CALL_SECONDS, RETELL_MODELS, isRetellModel } from './retell/retell-models';
import { loadVapiModels, vapiModelProvider } from './vapi/vapi-models';

/** Vapi serves a model under its own provider's list only (Vapi's OpenAPI document, OpenAIModel / AnthropicModel / GoogleModel `model` enums). */
function vapiRefusals(settings: AssistantSettings): FieldErrors {
  if (vapiModelProvider(settings.llm_model)) return {};
  return { llm_model: ['The llm model field must be a model Vapi offers from OpenAI, Anthropic or Google (DIALER=vapi).'] };
}

/** Retell's LLM takes its own list of models, and calls of a minute or more (retell-sdk 5.66). */
function retellRefusals(settings: AssistantSettings): FieldErrors {
  const errors: FieldErrors = {};
  if (!isRetellModel(settings.llm_model))
    errors.llm_model = [`The llm model field must be one of Retell's models: ${RETELL_MODELS.join(', ')} (DIALER=retell).`];
  if (settings.max_call_duration < RETELL_MIN_CALL_SECONDS) {
    errors.max_call_duration = [`The max call duration field must be at least ${RETELL_MIN_CALL_SECONDS} with Retell (DIALER=retell).`];
  }
  return errors;
}

const RULES: Partial<Record<AppConfig['dialer'], (settings: AssistantSettings) => FieldErrors>> = { vapi: vapiRefusals, retell: retellRefusals };

/** The configured runtime's rules for what an assistant may be saved as (docs/real-calls.md); Twilio's relay places any. */
@Global()
@Module({
  providers: [
    {
      provide: AssistantPlacement,
      inject: [AppConfig],
      useFactory: async (config: AppConfig): Promise<AssistantPlacement> => {
        if (config.dialer === 'vapi') await loadVapiModels();
        const rules = RULES[config.dialer];
        return { refusals: (settings) => rules?.(settings) ?? {} };
      },
    },
  ],
  exports: [AssistantPlacement],
})
export class RuntimePlacementModule {}
