import { DynamicModule, Module } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { AssistantPlacement } from '../assistants/assistant-placement';
import { AssistantsModule } from '../assistants/assistants.module';
import { CallsModule } from '../calls/calls.module';
import { AppConfig } from '../infrastructure/config/app-config';
import { ConfiguredRuntime } from './configured-runtime';
import { Dialer } from './dialer.port';
import { RuntimeCapacity } from './runtime-capacity';
import { RuntimeReports } from './runtime-reports';

/**
 * The configured voice runtime: its dialer (the `Dialer` port the dialing feature uses), its
 * routes and providers, its cap, and its rules for what an assistant may be saved as (global:
 * the assistants feature asks them through its `AssistantPlacement` port).
 */
@Module({})
export class VoiceRuntimesModule {
  static forRoot(runtime: ConfiguredRuntime): DynamicModule {
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
            await runtime.prepare();
            return runtime.dialer(config, commands);
          },
        },
        {
          provide: AssistantPlacement,
          useFactory: async (): Promise<AssistantPlacement> => {
            await runtime.prepare();
            return { refusals: (settings) => runtime.refusals(settings) };
          },
        },
        { provide: RuntimeCapacity, useValue: new RuntimeCapacity(runtime.cap) },
        RuntimeReports,
        ...runtime.providers,
      ],
      exports: [Dialer, AssistantPlacement, RuntimeCapacity],
    };
  }
}
