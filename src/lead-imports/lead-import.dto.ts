import { PageQuery } from '../shared/http/page-query';
import { OneOf, Optional, Rules } from '../shared/validation/rules';

/** Contract §15: `allow_dupplicate=true|false` (spelled as in §6), false unless said. */
export class LeadImportQuery {
  @Optional() @Rules(OneOf(['true', 'false'])) allow_dupplicate?: 'true' | 'false';
}

export class LeadImportListQuery extends PageQuery(15) {}
