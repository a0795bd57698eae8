import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE, EventStore } from '../shared/ports/event-store.port';
import { CommandRunner } from '../infrastructure/event-sourcing/command-runner';
import { LeadStates } from '../leads/lead-states';
import { LeadsQueries } from '../leads/leads.queries';
import { Clock } from '../shared/clock';
import {
  CallSlot,
  CallSlotsCommand,
  CallSlotsEvent,
  EarlierSlotsNeeded,
  PENDING_CLAIM_MS,
  SlotStatus,
  callSlotsDecider,
  callSlotsStream,
} from './call-slots.decider';

/** A voice runtime's cap on calls in flight across every campaign and instance (docs/real-calls.md). */
export const runtimeSlotsStream = (provider: string) => `call_slots-runtime_${provider}`;

/**
 * Takes and frees places among a campaign's calls in flight (see call-slots.decider), and among
 * a voice runtime's: the same bookkeeping on a stream of the runtime's own.
 */
@Injectable()
export class CallSlots {
  constructor(
    private readonly runner: CommandRunner,
    private readonly leads: LeadsQueries,
    private readonly leadStates: LeadStates,
    private readonly clock: Clock,
    @Inject(EVENT_STORE) private readonly events: EventStore,
  ) {}

  /** Runs a command on a slots stream; once it carried the places forward, the stream is read from there on. */
  private async run(stream: string, command: CallSlotsCommand) {
    const result = await this.runner.run(stream, callSlotsDecider, command, { retries: 50 });
    if (result.revision !== null && result.events.at(-1)?.type === 'CallSlotsCarriedForward') await this.events.truncateBefore(stream, result.revision);
    return result;
  }

  /**
   * Places for as many of `wanted` as `capacity` allows, in order; answers those that got one.
   * When fewer are free than asked for (the read model had seen room), the holders are judged
   * from their leads once: a place whose call ended or whose claim was lost is freed.
   */
  take(campaignId: number, capacity: number, wanted: readonly CallSlot[]): Promise<CallSlot[]> {
    return this.takeOn(callSlotsStream(campaignId), campaignId, capacity, wanted, () => this.leads.callsInFlight(campaignId));
  }

  /** The same among the runtime's calls in flight; a stream opened now counts every lead's call in flight. */
  takeOnRuntime(provider: string, capacity: number, wanted: readonly CallSlot[]): Promise<CallSlot[]> {
    return this.takeOn(runtimeSlotsStream(provider), 0, capacity, wanted, () => this.leads.callsInFlightAnywhere());
  }

  private async takeOn(
    stream: string,
    campaignId: number,
    capacity: number,
    wanted: readonly CallSlot[],
    inFlight: () => Promise<CallSlot[]>,
  ): Promise<CallSlot[]> {
    let earlier: CallSlot[] | null = null;
    let statuses = new Map<number, SlotStatus>();
    const granted: CallSlot[] = [];
    for (let judged = false; ;) {
      const command = { type: 'TakeCallSlots' as const, campaignId, wanted, capacity, statuses, earlier };
      let result;
      try {
        result = await this.run(stream, command);
      } catch (error) {
        if (!(error instanceof EarlierSlotsNeeded) || earlier) throw error;
        earlier = await inFlight();
        continue;
      }
      granted.push(...takenOf(result.events, wanted));
      if (granted.length === wanted.length || judged) return granted;
      judged = true;
      statuses = await this.judge(result.state.held);
    }
  }

  /** Frees the places of calls that ended, or of claims that were not made. */
  async free(campaignId: number, callIds: readonly number[]): Promise<void> {
    if (callIds.length) await this.run(callSlotsStream(campaignId), { type: 'FreeCallSlots', campaignId, callIds });
  }

  async freeOnRuntime(provider: string, callIds: readonly number[]): Promise<void> {
    if (callIds.length) await this.run(runtimeSlotsStream(provider), { type: 'FreeCallSlots', campaignId: 0, callIds });
  }

  private async judge(held: ReadonlyArray<CallSlot & { at: string }>): Promise<Map<number, SlotStatus>> {
    const now = this.clock.now().getTime();
    const judged = await Promise.all(
      held.map(async (slot): Promise<[number, SlotStatus]> => {
        if (now - Date.parse(slot.at) < PENDING_CLAIM_MS) return [slot.call_id, 'live'];
        const lead = await this.leadStates.current(slot.lead_id);
        return [slot.call_id, lead.exists && lead.inFlight?.callId === slot.call_id ? 'live' : 'gone'];
      }),
    );
    return new Map(judged);
  }
}

function takenOf(events: readonly CallSlotsEvent[], wanted: readonly CallSlot[]): CallSlot[] {
  const ids = new Set(events.flatMap((e) => (e.type === 'CallSlotsTaken' ? e.data.slots.map((s) => s.call_id) : [])));
  return wanted.filter((w) => ids.has(w.call_id));
}
