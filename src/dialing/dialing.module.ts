import { DynamicModule, Module, Type } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { AssistantsModule } from '../assistants/assistants.module';
import { CallsModule } from '../calls/calls.module';
import { CampaignsModule } from '../campaigns/campaigns.module';
import { AppConfig, DialerKind } from '../infrastructure/config/app-config';
import { LeadsModule } from '../leads/leads.module';
import { PhoneNumbersModule } from '../phone-numbers/phone-numbers.module';
import { DoNotCallModule } from '../do-not-call/do-not-call.module';
import { DialScheduler } from './dial-scheduler';
import { Dialer } from './dialer.port';
import { DialingPolicies } from './dialing-policies';
import { HttpDialer } from './http-dialer';
import { LeadCallResultsReactor } from './lead-call-results.reactor';
import { PlaceCallsReactor } from './place-calls.reactor';
import { SimulatedDialer } from './simulated-dialer';
import { StuckCallSweeper } from './stuck-call-sweeper';
import { CallPlacer } from './call-placer';
import { UnsentDialSweeper } from './unsent-dial-sweeper';
import { OptOutReactor } from './opt-out.reactor';
import { DialQueue } from './dial-queue';
import { CallSlots } from './call-slots';
import { VapiDialer } from './runtimes/vapi/vapi-dialer';
import { RetellDialer } from './runtimes/retell/retell-dialer';
import { RetellEventsController } from './runtimes/retell/retell-events.controller';
import { RuntimeReports } from './runtimes/runtime-reports';
import { VapiEventsController } from './runtimes/vapi/vapi-events.controller';
import { TwilioDialer } from './runtimes/twilio/twilio-dialer';
import { TwilioCallbacksController } from './runtimes/twilio/twilio-callbacks.controller';
import { TwilioRelay } from './runtimes/twilio/relay/twilio-relay';
import { ModelClient } from './runtimes/twilio/relay/model-client';

/** The dialer DIALER names (docs/api.md, docs/real-calls.md). */
async function dialerFor(config: AppConfig, commands: CommandBus): Promise<Dialer> {
  if (config.dialer === 'http') return new HttpDialer(config);
  if (config.dialer === 'vapi') return VapiDialer.create(config, config.runtimes.vapi!);
  if (config.dialer === 'retell') return new RetellDialer(config, config.runtimes.retell!, commands);
  if (config.dialer === 'twilio') return new TwilioDialer(config, config.runtimes.twilio!);
  return new SimulatedDialer(config, commands);
}

/** The routes a runtime takes in: only the configured runtime's exist (docs/real-calls.md). */
const RUNTIME_CONTROLLERS: Partial<Record<DialerKind, Type[]>> = {
  vapi: [VapiEventsController],
  retell: [RetellEventsController],
  twilio: [TwilioCallbacksController],
};

@Module({
  imports: [AssistantsModule, CampaignsModule, LeadsModule, CallsModule, PhoneNumbersModule, DoNotCallModule],
  providers: [
    {
      provide: Dialer,
      inject: [AppConfig, CommandBus],
      useFactory: (config: AppConfig, commands: CommandBus) => dialerFor(config, commands),
    },
    DialingPolicies,
    DialScheduler,
    PlaceCallsReactor,
    LeadCallResultsReactor,
    OptOutReactor,
    StuckCallSweeper,
    CallPlacer,
    DialQueue,
    CallSlots,
    UnsentDialSweeper,
    RuntimeReports,
    ModelClient,
    TwilioRelay,
  ],
  exports: [DialScheduler, StuckCallSweeper],
})
export class DialingModule {
  static forRoot(dialer: DialerKind): DynamicModule {
    return { module: DialingModule, controllers: RUNTIME_CONTROLLERS[dialer] ?? [] };
  }
}
