import { Module } from '@nestjs/common';
import { AssistantsModule } from '../assistants/assistants.module';
import { CallsModule } from '../calls/calls.module';
import { CampaignsModule } from '../campaigns/campaigns.module';
import { LeadsModule } from '../leads/leads.module';
import { PhoneNumbersModule } from '../phone-numbers/phone-numbers.module';
import { DoNotCallModule } from '../do-not-call/do-not-call.module';
import { DialScheduler } from './dial-scheduler';
import { DialingPolicies } from './dialing-policies';
import { LeadCallResultsReactor } from './lead-call-results.reactor';
import { FailureBreaker } from './call-end/failure-breaker';
import { LeadRoundResult } from './call-end/lead-round-result';
import { PlaceCallsReactor } from './place-calls.reactor';
import { StuckCallSweeper } from './stuck-call-sweeper';
import { CallPlacer } from './call-placer';
import { UnsentDialSweeper } from './unsent-dial-sweeper';
import { OptOutReactor } from './opt-out.reactor';
import { DialQueue } from './dial-queue';
import { CallSlots } from './call-slots';
import { DialingMetrics } from './dialing.metrics';

@Module({
  imports: [AssistantsModule, CampaignsModule, LeadsModule, CallsModule, PhoneNumbersModule, DoNotCallModule],
  providers: [
    DialingPolicies,
    DialScheduler,
    PlaceCallsReactor,
    LeadCallResultsReactor,
    LeadRoundResult,
    FailureBreaker,
    OptOutReactor,
    StuckCallSweeper,
    CallPlacer,
    DialQueue,
    CallSlots,
    UnsentDialSweeper,
    DialingMetrics,
  ],
  exports: [DialScheduler, StuckCallSweeper, DialingPolicies],
})
export class DialingModule {}
