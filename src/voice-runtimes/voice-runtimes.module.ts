import { DynamicModule, Module } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { AssistantPlacement } from '../assistants/assistant-placement';
import { AssistantsModule } from '../assistants/assistants.module';
import { CallsModule } from '../calls/calls.module';
import { AppConfig, DialerKind } from '../infrastructure/config/app-config';
import { Dialer } from './dialer.port';
import { runtimeFor } from './registry';
import { RuntimeReports } from './runtime-reports';

/**
 * The configured voice runtime: its dialer (the `Dialer` port the dialing feature uses), its
 * routes and providers, and its rules for what an assistant may be saved as (global: the
 * assistants feature asks them through its `AssistantPlacement` port).
 */
@Module({})
export class VoiceRuntimesModule {
  static forRoot(kind: DialerKind): DynamicModule {
    const runtime = runtimeFor(kind);
    const prepared = () => runtime.prepare?.() ?? Promise.resolve();
    return {
      module: VoiceRuntimesModule,
      global: true,
      imports: [AssistantsModule, CallsModule],
      controllers: [...runtime.controllers],
      providers: [
        {
          provide: Dialer,
          inject: [AppConfig, CommandBus],
          useFactory: async (config: AppConfig, commands: CommandBus) => {
            await prepared();
            return runtime.dialer(config, commands);
          },
        },
        {
          provide: AssistantPlacement,
          useFactory: async (): Promise<AssistantPlacement> => {
            await prepared();
            return { refusals: (settings) => runtime.refusals?.(settings) ?? {} };
          },
        },
        RuntimeReports,
        ...(runtime.providers ?? []),
      ],
      exports: [Dialer, AssistantPlacement],
    };
  }
}
