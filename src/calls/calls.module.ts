import { Module } from '@nestjs/common';
import { AssistantsModule } from '../assistants/assistants.module';
import { TelephonySignatureGuard } from '../infrastructure/auth/telephony-signature.guard';
import { PhoneNumbersModule } from '../phone-numbers/phone-numbers.module';
import { CallsController } from './calls.controller';
import { CallsProjection } from './calls.projection';
import { InitiateCallHandler } from './commands/initiate-call';
import { ReceiveInboundCallHandler } from './commands/receive-inbound-call';
import { RecordCallOutcomeHandler } from './commands/record-call-outcome';
import { TelephonyController } from './telephony.controller';

@Module({
  imports: [AssistantsModule, PhoneNumbersModule],
  controllers: [CallsController, TelephonyController],
  providers: [CallsProjection, InitiateCallHandler, RecordCallOutcomeHandler, ReceiveInboundCallHandler, TelephonySignatureGuard],
  exports: [CallsProjection],
})
export class CallsModule {}
