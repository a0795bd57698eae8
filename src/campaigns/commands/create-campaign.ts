import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AuthenticatedUser } from '../../access/access-token-verifier';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { EVENT_STORE, EventStore } from '../../shared/ports/event-store.port';
import { ProjectionRunner } from '../../infrastructure/projections/projection-runner';
import { CheckedBody } from '../../shared/validation/validation.pipe';
import { defined } from '../../shared/defined';
import { CampaignAssistants } from '../campaign-assistants';
import { campaignDecider } from '../campaign.decider';
import { CreateCampaignDto } from '../campaign.dto';
import { campaignStream } from '../campaign.events';

export class CreateCampaign {
  constructor(
    readonly user: AuthenticatedUser,
    readonly body: CheckedBody<CreateCampaignDto>,
    /** The id chosen for it beforehand (an idempotent request's); else one is drawn. */
    readonly id?: number,
  ) {}
}

@CommandHandler(CreateCampaign)
export class CreateCampaignHandler implements ICommandHandler<CreateCampaign, number> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly projections: ProjectionRunner,
    private readonly assistants: CampaignAssistants,
    @Inject(EVENT_STORE) private readonly events: EventStore,
  ) {}

  async execute({ user, body: { fields: body, errors }, id: chosen }: CreateCampaign): Promise<number> {
    const assistantCanCall = body.assistant_id !== undefined && (await this.assistants.canCall(user.organisationId, body.assistant_id));
    const id = chosen ?? (await this.events.nextId('campaign'));
    const { position } = await this.runner.run(
      campaignStream(id),
      campaignDecider,
      { type: 'CreateCampaign', id, organisationId: user.organisationId, settings: defined(body) as CreateCampaignDto, assistantCanCall, inputErrors: errors },
      { retries: 0, newStream: true },
    );
    await this.projections.settle(position);
    return id;
  }
}
