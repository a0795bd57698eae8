import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { ProjectionRunner } from '../../infrastructure/projections/projection-runner';
import { DomainError } from '../../shared/domain-error';
import { hashToken } from '../../access/access-token-verifier';
import { userDecider } from '../user.decider';
import { userStream } from '../user.events';
import { UsersProjection } from '../users.projection';

export class RevokeAccessToken {
  constructor(readonly token: string) {}
}

@CommandHandler(RevokeAccessToken)
export class RevokeAccessTokenHandler implements ICommandHandler<RevokeAccessToken, { revoked: boolean }> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly projections: ProjectionRunner,
    private readonly users: UsersProjection,
  ) {}

  async execute({ token }: RevokeAccessToken): Promise<{ revoked: boolean }> {
    const tokenHash = hashToken(token);
    await this.projections.catchUp();
    const record = await this.users.tokens.get(tokenHash);
    if (!record) throw DomainError.notFound('Token');
    const { position, events } = await this.runner.run(userStream(record.user_id), userDecider, {
      type: 'RevokeAccessToken',
      userId: record.user_id,
      tokenHash,
    });
    await this.projections.settle(position);
    return { revoked: events.length > 0 };
  }
}
