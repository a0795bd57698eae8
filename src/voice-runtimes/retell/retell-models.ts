import type { LlmCreateParams } from 'retell-sdk/resources/llm';

/** The models a Retell LLM takes (retell-sdk 5.66, `LlmCreateParams.model`). */
export type RetellModel = NonNullable<LlmCreateParams['model']>;

/**
 * The same list as a value, to refuse at save what Retell would refuse at publication. `satisfies`
 * fails the build when Retell drops one; `EVERY_MODEL_LISTED` when it adds one not listed here.
 */
export const RETELL_MODELS = [
  'gpt-4.1',
  'gpt-4.1-mini',
  'gpt-4.1-nano',
  'gpt-5',
  'gpt-5-mini',
  'gpt-5-nano',
  'gpt-5.1',
  'gpt-5.2',
  'gpt-5.4',
  'gpt-5.4-mini',
  'gpt-5.4-nano',
  'gpt-5.5',
  'gpt-5.6-terra',
  'gpt-5.6-luna',
  'claude-4.5-sonnet',
  'claude-4.6-sonnet',
  'claude-5-sonnet',
  'claude-4.5-haiku',
  'gemini-3.0-flash',
  'gemini-3.1-flash-lite',
  'gemini-3.5-flash',
  'gemini-3.5-flash-lite',
  'gemini-3.6-flash',
] as const satisfies readonly RetellModel[];

type Unlisted = Exclude<RetellModel, (typeof RETELL_MODELS)[number]>;
export const EVERY_MODEL_LISTED: [Unlisted] extends [never] ? true : Unlisted = true;

export const isRetellModel = (model: string): model is RetellModel => (RETELL_MODELS as readonly string[]).includes(model);

/** Retell's shortest `max_call_duration_ms` (retell-sdk 5.66, `AgentCreateParams`: "The minimum value allowed is 60,000 ms"). */
export const RETELL_MIN_CALL_SECONDS = 60;
