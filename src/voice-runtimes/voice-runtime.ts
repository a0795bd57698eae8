import type { Provider, Type } from '@nestjs/common';
import type { CommandBus } from '@nestjs/cqrs';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AssistantSettings } from '../assistants/assistant.settings';
import type { AppConfig } from '../infrastructure/config/app-config';
import type { EnvReader } from '../infrastructure/config/env-reader';
import type { FieldErrors } from '../shared/domain-error';
import type { Dialer } from './dialer.port';

/** The `DIALER` values: one per runtime in the registry. */
export type DialerKind = 'simulated' | 'http' | 'vapi' | 'retell' | 'twilio';

/**
 * One voice runtime, whole: how it places calls, the routes it calls back on, and what it cannot
 * place. The registry (`registry.ts`) holds one per `DIALER` value; only the configured one's
 * routes, providers and rules are used. docs/adding-a-runtime.md says how to add one.
 */
export interface VoiceRuntime<K extends DialerKind = DialerKind, S = null> {
  readonly kind: K;
  /** Its own settings from the environment (keys, limits); injected as `RUNTIME_SETTINGS`. */
  settings(read: EnvReader): S;
  /** The calls in flight it takes at once across every campaign and instance; null: no cap of the service's own. */
  capacity?(settings: S): number | null;
  /** The dialer placing its calls (the port's dial, lookup, and hang-up where it has one). */
  dialer(config: AppConfig, settings: S, commands: CommandBus): Dialer | Promise<Dialer>;
  /** The routes the runtime calls back on; mounted only when it is the dialer. */
  readonly controllers: readonly Type[];
  /** Providers of its own (the Twilio relay's conversation). */
  readonly providers?: readonly Provider[];
  /** Loaded once before the dialer or the rules are used (Vapi's model lists, from its SDK). */
  prepare?(): Promise<void>;
  /** What it cannot place of an assistant's settings, field by field: refused when saved, never at the dial. */
  refusals?(settings: AssistantSettings): FieldErrors;
  /** Its routes whose bodies come form-encoded. */
  readonly formRoutes?: readonly string[];
  /** Routes installed on the HTTP server itself, once the application is made (the relay's WebSocket). */
  install?(app: NestFastifyApplication, config: AppConfig, settings: S): Promise<void>;
}

/** The configured runtime's settings (its `settings()`), for its own controllers and providers. */
export const RUNTIME_SETTINGS = Symbol('RUNTIME_SETTINGS');
