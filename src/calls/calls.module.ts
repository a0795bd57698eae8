import { CallsExportController } from './calls-export.controller';
import { Module } from '@nestjs/common';
import { AssistantsModule } from '../assistants/assistants.module';
import { PhoneNumbersModule } from '../phone-numbers/phone-numbers.module';
import { CallUpcasters } from './call.upcasters';
import { CallsController } from './calls.controller';
import { CallsProjection } from './calls.projection';
import { CallsQueries } from './calls.queries';
import { CallsMetrics } from './calls.metrics';
import { ToolsModule } from '../tools/tools.module';
import { ClaimDialSendHandler, ConfirmDialSentHandler } from './commands/call-dial';
import { InitiateCallHandler } from './commands/initiate-call';
import { InvokeCallToolHandler } from './commands/invoke-call-tool';
import { ReceiveInboundCallHandler } from './commands/receive-inbound-call';
import { GiveUpCallAnalysisHandler, RecordCallAnalysisHandler, RecordCallOutcomeHandler } from './commands/record-call-outcome';
import { RecordAssistantHangUpHandler, RecordCallRecordingHandler } from './commands/call-conversation';

@Module({
  imports: [AssistantsModule, PhoneNumbersModule, ToolsModule],
  controllers: [CallsExportController, CallsController],
  providers: [
    CallUpcasters,
    CallsProjection,
    CallsQueries,
    InitiateCallHandler,
    ConfirmDialSentHandler,
    ClaimDialSendHandler,
    InvokeCallToolHandler,
    RecordCallOutcomeHandler,
    CallsMetrics,
    RecordCallAnalysisHandler,
    GiveUpCallAnalysisHandler,
    RecordAssistantHangUpHandler,
    RecordCallRecordingHandler,
    ReceiveInboundCallHandler,
  ],
  exports: [CallsQueries],
})
export class CallsModule {}
