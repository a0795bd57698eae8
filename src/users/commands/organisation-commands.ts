import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { AuthenticatedUser, hashToken } from '../../access/access-token-verifier';
import { Role, Scope } from '../../access/permissions';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { EVENT_STORE, EventStore } from '../../shared/ports/event-store.port';
import { ProjectionRunner } from '../../infrastructure/projections/projection-runner';
import { newApiKey } from '../access-token';
import { OrganisationCommand, organisationDecider } from '../organisation.decider';
import { organisationStream } from '../organisation.events';
import { OrganisationFounding } from './organisation-founding';
import { RegisterUser, RegisteredUser } from './register-user';

type ByMember<C> = C extends { by: unknown } ? Omit<C, 'by'> : never;

/**
 * docs/teams.md: members and API keys, changed through the organisation's stream, where the
 * acting member's role and the last owner are decided. Each answer waits for the read models,
 * so a removed member or a revoked key is refused from the next request on.
 */
@Injectable()
export class OrganisationCommands {
  constructor(
    private readonly runner: CommandRunner,
    private readonly projections: ProjectionRunner,
    private readonly founding: OrganisationFounding,
    private readonly commands: CommandBus,
    @Inject(EVENT_STORE) private readonly events: EventStore,
  ) {}

  addMember(caller: AuthenticatedUser, email: string, role: Role): Promise<RegisteredUser> {
    return this.commands.execute(
      new RegisterUser(email, undefined, { organisationId: caller.organisationId, role, by: caller.id, viaKey: caller.apiKey !== undefined }),
    );
  }

  changeRole(caller: AuthenticatedUser, userId: number, role: Role): Promise<void> {
    return this.run(caller, { type: 'ChangeMemberRole', userId, role });
  }

  removeMember(caller: AuthenticatedUser, userId: number): Promise<void> {
    return this.run(caller, { type: 'RemoveMember', userId });
  }

  async createApiKey(caller: AuthenticatedUser, name: string, scopes: Scope[], expiresAt: string | null) {
    const keyId = await this.events.nextId('api_key');
    const { token, prefix } = newApiKey();
    const viaKey = caller.apiKey && { scopes: caller.apiKey.scopes, expiresAt: caller.apiKey.expiresAt };
    await this.run(caller, { type: 'CreateApiKey', keyId, name, scopes, prefix, tokenHash: hashToken(token), expiresAt, viaKey });
    return { keyId, token };
  }

  revokeApiKey(caller: AuthenticatedUser, keyId: number): Promise<void> {
    return this.run(caller, { type: 'RevokeApiKey', keyId });
  }

  private async run(caller: AuthenticatedUser, command: ByMember<OrganisationCommand>): Promise<void> {
    await this.founding.ensure(caller.organisationId);
    const decided = { ...command, by: caller.id } as OrganisationCommand;
    const { position } = await this.runner.run(organisationStream(caller.organisationId), organisationDecider, decided);
    if (position !== null) await this.projections.settle(position);
  }
}
