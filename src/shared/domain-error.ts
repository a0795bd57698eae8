/**
 * A refusal decided by the domain. Deciders throw it; the HTTP layer turns its kind into
 * a status code and its message (and field errors) into the body.
 */
export type DomainErrorKind = 'not_found' | 'validation' | 'conflict' | 'forbidden';

/** Messages by field path, as a 422 answers them: `{field: [messages]}`. */
export type FieldErrors = Record<string, string[]>;

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    readonly errors?: FieldErrors,
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

  /**
   * The refusal of a request whose own fields failed their rules (`input`, found before the
   * decision) or whose decision found more (`found`); a field keeps its input errors. Null when
   * there are none. `message` is `Validation failed`, or the first field message when asked.
   */
  static invalid(input: FieldErrors, found: FieldErrors, firstAsMessage = false): DomainError | null {
    const errors = { ...input };
    for (const [field, messages] of Object.entries(found)) if (!(field in errors)) errors[field] = messages;
    const fields = Object.keys(errors);
    if (!fields.length) return null;
    return new DomainError('validation', firstAsMessage ? errors[fields[0]][0] : 'Validation failed', errors);
  }
}
