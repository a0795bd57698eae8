import { DiscoveryService } from '@nestjs/core';
import { RecordedEvent } from '../../shared/ports/event-store.port';

/**
 * Work that must happen because an event happened and must survive a crash: placing a
 * call, applying its outcome to the lead, delivering a webhook. A reactor sees every event
 * once, in order, from a checkpoint kept in the read store; it may see an event again after
 * a crash, so `react` must be idempotent (the event store's expected revisions make it so).
 */
export interface Reactor {
  /** Checkpoint name. */
  readonly name: string;
  /** The event types it may react to: the store hands over no others. */
  readonly eventTypes: readonly string[];
  /** A finer choice among those events; without it, every one is handled. */
  handles?(event: RecordedEvent): boolean;
  react(event: RecordedEvent): Promise<void>;
  /** Told when one of its events failed and was parked, to show the failure where its owner sees it. */
  onParked?(event: RecordedEvent, error: string, retryAt: Date): Promise<void>;
}

/** Marks a provider as a reactor for the runner to discover. */
export const ReactsToEvents = DiscoveryService.createDecorator<void>();

/** False in the CLI: it shares the stores but must not dial, sweep or deliver. */
export const BACKGROUND_WORK = Symbol('BACKGROUND_WORK');
