import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AddToDoNotCall } from '../../do-not-call/commands/add-to-do-not-call';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { EVENT_STORE, EventStore } from '../../shared/ports/event-store.port';
import { ProjectionRunner } from '../../infrastructure/projections/projection-runner';
import { erasureDecider } from './erasure.decider';
import { erasureStream } from './erasure.events';

export class RequestErasure {
  constructor(
    readonly organisationId: number,
    readonly phoneNumber: string,
  ) {}
}

/**
 * docs/privacy.md: the number joins the do-not-call list for good first (it is never dialed
 * from this moment), then the erasure is recorded for EraseSubjectsReactor; answers its id.
 */
@CommandHandler(RequestErasure)
export class RequestErasureHandler implements ICommandHandler<RequestErasure, number> {
  constructor(
    private readonly commands: CommandBus,
    private readonly runner: CommandRunner,
    private readonly projections: ProjectionRunner,
    @Inject(EVENT_STORE) private readonly events: EventStore,
  ) {}

  async execute({ organisationId, phoneNumber }: RequestErasure): Promise<number> {
    await this.commands.execute(new AddToDoNotCall(organisationId, [phoneNumber], null, 'erasure'));
    const erasureId = await this.events.nextId('erasure');
    const { position } = await this.runner.run(
      erasureStream(erasureId),
      erasureDecider,
      { type: 'RequestErasure', erasureId, organisationId, phoneNumber },
      { newStream: true },
    );
    await this.projections.settle(position);
    return erasureId;
  }
}
