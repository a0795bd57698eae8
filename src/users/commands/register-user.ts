import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AppConfig } from '../../infrastructure/config/app-config';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { EVENT_STORE, EventStore } from '../../infrastructure/event-store/event-store.port';
import { ProjectionRunner } from '../../infrastructure/projections/projection-runner';
import { DomainError } from '../../shared/domain-error';
import { hashToken } from '../../infrastructure/auth/access-token-verifier';
import { newAccessToken, newWebhookSecret } from '../access-token';
import { userDecider } from '../user.decider';
import { userStream } from '../user.events';
import { UsersProjection } from '../users.projection';

export class RegisterUser {
  constructor(
    readonly email: string,
    readonly toolLimit?: number,
  ) {}
}

export interface RegisteredUser {
  id: number;
  email: string;
  token: string;
  webhook_secret: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

@CommandHandler(RegisterUser)
export class RegisterUserHandler implements ICommandHandler<RegisterUser, RegisteredUser> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly projections: ProjectionRunner,
    private readonly users: UsersProjection,
    private readonly config: AppConfig,
    @Inject(EVENT_STORE) private readonly events: EventStore,
  ) {}

  async execute({ email, toolLimit }: RegisterUser): Promise<RegisteredUser> {
    const normalized = email.trim().toLowerCase();
    if (!EMAIL.test(normalized)) throw DomainError.validation('email', 'The email field must be a valid email address.');
    if (toolLimit !== undefined && (!Number.isInteger(toolLimit) || toolLimit < 0)) {
      throw DomainError.validation('tool_limit', 'The tool limit field must be an integer of at least 0.');
    }
    await this.projections.catchUp();
    if ((await this.users.users.count({ email: normalized })) > 0) {
      throw DomainError.validation('email', 'The email has already been taken.');
    }
    const id = await this.events.nextId('user');
    const token = newAccessToken();
    const webhookSecret = newWebhookSecret();
    const { position } = await this.runner.run(
      userStream(id),
      userDecider,
      {
        type: 'RegisterUser',
        userId: id,
        email: normalized,
        toolLimit: toolLimit ?? this.config.toolPlanLimit,
        webhookSecret,
        tokenHash: hashToken(token),
      },
      { retries: 0, newStream: true },
    );
    await this.projections.settle(position);
    return { id, email: normalized, token, webhook_secret: webhookSecret };
  }
}
