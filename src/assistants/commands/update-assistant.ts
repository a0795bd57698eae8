import { Optional } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AuthenticatedUser } from '../../access/access-token-verifier';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { ProjectionRunner } from '../../infrastructure/projections/projection-runner';
import { CheckedBody } from '../../shared/validation/validation.pipe';
import { AssistantReferences } from '../assistant-references';
import { assistantDecider } from '../assistant.decider';
import { UpdateAssistantDto } from '../assistant.dto';
import { assistantStream } from '../assistant.events';
import { AssistantPlacement, PLACES_EVERYTHING } from '../assistant-placement';

export class UpdateAssistant {
  constructor(
    readonly user: AuthenticatedUser,
    readonly id: number,
    readonly body: CheckedBody<UpdateAssistantDto>,
  ) {}
}

@CommandHandler(UpdateAssistant)
export class UpdateAssistantHandler implements ICommandHandler<UpdateAssistant, void> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly projections: ProjectionRunner,
    private readonly references: AssistantReferences,
    @Optional() private readonly placement: AssistantPlacement = PLACES_EVERYTHING,
  ) {}

  async execute({ user, id, body: { fields: body, errors } }: UpdateAssistant): Promise<void> {
    const changes = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
    const references = await this.references.check(user.organisationId, changes);
    const { position } = await this.runner.run(assistantStream(id), assistantDecider, {
      type: 'UpdateAssistant',
      id,
      organisationId: user.organisationId,
      changes,
      references,
      inputErrors: errors,
      placement: (next) => this.placement.refusals(next),
    });
    await this.projections.settle(position);
  }
}
