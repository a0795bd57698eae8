import { Injectable } from '@nestjs/common';
import { CommandRunner } from '../event-sourcing/command-runner';
import { HolderStatus, HoldersChanged, NoPlaceLeft, ReservationState, reservationDecider } from './reservation.decider';

/** Holders of data written before the stream existed: they are put in when it is opened. */
export type ExistingHolders = () => Promise<number[]>;

/**
 * Takes and frees places of reservation streams (see reservation.decider). Each attempt reads
 * the holders' own streams, then appends with the revision the holders were read at: a
 * conflict means another taker got in first, and the attempt is made again on what it wrote.
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
    existing?: ExistingHolders,
  ): Promise<boolean> {
    for (;;) {
      const state = await this.opened(stream, existing);
      const statuses = new Map(await Promise.all(state.holders.map(async ({ holder: h }) => [h, await statusOf(h)] as const)));
      try {
        if (await this.runner.tryRun(stream, reservationDecider, { type: 'Reserve', holder, capacity, statuses })) return true;
      } catch (error) {
        if (error instanceof NoPlaceLeft) return false;
        if (!(error instanceof HoldersChanged)) throw error;
      }
    }
  }

  /** Takes a place whatever the others hold: the holder uses it by a rule that allows it. */
  async register(stream: string, holder: number, existing?: ExistingHolders): Promise<void> {
    await this.opened(stream, existing);
    await this.runner.run(stream, reservationDecider, { type: 'Register', holder }, { retries: 100 });
  }

  /** The stream's state, opened first with the existing holders when it does not exist yet. */
  private async opened(stream: string, existing?: ExistingHolders): Promise<ReservationState> {
    for (;;) {
      const { state, revision } = await this.runner.load(stream, reservationDecider);
      const holders = revision === null && existing ? await existing() : [];
      if (!holders.length) return state;
      // Whoever opens it first wins; either way the next round reads what was written.
      await this.runner.tryRun(stream, reservationDecider, { type: 'Seed', holders }, { newStream: true });
    }
  }
}
