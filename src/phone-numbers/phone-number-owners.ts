import { Injectable } from '@nestjs/common';
import { CommandRunner } from '../infrastructure/event-sourcing/command-runner';
import { HolderStatus } from '../reservations/reservation.decider';
import { Reservations } from '../reservations/reservations';
import { phoneNumberDecider } from './phone-number.decider';
import { phoneNumberStream } from './phone-number.events';
import { PhoneNumbersProjection } from './phone-numbers.projection';

/**
 * One reservation stream per number: its caller id and its inbound calls are one account's alone
 * (docs/teams.md; until organisations, each user is its own). Streams of before were per user and
 * number (`phone_number_owner-<user>_<digits>`); records they reserved are found as legacy holders.
 */
export const phoneNumberOwnerStream = (e164: string) => `phone_number_holder-${e164.replace(/^\+/, '')}`;

/** docs/api.md, docs/teams.md: a number is held by one record at a time, decided by an append to the number's reservation stream. */
@Injectable()
export class PhoneNumberOwners {
  constructor(
    private readonly reservations: Reservations,
    private readonly runner: CommandRunner,
    private readonly numbers: PhoneNumbersProjection,
  ) {}

  /** Takes the number for a record about to be added; false when a live record holds it already, whoever's. */
  take(e164: string, id: number): Promise<boolean> {
    return this.reservations.reserve(
      phoneNumberOwnerStream(e164),
      id,
      1,
      (holder) => this.statusOf(holder),
      // Numbers added before they had reservation streams.
      async () => (await this.numbers.numbers.find({ phone_number: e164 })).map((n) => n.id),
    );
  }

  private async statusOf(id: number): Promise<HolderStatus> {
    const { state } = await this.runner.load(phoneNumberStream(id), phoneNumberDecider);
    if (state.organisationId === null) return 'absent';
    return state.removed ? 'gone' : 'live';
  }
}
