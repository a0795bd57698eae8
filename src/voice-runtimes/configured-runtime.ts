import type { Provider, Type } from '@nestjs/common';
import type { CommandBus } from '@nestjs/cqrs';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AssistantSettings } from '../assistants/assistant.settings';
import type { AppConfig } from '../infrastructure/config/app-config';
import type { EnvReader } from '../infrastructure/config/env-reader';
import type { FieldErrors } from '../shared/domain-error';
import type { Dialer } from './dialer.port';
import { DialerKind, RUNTIME_SETTINGS, VoiceRuntime } from './voice-runtime';

/** The runtime's cap on calls in flight, shared by every campaign and instance. */
export interface RuntimeCap {
  provider: DialerKind;
  capacity: number;
}

/** The runtime `DIALER` chose with its settings read: what the service mounts and asks. */
export interface ConfiguredRuntime {
  readonly kind: DialerKind;
  readonly cap: RuntimeCap | null;
  readonly controllers: readonly Type[];
  /** Its own providers, and its settings as `RUNTIME_SETTINGS`. */
  readonly providers: readonly Provider[];
  readonly formRoutes: readonly string[];
  prepare(): Promise<void>;
  refusals(settings: AssistantSettings): FieldErrors;
  dialer(config: AppConfig, commands: CommandBus): Dialer | Promise<Dialer>;
  install(app: NestFastifyApplication, config: AppConfig): Promise<void>;
}

export function configureRuntime<K extends DialerKind, S>(runtime: VoiceRuntime<K, S>, read: EnvReader): ConfiguredRuntime {
  const settings = runtime.settings(read);
  const capacity = runtime.capacity?.(settings) ?? null;
  let prepared: Promise<void> | undefined;
  return {
    kind: runtime.kind,
    cap: capacity === null ? null : { provider: runtime.kind, capacity },
    controllers: runtime.controllers,
    providers: [...(runtime.providers ?? []), { provide: RUNTIME_SETTINGS, useValue: settings }],
    formRoutes: runtime.formRoutes ?? [],
    prepare: () => (prepared ??= runtime.prepare?.() ?? Promise.resolve()),
    refusals: (assistant) => runtime.refusals?.(assistant) ?? {},
    dialer: (config, commands) => runtime.dialer(config, settings, commands),
    install: async (app, config) => runtime.install?.(app, config, settings),
  };
}
