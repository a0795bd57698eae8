import { ArgumentMetadata, HttpException, Injectable, PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { ValidationError, validate } from 'class-validator';
import { FieldErrors } from '../domain-error';

export type { FieldErrors };

/** A 422 carrying Laravel's body: `{message, errors: {field: [messages]}}`. */
export class ValidationFailed extends HttpException {
  constructor(
    readonly errors: FieldErrors,
    message = 'Validation failed',
  ) {
    super({ message, errors }, 422);
  }
}

export const attribute = (path: string) => path.replace(/_/g, ' ');

/** class-validator's own refusals, in the wording of the rules (a nested value that is not an object or array). */
const OWN_WORDING: Record<string, string> = { nestedValidation: 'The :attribute field must be an array.' };

/** Flattens class-validator's tree into dotted field paths, one message per failed rule. */
export function collectErrors(errors: ValidationError[], parent = ''): FieldErrors {
  const out: FieldErrors = {};
  for (const error of errors) {
    const path = parent ? `${parent}.${error.property}` : error.property;
    if (error.constraints) {
      out[path] = Object.entries(error.constraints).map(([rule, msg]) => (OWN_WORDING[rule] ?? msg).replace(/:attribute/g, attribute(path)));
    }
    if (error.children?.length) Object.assign(out, collectErrors(error.children, path));
  }
  return out;
}

export interface AppValidationOptions {
  /**
   * Put the first field message in `message` (tool create, lead create) instead of "Validation
   * failed". With `defer`, the decider words field refusals; this still words a body that is not
   * an object.
   */
  firstErrorAsMessage?: boolean;
  /**
   * Field errors do not refuse the request here: the fields in error are taken out of the body
   * and their errors travel with it (`inputErrors`) to the decider, which answers them together
   * with those it finds (references, duplicates, rules over stored state), as Laravel answers
   * every failed rule at once.
   */
  defer?: boolean;
}

const deferred = new WeakMap<object, FieldErrors>();

/** The field errors a deferring pipe found in this body; empty when it had none. */
export function inputErrors(body: object): FieldErrors {
  return deferred.get(body) ?? {};
}

/**
 * Validates a body or query against its DTO class. Unknown fields are dropped; values
 * are not coerced (a query DTO converts its own fields with @Type).
 */
@Injectable()
export class AppValidationPipe implements PipeTransform {
  constructor(private readonly options: AppValidationOptions = {}) {}

  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const type = metadata.metatype;
    if (!type || [String, Number, Boolean, Array, Object].includes(type as never)) return value;
    const body = value === undefined || value === null ? {} : value;
    if (typeof body !== 'object' || Array.isArray(body)) {
      throw new ValidationFailed({ body: ['The request body must be a JSON object.'] }, this.options.firstErrorAsMessage ? 'The request body must be a JSON object.' : undefined);
    }
    const instance = plainToInstance(type as new () => object, body, { exposeDefaultValues: true });
    const failed = await validate(instance, { whitelist: true, forbidUnknownValues: false, stopAtFirstError: true });
    const errors = collectErrors(failed);
    const fields = Object.keys(errors);
    if (!fields.length) return instance;
    if (this.options.defer) {
      for (const error of failed) (instance as Record<string, unknown>)[error.property] = undefined;
      deferred.set(instance, errors);
      return instance;
    }
    throw new ValidationFailed(errors, this.options.firstErrorAsMessage ? errors[fields[0]][0] : 'Validation failed');
  }
}
