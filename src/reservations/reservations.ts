import { Injectable } from '@nestjs/common';
import { CommandRunner } from '../infrastructure/event-sourcing/command-runner';
import { HolderStatus, HoldersChanged, NoPlaceLeft, ReservationCommand, reservationDecider } from './reservation.decider';

/** Holders of data written before the stream existed: they are put in when it is first written to. */
export type EarlierHolders = () => Promise<number[]>;

/**
 * Takes places of reservation streams (see reservation.decider). An attempt reads the stream
 * and appends with its revision: a conflict means another taker got in first, and the attempt
 * is made again on what it wrote. The holders' own streams are read only when the stream has
 * holders the attempt has not judged yet, so a place in a new stream costs one append.
 */
@Injectable()
export class Reservations {
  constructor(private readonly runner: CommandRunner) {}

  /** Takes one of `capacity` places for `holder`; false when every place is held. */
  async reserve(
    stream: string,
    holder: number,
    capacity: number,
    statusOf: (holder: number) => Promise<HolderStatus>,
    earlier: EarlierHolders = async () => [],
  ): Promise<boolean> {
    const statuses = new Map<number, HolderStatus>();
    const command: ReservationCommand = { type: 'Reserve', holder, capacity, statuses, earlier: await earlier() };
    // Most places are taken in a stream no one wrote yet: the first attempt appends without
    // reading, expecting no stream; a stream that exists makes it a conflict, and the next reads.
    for (let attempt = 0; ; attempt++) {
      try {
        if (await this.runner.tryRun(stream, reservationDecider, command, { newStream: attempt === 0 })) return true;
      } catch (error) {
        if (error instanceof NoPlaceLeft) return false;
        if (!(error instanceof HoldersChanged)) throw error;
        for (const h of error.holders) statuses.set(h, await statusOf(h));
      }
    }
  }

  /**
   * Runs `create` for a holder whose place was just taken; when it fails and the holder's own
   * stream shows it was not made, the place is given back before the failure goes on, so the same
   * request made again finds it free (docs/api.md: nothing is half-written).
   */
  async creating<T>(stream: string, holder: number, exists: () => Promise<boolean>, create: () => Promise<T>): Promise<T> {
    try {
      return await create();
    } catch (error) {
      if (!(await exists().catch(() => true)))
        await this.runner.run(stream, reservationDecider, { type: 'Release', holder }, { retries: 100 }).catch(() => undefined);
      throw error;
    }
  }

  /** Takes a place whatever the others hold: the holder uses it by a rule that allows it. */
  async register(stream: string, holder: number, earlier: EarlierHolders = async () => []): Promise<void> {
    await this.runner.run(stream, reservationDecider, { type: 'Register', holder, earlier: await earlier() }, { retries: 100, newStream: true });
  }
}
