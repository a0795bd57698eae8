import { Injectable } from '@nestjs/common';
import { RecordedEvent } from '../../shared/ports/event-store.port';

type Upcast = (data: any) => any;

/**
 * Lifts stored events written with an older shape of `data` to the current one, so every
 * reader (deciders, projections, history) sees one shape per event type. An upcaster
 * registered for (type, v) turns version v into version v + 1.
 */
@Injectable()
export class Upcasters {
  private readonly steps = new Map<string, Map<number, Upcast>>();

  register(type: string, fromVersion: number, upcast: Upcast): void {
    if (!this.steps.has(type)) this.steps.set(type, new Map());
    this.steps.get(type)!.set(fromVersion, upcast);
  }

  currentVersion(type: string): number {
    const steps = this.steps.get(type);
    return steps && steps.size ? Math.max(...steps.keys()) + 1 : 1;
  }

  /** The event with its data at the current version. */
  upcast<T extends RecordedEvent>(event: T): T {
    const steps = this.steps.get(event.type);
    if (!steps) return event;
    let { data, schemaVersion } = event;
    for (let step = steps.get(schemaVersion); step; step = steps.get(schemaVersion)) {
      data = step(data);
      schemaVersion += 1;
    }
    return { ...event, data, schemaVersion };
  }
}
