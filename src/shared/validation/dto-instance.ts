import { plainToInstance } from 'class-transformer';
import type { MetadataStorage } from 'class-transformer/types/MetadataStorage';
import { ValidationTypes, getMetadataStorage } from 'class-validator';
import { FieldErrors } from '../domain-error';
import { attribute } from './attribute';

// Where `@Type` is recorded: class-transformer's own registry, which its package exports untyped.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as { defaultMetadataStorage: MetadataStorage };

const isPlainObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Builds a DTO from a JSON body. class-transformer converts the scalar fields (a query's
 * `@Type(() => Number)`) and fields typed as nested DTOs are built the same way, item by item;
 * every other object or array is kept exactly as sent. class-transformer never sees those: it
 * calls `new value.constructor()` on an untyped object (a 500 for `{"constructor": {}}`) and
 * drops keys that name Object.prototype's methods (`toString` in `variables`).
 * `__proto__` keys are set aside before this (see proto-keys).
 */
export function dtoInstance<T extends object>(type: new () => T, plain: Record<string, unknown>, shapeErrors: FieldErrors = {}, parent = ''): T {
  const scalars: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(plain)) if (value === null || typeof value !== 'object') scalars[key] = value;
  const instance = plainToInstance(type, scalars, { exposeDefaultValues: true }) as Record<string, unknown>;
  for (const [key, value] of Object.entries(plain)) {
    // A key the DTO inherits (`constructor`, `toString`) is no field of it: set, it would hide the
    // DTO's class from the validator, which finds the rules through `instance.constructor`.
    if (value === null || typeof value !== 'object' || (key in instance && !Object.hasOwn(instance, key))) continue;
    const nested = nestedType(type, key);
    const path = `${parent}${key}`;
    // A list of nested objects holding anything else (an array, a string, null) is refused at that item's
    // path; the list is then left out, so no rule reads into it and nothing of it reaches a handler.
    const notObjects = nested && Array.isArray(value) && isListOf(type, key) ? value.flatMap((item, i) => (isPlainObject(item) ? [] : [i])) : [];
    if (notObjects.length) {
      for (const i of notObjects) shapeErrors[`${path}.${i}`] = [`The ${attribute(`${path}.${i}`)} field must be an object.`];
      continue;
    }
    const build = (item: unknown, i?: number) =>
      nested && isPlainObject(item) ? dtoInstance(nested, item, shapeErrors, i === undefined ? `${path}.` : `${path}.${i}.`) : item;
    instance[key] = Array.isArray(value) ? value.map((item, i) => build(item, i)) : build(value);
  }
  return instance as T;
}

/** Whether the field is a list of nested objects (`@ValidateNested({ each: true })`), not one nested object. */
function isListOf(type: new () => object, key: string): boolean {
  return getMetadataStorage()
    .getTargetValidationMetadatas(type, '', true, false)
    .some((meta) => meta.propertyName === key && meta.type === ValidationTypes.NESTED_VALIDATION && meta.each === true);
}

/** The DTO class a field is typed with by `@Type`, when it is one (not Number, String...). */
function nestedType(type: new () => object, key: string): (new () => object) | null {
  const metadata = defaultMetadataStorage.findTypeMetadata(type, key);
  const nested = metadata?.typeFunction() as (new () => object) | undefined;
  return nested && ![Number, String, Boolean, Date, Object, Array].includes(nested as never) ? nested : null;
}
