import { PartialType } from '@nestjs/mapped-types';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayUnique, ArrayNotEmpty, ValidateBy, ValidateNested } from 'class-validator';
import { isHolidayCode } from '../shared/compliance/public-holidays';
import { Arr, Between, Bool, Int, MaxLen, Nullable, Num, Obj, OneOf, Pattern, Required, Rules, Str, Optional } from '../shared/validation/rules';
import { WEEKDAYS, Weekday } from '../shared/calling-window';
import { FailureBreaker, RETRY_OUTCOMES, RetryPolicyByOutcome, WINDOW_TIMEZONES, WindowTimezone } from './campaign.events';

/** Keyed by outcome only. */
const OutcomeKeys = () =>
  ValidateBy({
    name: 'outcomeKeys',
    validator: {
      validate: (value) => value !== null && typeof value === 'object' && Object.keys(value).every((k) => (RETRY_OUTCOMES as readonly string[]).includes(k)),
      defaultMessage: () => `The :attribute field may only hold ${RETRY_OUTCOMES.join(', ')}.`,
    },
  });

export class OutcomeRetryDto {
  @Rules(Required(), Bool()) retry!: boolean;
  @Optional() @Rules(Int(), Between(0, 604800)) delay_seconds?: number;
}

export class FailureBreakerDto {
  @Optional() @Rules(Int(), Between(5, 1000)) window?: number;
  @Optional() @Rules(Num(), Between(0, 1)) max_failure_ratio?: number;
}

export class RetryPolicyDto {
  @Optional() @ValidateNested() @Type(() => OutcomeRetryDto) @Rules(Obj()) busy?: OutcomeRetryDto;
  @Optional() @ValidateNested() @Type(() => OutcomeRetryDto) @Rules(Obj()) 'no-answer'?: OutcomeRetryDto;
  @Optional() @ValidateNested() @Type(() => OutcomeRetryDto) @Rules(Obj()) machine?: OutcomeRetryDto;
  @Optional() @ValidateNested() @Type(() => OutcomeRetryDto) @Rules(Obj()) failed?: OutcomeRetryDto;
}

/** Each item a date-holidays country or region code (`US`, `US-CA`, `DE`). */
const HolidayCodes = () =>
  ValidateBy({
    name: 'holidayCodes',
    validator: {
      validate: (value) => Array.isArray(value) && value.every((code) => typeof code === 'string' && isHolidayCode(code)),
      defaultMessage: () => 'The selected :attribute is invalid.',
    },
  });

const HH_MM = /^(([01]\d|2[0-3]):[0-5]\d|24:00)$/;

export class CallingHoursDto {
  @Rules(Required(), Str(), Pattern(HH_MM)) start!: string;
  @Rules(Required(), Str(), Pattern(HH_MM)) end!: string;
}

export class CreateCampaignDto {
  @Rules(Required(), Str(), MaxLen(255)) name!: string;
  @Rules(Required(), Int()) assistant_id!: number;
  @Optional() @Rules(Int(), Between(0, 20)) max_retries?: number;
  @Optional() @Rules(Int(), Between(0, 604800)) retry_delay_seconds?: number;
  @Optional() @Rules(Obj()) @ValidateNested() @Type(() => CallingHoursDto) calling_hours?: CallingHoursDto;
  // Decorators register bottom-up and the first registered failure is reported: the type check goes last.
  @Optional()
  @ArrayNotEmpty({ message: 'The :attribute field must have at least 1 items.' })
  @ArrayUnique({ message: 'The :attribute field has a duplicate value.' })
  @Rules(Arr(), OneOf(WEEKDAYS, true))
  calling_days?: Weekday[];
  @Optional() @Rules(Int(), Between(1, 100)) max_concurrent_calls?: number;
  @Optional() @Rules(OneOf(WINDOW_TIMEZONES)) window_timezone?: WindowTimezone;
  @Optional()
  @ArrayMaxSize(20, { message: 'The :attribute field must not have more than 20 items.' })
  @ArrayUnique({ message: 'The :attribute field has a duplicate value.' })
  @Rules(Arr(), HolidayCodes())
  holidays?: string[];
  @Optional() @ValidateNested() @Type(() => RetryPolicyDto) @Rules(Obj(), OutcomeKeys()) retry_policy?: RetryPolicyByOutcome;
  @Nullable() @Rules(Int(), Between(1, 6000)) max_calls_per_minute?: number | null;
  @Nullable() @ValidateNested() @Type(() => FailureBreakerDto) @Rules(Obj()) failure_breaker?: FailureBreaker | null;
}

export class UpdateCampaignDto extends PartialType(CreateCampaignDto, { skipNullProperties: false }) {}

export class UpdateCampaignStatusDto {
  @Rules(Required(), Int()) campaign_id!: number;
  @Rules(Required(), OneOf(['start', 'stop'])) action!: 'start' | 'stop';
}
