import { ArgumentMetadata, HttpException, Injectable, PipeTransform } from '@nestjs/common';
import { ValidationError, validate } from 'class-validator';
import { FieldErrors } from '../domain-error';
import { setAsideProtoKeys } from './proto-keys';
import { dtoInstance } from './dto-instance';
import { attribute } from './attribute';

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

export { attribute };

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
  /** Put the first field message in `message` (tool create, lead create) instead of "Validation failed". */
  firstErrorAsMessage?: boolean;
}

/** The refusal of a body that is not a JSON object: no field can be judged. */
function notAnObject(options: AppValidationOptions): ValidationFailed {
  const message = 'The request body must be a JSON object.';
  return new ValidationFailed({ body: [message] }, options.firstErrorAsMessage ? message : undefined);
}

/** Builds the DTO from a body (unknown fields dropped, values not coerced) and checks its rules. */
async function checkAgainst<T extends object>(type: new () => T, value: unknown, options: AppValidationOptions) {
  // No body at all reads as an empty one; `null` or any other non-object is refused.
  const sent = value === undefined ? {} : value;
  if (sent === null || typeof sent !== 'object' || Array.isArray(sent)) throw notAnObject(options);
  const { body, errors: keyErrors } = setAsideProtoKeys(sent as Record<string, unknown>);
  const shapeErrors: FieldErrors = {};
  const instance = dtoInstance(type, body, shapeErrors);
  const failed = await validate(instance, { whitelist: true, forbidUnknownValues: false, stopAtFirstError: true });
  const errors = { ...keyErrors, ...shapeErrors, ...collectErrors(failed) };
  for (const field of Object.keys({ ...keyErrors, ...shapeErrors })) (instance as Record<string, unknown>)[field.split('.')[0]] = undefined;
  return { instance, failed, errors };
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
    const { instance, errors } = await checkAgainst(type as new () => object, value, this.options);
    const fields = Object.keys(errors);
    if (fields.length) throw new ValidationFailed(errors, this.options.firstErrorAsMessage ? errors[fields[0]][0] : 'Validation failed');
    return instance;
  }
}

/** A body checked against its DTO without refusing it: the fields that passed their rules, and the errors of the others. */
export interface CheckedBody<T> {
  /** The DTO, the fields in error taken out. */
  fields: T;
  errors: FieldErrors;
}

/**
 * Checks a body as AppValidationPipe does, but field errors do not refuse it here: they travel
 * with the valid fields to the decider, which answers them together with those it finds
 * (references, duplicates, rules over stored state), as Laravel answers every failed rule at
 * once. A body that is not an object is still refused here.
 */
export class CheckedBodyPipe<T extends object> implements PipeTransform<unknown, Promise<CheckedBody<T>>> {
  constructor(
    private readonly type: new () => T,
    private readonly options: AppValidationOptions = {},
  ) {}

  async transform(value: unknown): Promise<CheckedBody<T>> {
    const { instance, failed, errors } = await checkAgainst(this.type, value, this.options);
    for (const error of failed) (instance as Record<string, unknown>)[error.property] = undefined;
    return { fields: instance, errors };
  }
}
