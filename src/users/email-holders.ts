import { Injectable } from '@nestjs/common';
import { hashToken } from '../access/access-token-verifier';
import { CommandRunner } from '../infrastructure/event-sourcing/command-runner';
import { HolderStatus } from '../reservations/reservation.decider';
import { Reservations } from '../reservations/reservations';
import { userDecider } from './user.decider';
import { userStream } from './user.events';
import { UsersProjection } from './users.projection';

/** One reservation stream per email (named by its hash: an address is not put in a stream name). */
const emailHolderStream = (email: string) => `email_holder-${hashToken(email).slice(0, 40)}`;

/** An email is one user's: decided by an append to the email's reservation stream, so of racing registrations one wins. */
@Injectable()
export class EmailHolders {
  constructor(
    private readonly reservations: Reservations,
    private readonly runner: CommandRunner,
    private readonly users: UsersProjection,
  ) {}

  /** Takes the email for a user about to be registered; false when another user has it. */
  take(email: string, userId: number): Promise<boolean> {
    return this.reservations.reserve(
      emailHolderStream(email),
      userId,
      1,
      (holder) => this.statusOf(holder),
      // Users registered before emails had reservation streams.
      async () => (await this.users.users.find({ email })).map((user) => user.id),
    );
  }

  /** Registers the user with `register`; a registration that failed gives the email back. */
  registering<T>(email: string, userId: number, register: () => Promise<T>): Promise<T> {
    return this.reservations.creating(emailHolderStream(email), userId, async () => (await this.statusOf(userId)) === 'live', register);
  }

  private async statusOf(id: number): Promise<HolderStatus> {
    const { state } = await this.runner.load(userStream(id), userDecider);
    return state.registered ? 'live' : 'absent';
  }
}
