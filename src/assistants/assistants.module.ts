import { Module } from '@nestjs/common';
import { PhoneNumbersModule } from '../phone-numbers/phone-numbers.module';
import { ToolsModule } from '../tools/tools.module';
import { AssistantReferences } from './assistant-references';
import { AssistantView } from './assistant-view';
import { AssistantsController } from './assistants.controller';
import { AssistantsProjection } from './assistants.projection';
import { AssistantsQueries } from './assistants.queries';
import { CreateAssistantHandler } from './commands/create-assistant';
import { DeleteAssistantHandler } from './commands/delete-assistant';
import { UpdateAssistantHandler } from './commands/update-assistant';
import { ClaimAssistantPublishHandler, RecordAssistantLlmHandler, RecordAssistantPublishedHandler } from './commands/runtime-publication';

@Module({
  imports: [ToolsModule, PhoneNumbersModule],
  controllers: [AssistantsController],
  providers: [
    AssistantsProjection,
    AssistantsQueries,
    AssistantView,
    AssistantReferences,
    CreateAssistantHandler,
    UpdateAssistantHandler,
    DeleteAssistantHandler,
    ClaimAssistantPublishHandler,
    RecordAssistantLlmHandler,
    RecordAssistantPublishedHandler,
  ],
  exports: [AssistantsQueries, AssistantView],
})
export class AssistantsModule {}
