import { Type } from 'class-transformer';
import { ArrayMaxSize, ValidateNested } from 'class-validator';
import { PageQuery } from '../shared/http/page-query';
import { Arr, Bool, Int, OneOf, Phone, Required, Rules, Str, Timezone, Variables, Optional } from '../shared/validation/rules';
import { LEAD_STATUSES, LeadStatus, Variables as LeadVariables } from './lead.events';

export const MAX_SECONDARY_CONTACTS = 10;

export class SecondaryContactDto {
  @Rules(Required(), Str(), Phone()) phone_number!: string;
  @Optional() @Rules(Variables()) variables?: LeadVariables;
  /** docs/dialing.md: where the number rings, when its number does not tell (or tells wrong). */
  @Optional() @Rules(Str(), Timezone()) timezone?: string;
}

export class CreateLeadDto {
  @Rules(Required(), Str(), Phone()) phone_number!: string;
  @Rules(Required(), Int()) campaign_id!: number;
  @Optional() @Rules(Variables()) variables?: LeadVariables;
  @Optional() @Rules(Str(), Timezone()) timezone?: string;
  /** Spelled so by docs/api.md. */
  @Optional() @Rules(Bool()) allow_dupplicate?: boolean;
  // class-validator reports the rule registered first, and decorators register bottom-up: the type check goes last.
  @Optional()
  @ArrayMaxSize(MAX_SECONDARY_CONTACTS, { message: `The :attribute field must not have more than ${MAX_SECONDARY_CONTACTS} items.` })
  @ValidateNested({ each: true })
  @Type(() => SecondaryContactDto)
  @Rules(Arr())
  secondary_contacts?: SecondaryContactDto[];
}

/** The four fields an update may carry (docs/api.md); the phone number is checked by the handler. */
export const UPDATABLE_LEAD_FIELDS = ['campaign_id', 'phone_number', 'status', 'variables'] as const;

export class UpdateLeadDto {
  @Optional() @Rules(Int()) campaign_id?: number;
  @Optional() @Rules(Str()) phone_number?: string;
  @Optional() @Rules(OneOf(LEAD_STATUSES)) status?: LeadStatus;
  @Optional() @Rules(Variables()) variables?: LeadVariables;
}

/** docs/api.md: `page` and `per_page` (1 to 1000, default 1000) with the list filters. */
/** The filters of the leads list, which its export takes too (docs/reports.md). */
export class LeadFilterQuery {
  @Optional() @Type(() => Number) @Rules(Int()) campaign_id?: number;
  @Optional() @Rules(OneOf(LEAD_STATUSES)) status?: LeadStatus;
  @Optional() @Rules(Str()) phone_number?: string;
}

export class LeadListQuery extends PageQuery(1000, 1000, LeadFilterQuery) {}
