import { DiscoveryService } from '@nestjs/core';
import { RecordedEvent } from '../../shared/ports/event-store.port';

/**
 * A read-model projection. `apply` must be deterministic and write through the document
 * store with the event's position, so applying an event twice changes nothing.
 */
export interface ReadModelProjection {
  /** Checkpoint name; also what `projections:rebuild --projection` takes. */
  readonly name: string;
  /** Collections it writes, dropped on a rebuild. */
  readonly collections: string[];
  /** The shape of its documents; a different version than the stored one rebuilds it at start. */
  readonly version?: number;
  /** The event types `apply` reads: the runner hands it no others, so `apply` need not check. */
  readonly eventTypes: readonly string[];
  apply(event: RecordedEvent): Promise<void>;
}

/** Marks a provider as a projection for the runner to discover. */
export const Projection = DiscoveryService.createDecorator<void>();
