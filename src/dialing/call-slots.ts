import { Inject, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { isTerminal } from '../calls/call-status';
import { CallsQueries } from '../calls/calls.queries';
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
    private readonly calls: CallsQueries,
    private readonly clock: Clock,
    @Inject(EVENT_STORE) private readonly events: EventStore,
  ) {}

  /** The places each stream held after this process's last take there: whose calls to look at first. */
  private readonly lastHeld = new LRUCache<string, readonly CallSlot[]>({ max: 10_000 });

  /** Runs a command on a slots stream; once it carried the places forward, the stream is read from there on. */
  private async run(stream: string, command: CallSlotsCommand) {
    const result = await this.runner.run(stream, callSlotsDecider, command, { retries: 50 });
    if (result.revision !== null && result.events.at(-1)?.type === 'CallSlotsCarriedForward') await this.events.truncateBefore(stream, result.revision);
    return result;
  }

  /**
   * Places for as many of `wanted` as `capacity` allows, in order; answers those that got one.
   * When fewer are free than asked for, the holders are judged once: a place whose call ended or
   * whose claim was lost is freed in the same append. A call's end writes nothing here.
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
    // The places of calls shown ended since this take's last go back in its own append.
    let statuses = await this.ended(this.lastHeld.get(stream) ?? []);
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
      this.lastHeld.set(stream, result.state.held);
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

  /** The places whose calls the read model shows ended (an end is never undone). */
  private async ended(held: readonly CallSlot[]): Promise<Map<number, SlotStatus>> {
    const calls = await this.calls.getMany(held.map((slot) => slot.call_id));
    return new Map(calls.flatMap((call) => (isTerminal(call.status) ? [[call.id, 'gone' as const]] : [])));
  }

  /**
   * Whether each place's call is still in flight. A call the read model shows ended is not (one
   * not shown yet keeps its place a little longer, never too short). A place without such a call
   * is live while its claim may still be under way, then as its lead says.
   */
  private async judge(held: ReadonlyArray<CallSlot & { at: string }>): Promise<Map<number, SlotStatus>> {
    const now = this.clock.now().getTime();
    const ended = await this.ended(held);
    const judged = await Promise.all(
      held.map(async (slot): Promise<[number, SlotStatus]> => {
        if (ended.has(slot.call_id)) return [slot.call_id, 'gone'];
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
