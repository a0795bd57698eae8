/**
 * A refusal decided by the domain. Deciders throw it; the HTTP layer turns its kind into
 * a status code and its message (and field errors) into the body.
 */
export type DomainErrorKind = 'not_found' | 'validation' | 'conflict' | 'forbidden';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    readonly errors?: Record<string, string[]>,
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DomainError';
  }

  static notFound(thing: string, extra?: Record<string, unknown>): DomainError {
    return new DomainError('not_found', `${thing} not found`, undefined, extra);
  }

  static validation(field: string, message: string, topMessage = 'Validation failed'): DomainError {
    return new DomainError('validation', topMessage, { [field]: [message] });
  }
}
