import {
  IsEmail,
  IsArray,
  IsBoolean,
  IsIn,
  IsISO8601,
  IsNumber,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  IsOptional,
  ValidateBy,
  ValidateIf,
  ValidationOptions,
} from 'class-validator';
import { DateTime, IANAZone } from 'luxon';
import { toE164 } from '../phone';

/**
 * Validation rules with Laravel's wording. `:attribute` is replaced by the field's full
 * path with underscores read as spaces ("assistant_name" → "assistant name") when the
 * errors are collected, so nested items read "The schema.0.name field ...".
 */
/** A field that may be left out; sent as null it is checked (and refused) like any other value. */
export const Optional = () => ValidateIf((_object, value) => value !== undefined);

/** A field the interface marks nullable: left out or null, its other rules are skipped. */
export const Nullable = () => IsOptional();

const m = (message: string, each = false): ValidationOptions => ({ message, each });

export const Required = () =>
  ValidateBy({
    name: 'required',
    validator: {
      validate: (value) => value !== undefined && value !== null && !(typeof value === 'string' && value.trim() === ''),
      defaultMessage: () => 'The :attribute field is required.',
    },
  });

export const Str = () => IsString(m('The :attribute field must be a string.'));
export const MaxLen = (n: number) => MaxLength(n, m(`The :attribute field must not be greater than ${n} characters.`));
export const LenBetween = (min: number, max: number) => [
  MinLength(min, m(`The :attribute field must be between ${min} and ${max} characters.`)),
  MaxLength(max, m(`The :attribute field must be between ${min} and ${max} characters.`)),
];
/** A whole number JavaScript holds exactly: past 2^53 an id or a count would name another one. */
export const Int = () =>
  ValidateBy({
    name: 'isInt',
    validator: {
      validate: (value) => Number.isSafeInteger(value),
      defaultMessage: () => 'The :attribute field must be an integer.',
    },
  });

/** An email address as RFC 5321 bounds it (validator.js's check). */
export const Email = () => IsEmail({}, m('The :attribute field must be a valid email address.'));
export const Num = () => IsNumber({ allowNaN: false, allowInfinity: false }, m('The :attribute field must be a number.'));
export const Between = (min: number, max: number) => [
  Min(min, m(`The :attribute field must be between ${min} and ${max}.`)),
  Max(max, m(`The :attribute field must be between ${min} and ${max}.`)),
];
export const Bool = () => IsBoolean(m('The :attribute field must be true or false.'));
export const OneOf = (values: readonly unknown[], each = false) => IsIn(values as unknown[], m('The selected :attribute is invalid.', each));
export const Pattern = (pattern: RegExp) => Matches(pattern, m('The :attribute field format is invalid.'));
export const Arr = () => IsArray(m('The :attribute field must be an array.'));

/** An ISO 8601 instant or date that exists (strict: no 30 February). */
/** ISO 8601's extended calendar form (a date, or a date and time with an optional offset): what `Date.parse` reads alike everywhere. */
const CALENDAR_INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}(:?\d{2})?)?)?$/;

/**
 * An ISO 8601 instant the service reads as written: the basic (`20300101`), week and ordinal
 * forms pass validator.js's check but JavaScript's parser reads them as nothing (a 500 then) or as
 * another day, and it rolls 30 February into March: all refused here.
 */
export const Iso8601 = () => [
  IsISO8601({ strict: true, strictSeparator: true }, m('The :attribute field must be a valid ISO 8601 date.')),
  ValidateBy({
    name: 'readableInstant',
    validator: {
      validate: (value) => typeof value !== 'string' || (CALENDAR_INSTANT.test(value) && DateTime.fromISO(value).isValid),
      defaultMessage: () => 'The :attribute field must be a valid ISO 8601 date.',
    },
  }),
];

/** A calendar date written `YYYY-MM-DD` that exists. */
export const DateYmd = () => [
  Matches(/^\d{4}-\d{2}-\d{2}$/, m('The :attribute field must match the format Y-m-d.')),
  IsISO8601({ strict: true }, m('The :attribute field must match the format Y-m-d.')),
];

const isObject = (value: unknown) => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A JSON object (Laravel calls it an array, and so does its message). */
export const Obj = () =>
  ValidateBy({
    name: 'object',
    validator: {
      validate: isObject,
      defaultMessage: () => 'The :attribute field must be an array.',
    },
  });

export const HttpUrl = () =>
  ValidateBy({
    name: 'url',
    validator: {
      validate: (value) => {
        if (typeof value !== 'string' || value.length > 2048) return false;
        try {
          const url = new URL(value);
          return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
        } catch {
          return false;
        }
      },
      defaultMessage: () => 'The :attribute field must be a valid URL.',
    },
  });

/** Applies several property decorators as one. */
export function Rules(...decorators: Array<PropertyDecorator | PropertyDecorator[]>): PropertyDecorator {
  return (target, key) => decorators.flat().forEach((d) => d(target, key));
}

/** A phone number written with its `+` country code that a real numbering plan accepts (stored as E.164). */
export const Phone = () =>
  ValidateBy({
    name: 'phone',
    validator: {
      validate: (value) => toE164(value) !== null,
      defaultMessage: () => 'The :attribute field must be a valid phone number in E.164 format.',
    },
  });

const isScalar = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);

/** Key-value variables: an object of at most `maxKeys` string, number, boolean or null values. */
export const Variables = (maxKeys = 100) =>
  ValidateBy({
    name: 'variables',
    validator: {
      validate: (value) =>
        value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length <= maxKeys && Object.values(value).every(isScalar),
      defaultMessage: (args) => {
        const value = args?.value;
        if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'The :attribute field must be an array.';
        if (Object.keys(value).length > maxKeys) return `The :attribute field must not have more than ${maxKeys} items.`;
        return 'The :attribute field values must be strings, numbers, booleans or null.';
      },
    },
  });

/** An IANA zone (`America/New_York`) or `UTC`. */
export const Timezone = () =>
  ValidateBy({
    name: 'timezone',
    validator: {
      validate: (value) => value === 'UTC' || (typeof value === 'string' && value.includes('/') && IANAZone.isValidZone(value)),
      defaultMessage: () => 'The :attribute field must be a valid timezone.',
    },
  });
