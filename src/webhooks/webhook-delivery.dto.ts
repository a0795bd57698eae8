import { Type } from 'class-transformer';
import { PageQuery } from '../shared/http/page-query';
import { Int, OneOf, Optional, Rules } from '../shared/validation/rules';

export const LISTED_STATUSES = ['pending', 'delivered', 'failed'] as const;

export class WebhookDeliveryListQuery extends PageQuery(15) {
  @Optional() @Type(() => Number) @Rules(Int()) call_id?: number;
  @Optional() @Rules(OneOf(LISTED_STATUSES)) status?: (typeof LISTED_STATUSES)[number];
}
