import { ArrayMaxSize, ArrayNotEmpty, ValidateBy } from 'class-validator';
import { PageQuery } from '../shared/http/page-query';
import { toE164 } from '../shared/phone';
import { Arr, MaxLen, Optional, Required, Rules, Str } from '../shared/validation/rules';

export const MAX_NUMBERS_AT_ONCE = 10_000;

const PhoneNumbers = () =>
  ValidateBy({
    name: 'phoneNumbers',
    validator: {
      validate: (value) => Array.isArray(value) && value.every((n) => typeof n === 'string' && toE164(n) !== null),
      defaultMessage: () => 'The :attribute field must hold valid phone numbers in E.164 format.',
    },
  });

export class AddToDoNotCallDto {
  // Decorators register bottom-up and the first registered failure is reported: `Required` goes first.
  @ArrayMaxSize(MAX_NUMBERS_AT_ONCE, { message: `The :attribute field must not have more than ${MAX_NUMBERS_AT_ONCE} items.` })
  @ArrayNotEmpty({ message: 'The :attribute field must have at least 1 items.' })
  @Rules(Required(), Arr(), PhoneNumbers())
  phone_numbers!: string[];
  @Optional() @Rules(Str(), MaxLen(255)) reason?: string;
}

export class DoNotCallListQuery extends PageQuery(15) {
  @Optional() @Rules(Str()) phone_number?: string;
}
