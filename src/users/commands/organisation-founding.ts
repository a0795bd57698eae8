import { Injectable } from '@nestjs/common';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { ConcurrencyError } from '../../shared/ports/event-store.errors';
import { DomainError } from '../../shared/domain-error';
import { organisationDecider } from '../organisation.decider';
import { organisationStream } from '../organisation.events';
import { UsersProjection } from '../users.projection';

/**
 * A user from a store older than organisations (docs/teams.md) has one in the read model, of its
 * own id, from its `UserRegistered`; its stream is founded the first time it is changed. No
 * event is rewritten: the founding is a new event, marked `upgraded`.
 */
@Injectable()
export class OrganisationFounding {
  constructor(
    private readonly runner: CommandRunner,
    private readonly users: UsersProjection,
  ) {}

  async ensure(organisationId: number): Promise<void> {
    const { state } = await this.runner.load(organisationStream(organisationId), organisationDecider);
    if (state.id !== null) return;
    const founder = await this.users.users.get(organisationId);
    if (!founder || founder.organisation_id !== organisationId) throw DomainError.notFound('Organisation');
    try {
      const found = { type: 'FoundOrganisation' as const, organisationId, ownerUserId: founder.id, email: founder.email, upgraded: true };
      await this.runner.run(organisationStream(organisationId), organisationDecider, found, { retries: 0, newStream: true });
    } catch (error) {
      if (!(error instanceof ConcurrencyError)) throw error; // founded meanwhile by another request
    }
  }
}
