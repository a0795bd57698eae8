import { Injectable } from '@nestjs/common';
import { CommandRunner } from '../infrastructure/event-sourcing/command-runner';
import { HolderStatus } from '../infrastructure/reservations/reservation.decider';
import { Reservations } from '../infrastructure/reservations/reservations';
import { phoneNumberDecider } from './phone-number.decider';
import { phoneNumberStream } from './phone-number.events';
import { PhoneNumbersProjection } from './phone-numbers.projection';

/** One reservation stream per user and number: the user's phone-number records of it. */
export const phoneNumberOwnerStream = (userId: number, e164: string) => `phone_number_owner-${userId}_${e164.replace(/^\+/, '')}`;

/** Contract §4: a user holds a number once, decided by an append to the number's reservation stream. */
@Injectable()
export class PhoneNumberOwners {
  constructor(
    private readonly reservations: Reservations,
    private readonly runner: CommandRunner,
    private readonly numbers: PhoneNumbersProjection,
  ) {}

  /** Takes the number for a record about to be added; false when the user holds it already. */
  take(userId: number, e164: string, id: number): Promise<boolean> {
    return this.reservations.reserve(
      phoneNumberOwnerStream(userId, e164),
      id,
      1,
      (holder) => this.statusOf(holder),
      // Numbers added before they had reservation streams.
      async () => (await this.numbers.numbers.find({ user_id: userId, phone_number: e164 })).map((n) => n.id),
    );
  }

  private async statusOf(id: number): Promise<HolderStatus> {
    const { state } = await this.runner.load(phoneNumberStream(id), phoneNumberDecider);
    if (state.userId === null) return 'absent';
    return state.removed ? 'gone' : 'live';
  }
}
