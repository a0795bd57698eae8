import { Module } from '@nestjs/common';
import { AddToDoNotCallHandler } from './commands/add-to-do-not-call';
import { RemoveFromDoNotCallHandler } from './commands/remove-from-do-not-call';
import { DoNotCallController } from './do-not-call.controller';
import { DoNotCallProjection } from './do-not-call.projection';
import { DoNotCallQueries } from './do-not-call.queries';

@Module({
  controllers: [DoNotCallController],
  providers: [DoNotCallProjection, DoNotCallQueries, AddToDoNotCallHandler, RemoveFromDoNotCallHandler],
  exports: [DoNotCallQueries],
})
export class DoNotCallModule {}
