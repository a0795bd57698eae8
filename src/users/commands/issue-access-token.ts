import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { ProjectionRunner } from '../../infrastructure/projections/projection-runner';
import { hashToken } from '../../access/access-token-verifier';
import { newAccessToken } from '../access-token';
import { userDecider } from '../user.decider';
import { userStream } from '../user.events';

export class IssueAccessToken {
  constructor(readonly userId: number) {}
}

@CommandHandler(IssueAccessToken)
export class IssueAccessTokenHandler implements ICommandHandler<IssueAccessToken, { token: string }> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly projections: ProjectionRunner,
  ) {}

  async execute({ userId }: IssueAccessToken): Promise<{ token: string }> {
    const token = newAccessToken();
    const { position } = await this.runner.run(userStream(userId), userDecider, {
      type: 'IssueAccessToken',
      userId,
      tokenHash: hashToken(token),
    });
    await this.projections.settle(position);
    return { token };
  }
}
