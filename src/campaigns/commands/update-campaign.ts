import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AuthenticatedUser } from '../../access/access-token-verifier';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { ProjectionRunner } from '../../infrastructure/projections/projection-runner';
import { CheckedBody } from '../../shared/validation/validation.pipe';
import { defined } from '../../shared/defined';
import { CampaignAssistants } from '../campaign-assistants';
import { campaignDecider } from '../campaign.decider';
import { UpdateCampaignDto } from '../campaign.dto';
import { campaignStream } from '../campaign.events';

export class UpdateCampaign {
  constructor(
    readonly user: AuthenticatedUser,
    readonly campaignId: number,
    readonly body: CheckedBody<UpdateCampaignDto>,
  ) {}
}

@CommandHandler(UpdateCampaign)
export class UpdateCampaignHandler implements ICommandHandler<UpdateCampaign, void> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly projections: ProjectionRunner,
    private readonly assistants: CampaignAssistants,
  ) {}

  async execute({ user, campaignId, body: { fields: body, errors } }: UpdateCampaign): Promise<void> {
    const changes = defined(body);
    const assistantCanCall = body.assistant_id === undefined || (await this.assistants.canCall(user.organisationId, body.assistant_id));
    const { position } = await this.runner.run(campaignStream(campaignId), campaignDecider, {
      type: 'UpdateCampaign',
      id: campaignId,
      organisationId: user.organisationId,
      changes,
      assistantCanCall,
      inputErrors: errors,
    });
    await this.projections.settle(position);
  }
}
