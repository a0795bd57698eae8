import { setImmediate } from 'node:timers/promises';

/**
 * Lets pending I/O (HTTP requests above all) run before more background work. The store
 * calls are synchronous, so a background loop of awaits on them would otherwise run as
 * one unbroken chain of microtasks and starve the API while it lasts.
 */
export const yieldToIo = (): Promise<void> => setImmediate();
