import { Inject, Optional } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { AuthenticatedUser } from '../../access/access-token-verifier';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { EVENT_STORE, EventStore } from '../../shared/ports/event-store.port';
import { ProjectionRunner } from '../../infrastructure/projections/projection-runner';
import { CheckedBody } from '../../shared/validation/validation.pipe';
import { AssistantReferences } from '../assistant-references';
import { assistantDecider } from '../assistant.decider';
import { CreateAssistantDto } from '../assistant.dto';
import { assistantStream } from '../assistant.events';
import { AssistantSettings } from '../assistant.settings';
import { AssistantPlacement, PLACES_EVERYTHING } from '../assistant-placement';

export class CreateAssistant {
  constructor(
    readonly user: AuthenticatedUser,
    readonly body: CheckedBody<CreateAssistantDto>,
    /** The id chosen for it beforehand (an idempotent request's); else one is drawn. */
    readonly id?: number,
  ) {}
}

@CommandHandler(CreateAssistant)
export class CreateAssistantHandler implements ICommandHandler<CreateAssistant, number> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly projections: ProjectionRunner,
    private readonly references: AssistantReferences,
    @Optional() private readonly placement: AssistantPlacement = PLACES_EVERYTHING,
    @Inject(EVENT_STORE) private readonly events: EventStore,
  ) {}

  async execute({ user, body: { fields: body, errors }, id: chosen }: CreateAssistant): Promise<number> {
    const settings = withoutNulls(body) as CreateAssistantDto & Partial<AssistantSettings>;
    const references = await this.references.check(user.organisationId, settings);
    const id = chosen ?? (await this.events.nextId('assistant'));
    const { position } = await this.runner.run(
      assistantStream(id),
      assistantDecider,
      {
        type: 'CreateAssistant',
        id,
        organisationId: user.organisationId,
        uuid: randomUUID(),
        settings,
        references,
        inputErrors: errors,
        placement: (next) => this.placement.refusals(next),
      },
      { retries: 0, newStream: true },
    );
    await this.projections.settle(position);
    return id;
  }
}

/** On create, a null optional field means "not given": the default applies. */
function withoutNulls<T extends object>(body: T): Partial<T> {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined && v !== null)) as Partial<T>;
}
