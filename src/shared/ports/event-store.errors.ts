import { ExpectedRevision } from './event-store.port';

/** The stream was not at the expected revision: someone else appended first. */
export class ConcurrencyError extends Error {
  constructor(
    readonly stream: string,
    readonly expected: ExpectedRevision,
    readonly actual: number | 'no_stream',
  ) {
    super(`Stream ${stream} is at revision ${actual}, expected ${expected}`);
    this.name = 'ConcurrencyError';
  }
}
