import { Module } from '@nestjs/common';
import { CreateToolHandler } from './commands/create-tool';
import { DeleteToolHandler } from './commands/delete-tool';
import { UpdateToolHandler } from './commands/update-tool';
import { ToolRunner } from './tool-runner';
import { ToolsController } from './tools.controller';
import { ToolSlots } from './tool-slots';
import { ToolsProjection } from './tools.projection';

@Module({
  controllers: [ToolsController],
  providers: [ToolsProjection, ToolSlots, ToolRunner, CreateToolHandler, UpdateToolHandler, DeleteToolHandler],
  exports: [ToolsProjection, ToolRunner],
})
export class ToolsModule {}
