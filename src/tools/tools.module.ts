import { Module } from '@nestjs/common';
import { CreateToolHandler } from './commands/create-tool';
import { DeleteToolHandler } from './commands/delete-tool';
import { UpdateToolHandler } from './commands/update-tool';
import { ToolsController } from './tools.controller';
import { ToolsProjection } from './tools.projection';

@Module({
  controllers: [ToolsController],
  providers: [ToolsProjection, CreateToolHandler, UpdateToolHandler, DeleteToolHandler],
  exports: [ToolsProjection],
})
export class ToolsModule {}
