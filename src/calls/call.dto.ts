import { Type } from 'class-transformer';
import { IsOptional, Min } from 'class-validator';
import { PageQuery } from '../shared/http/page-query';
import { DateYmd, HttpUrl, Int, Num, Obj, OneOf, Phone, Required, Rules, Str } from '../shared/validation/rules';
import { ANSWERED_BY, AnsweredBy, CALL_STATUSES, CALL_TYPES, CallStatus, CallType } from './call.events';

const NonNegative = () => Min(0, { message: 'The :attribute field must be at least 0.' });

/** The body of a telephony event: a status and whatever the runtime knows by then. */
export class CallEventDto {
  @Rules(Required(), OneOf(CALL_STATUSES)) status!: CallStatus;
  @IsOptional() @Rules(OneOf(ANSWERED_BY)) answered_by?: AnsweredBy;
  @IsOptional() @Rules(Int(), NonNegative()) duration?: number;
  @IsOptional() @Rules(Str()) transcript?: string;
  @IsOptional() @Rules(HttpUrl()) recording_url?: string;
  @IsOptional() @Rules(Num(), NonNegative()) carrier_cost?: number;
  @IsOptional() @Rules(Num(), NonNegative()) total_cost?: number;
  @IsOptional() @Rules(Obj()) variables?: Record<string, unknown>;
  @IsOptional() @Rules(Obj()) evaluation?: Record<string, unknown>;
}

export class InboundCallDto {
  /** The provider's own reference for the call, kept for its records. */
  @IsOptional() @Rules(Str()) call_id?: string;
  @Rules(Required(), Str(), Phone()) from!: string;
  @Rules(Required(), Str(), Phone()) to!: string;
}

export class CallListQuery extends PageQuery(15) {
  @IsOptional() @Rules(OneOf(CALL_STATUSES)) status?: CallStatus;
  @IsOptional() @Rules(OneOf(CALL_TYPES)) type?: CallType;
  @IsOptional() @Rules(Str()) phone_number?: string;
  @IsOptional() @Type(() => Number) @Rules(Int()) assistant_id?: number;
  @IsOptional() @Type(() => Number) @Rules(Int()) campaign_id?: number;
  @IsOptional() @Rules(DateYmd()) date_from?: string;
  @IsOptional() @Rules(DateYmd()) date_to?: string;
}
