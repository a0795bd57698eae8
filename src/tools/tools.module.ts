import { Module } from '@nestjs/common';
import { CreateToolHandler } from './commands/create-tool';
import { DeleteToolHandler } from './commands/delete-tool';
import { UpdateToolHandler } from './commands/update-tool';
import { ToolRunner } from './tool-runner';
import { ToolsController } from './tools.controller';
import { ToolSlots } from './tool-slots';
import { ToolsProjection } from './tools.projection';
import { ToolsQueries } from './tools.queries';

@Module({
  controllers: [ToolsController],
  providers: [ToolsProjection, ToolsQueries, ToolSlots, ToolRunner, CreateToolHandler, UpdateToolHandler, DeleteToolHandler],
  exports: [ToolsQueries, ToolRunner],
})
export class ToolsModule {}
