import { Type } from 'class-transformer';
import { Min } from 'class-validator';
import { PageQuery } from '../shared/http/page-query';
import { Bool, DateYmd, HttpUrl, Int, Num, Obj, OneOf, Phone, Required, Rules, Str, Optional } from '../shared/validation/rules';
import { ANSWERED_BY, AnsweredBy, CALL_STATUSES, CALL_TYPES, CallStatus, CallType } from './call.events';

const NonNegative = () => Min(0, { message: 'The :attribute field must be at least 0.' });

/** The body of a telephony event: a status and whatever the runtime knows by then. */
export class CallEventDto {
  @Rules(Required(), OneOf(CALL_STATUSES)) status!: CallStatus;
  @Optional() @Rules(OneOf(ANSWERED_BY)) answered_by?: AnsweredBy;
  @Optional() @Rules(Int(), NonNegative()) duration?: number;
  @Optional() @Rules(Str()) transcript?: string;
  @Optional() @Rules(HttpUrl()) recording_url?: string;
  @Optional() @Rules(Num(), NonNegative()) carrier_cost?: number;
  @Optional() @Rules(Num(), NonNegative()) total_cost?: number;
  @Optional() @Rules(Obj()) variables?: Record<string, unknown>;
  @Optional() @Rules(Obj()) evaluation?: Record<string, unknown>;
  /** docs/dialing.md: the number joins the user's do-not-call list and its lead stops. */
  @Optional() @Rules(Bool()) opt_out?: boolean;
}

export class InboundCallDto {
  /** The provider's own reference for the call, kept for its records. */
  @Optional() @Rules(Str()) call_id?: string;
  @Rules(Required(), Str(), Phone()) from!: string;
  @Rules(Required(), Str(), Phone()) to!: string;
}

/** The filters of the calls list (docs/api.md), which its export takes too (docs/reports.md). */
export class CallFilterQuery {
  @Optional() @Rules(OneOf(CALL_STATUSES)) status?: CallStatus;
  @Optional() @Rules(OneOf(CALL_TYPES)) type?: CallType;
  @Optional() @Rules(Str()) phone_number?: string;
  @Optional() @Type(() => Number) @Rules(Int()) assistant_id?: number;
  @Optional() @Type(() => Number) @Rules(Int()) campaign_id?: number;
  @Optional() @Rules(DateYmd()) date_from?: string;
  @Optional() @Rules(DateYmd()) date_to?: string;
}

export class CallListQuery extends PageQuery(15, 100, CallFilterQuery) {}
