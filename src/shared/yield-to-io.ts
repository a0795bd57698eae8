import { setImmediate } from 'node:timers/promises';

/**
 * Lets pending I/O (HTTP requests above all) run before more background work. The store
 * calls are synchronous, so a background loop of awaits on them would otherwise run as
 * one unbroken chain of microtasks and starve the API while it lasts.
 */
export const yieldToIo = (): Promise<void> => setImmediate();

/** A long computation written as a generator (each `yield` ends a step), run to its end with pending I/O let in between steps. */
export async function runInSteps<T>(steps: Generator<void, T>): Promise<T> {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await yieldToIo();
  }
}

/** The same computation run to its end at once (where nothing else waits: a test, a script). */
export function runToEnd<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** True at every `n`th call: where a loop of a computation in steps ends a step. */
export function everyNth(n: number): () => boolean {
  let count = 0;
  return () => ++count % n === 0;
}

/** `each` called for every item, a step every `itemsAStep` items (a large campaign's leads). */
export function* forEachInSteps<T>(items: readonly T[], each: (item: T) => unknown, itemsAStep = 1000): Generator<void, void> {
  const step = everyNth(itemsAStep);
  for (const item of items) {
    each(item);
    if (step()) yield;
  }
}
