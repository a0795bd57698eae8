import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { UserDefaults } from '../user-defaults';
import { Role } from '../../access/permissions';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { EVENT_STORE, EventStore } from '../../shared/ports/event-store.port';
import { ProjectionRunner } from '../../infrastructure/projections/projection-runner';
import { DomainError } from '../../shared/domain-error';
import { hashToken } from '../../access/access-token-verifier';
import { newAccessToken, newWebhookSecret } from '../access-token';
import { organisationDecider } from '../organisation.decider';
import { organisationStream } from '../organisation.events';
import { userDecider } from '../user.decider';
import { userStream } from '../user.events';
import { UsersProjection } from '../users.projection';
import { EmailHolders } from '../email-holders';
import { OrganisationFounding } from './organisation-founding';

/** Joining an organisation as a member; `by`: the member adding it, null for the operator. */
export interface Membership {
  organisationId: number;
  role: Role;
  by: number | null;
  /** The member is being added with an API key (which may not add members). */
  viaKey?: boolean;
}

/** A user of a new organisation of its own (its owner), or, with `membership`, a member of one. */
export class RegisterUser {
  constructor(
    readonly email: string,
    readonly toolLimit?: number,
    readonly membership?: Membership,
  ) {}
}

export interface RegisteredUser {
  id: number;
  email: string;
  token: string;
  webhook_secret: string;
  organisation_id: number;
  role: Role;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

@CommandHandler(RegisterUser)
export class RegisterUserHandler implements ICommandHandler<RegisterUser, RegisteredUser> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly projections: ProjectionRunner,
    private readonly users: UsersProjection,
    private readonly founding: OrganisationFounding,
    private readonly emails: EmailHolders,
    private readonly defaults: UserDefaults,
    @Inject(EVENT_STORE) private readonly events: EventStore,
  ) {}

  async execute({ email, toolLimit, membership }: RegisterUser): Promise<RegisteredUser> {
    const normalized = typeof email === 'string' ? email.trim().toLowerCase() : '';
    if (!EMAIL.test(normalized)) throw DomainError.validation('email', 'The email field must be a valid email address.');
    if (toolLimit !== undefined && (!Number.isInteger(toolLimit) || toolLimit < 0)) {
      throw DomainError.validation('tool_limit', 'The tool limit field must be an integer of at least 0.');
    }
    await this.projections.catchUp();
    if ((await this.users.users.count({ email: normalized })) > 0) {
      throw DomainError.validation('email', 'The email has already been taken.');
    }
    if (membership) await this.mayAdd(membership, normalized);
    const id = await this.events.nextId('user');
    // The read above refuses most; this append decides between racing registrations.
    if (!(await this.emails.take(normalized, id))) throw DomainError.validation('email', 'The email has already been taken.');
    const { position, token, webhookSecret, organisationId } = await this.emails.registering(normalized, id, () =>
      this.register(id, normalized, toolLimit, membership),
    );
    await this.projections.settle(position);
    return { id, email: normalized, token, webhook_secret: webhookSecret, organisation_id: organisationId, role: membership?.role ?? 'owner' };
  }

  /** A member the caller may not add is refused before anything is written (the append decides again). */
  private async mayAdd({ organisationId, by, role, viaKey }: Membership, email: string): Promise<void> {
    await this.founding.ensure(organisationId);
    const { state } = await this.runner.load(organisationStream(organisationId), organisationDecider);
    organisationDecider.decide({ type: 'AddMember', by, userId: 0, email, role, viaKey }, state, new Date());
  }

  /** The user's place in its organisation (a new one, or a member's), then the user and its first token. */
  private async register(id: number, email: string, toolLimit: number | undefined, membership: Membership | undefined) {
    const organisationId = membership?.organisationId ?? id;
    if (membership) {
      const { by, role, viaKey } = membership;
      await this.runner.run(organisationStream(organisationId), organisationDecider, { type: 'AddMember', by, userId: id, email, role, viaKey });
    } else {
      const found = { type: 'FoundOrganisation' as const, organisationId, ownerUserId: id, email };
      await this.runner.run(organisationStream(organisationId), organisationDecider, found, { retries: 0, newStream: true });
    }
    const token = newAccessToken();
    const webhookSecret = newWebhookSecret();
    const { position } = await this.runner.run(
      userStream(id),
      userDecider,
      {
        type: 'RegisterUser',
        userId: id,
        organisationId,
        email,
        toolLimit: toolLimit ?? this.defaults.toolLimit,
        webhookSecret,
        tokenHash: hashToken(token),
      },
      { retries: 0, newStream: true },
    );
    return { position, token, webhookSecret, organisationId };
  }
}
