import type { Vapi } from '@vapi-ai/server-sdk';

/** The model providers a Vapi assistant is given here, each with the models Vapi lists for it. */
export type VapiModelProvider = Extract<Vapi.CreateAssistantDtoModel['provider'], 'openai' | 'anthropic' | 'google'>;

let lists: ReadonlyMap<string, VapiModelProvider> | null = null;

/**
 * Loads Vapi's model lists from @vapi-ai/server-sdk (`Vapi.OpenAiModelModel`,
 * `AnthropicModelModel`, `GoogleModelModel`), once, with DIALER=vapi only: the package is large,
 * and no other runtime needs it.
 */
export async function loadVapiModels(): Promise<void> {
  if (lists) return;
  const { Vapi } = await import('@vapi-ai/server-sdk');
  const byModel = new Map<string, VapiModelProvider>();
  const add = (provider: VapiModelProvider, models: Record<string, string>) => Object.values(models).forEach((m) => byModel.set(m, provider));
  add('openai', Vapi.OpenAiModelModel);
  add('anthropic', Vapi.AnthropicModelModel);
  add('google', Vapi.GoogleModelModel);
  lists = byModel;
}

/**
 * The provider Vapi serves a model under (its `model.provider`); null for one Vapi lists under
 * none of them. Vapi checks `model.model` against its provider's list: a Claude model sent as
 * `openai` is refused at the call.
 */
export function vapiModelProvider(model: string): VapiModelProvider | null {
  if (!lists) throw new Error('Vapi model lists are not loaded');
  return lists.get(model) ?? null;
}
