import { PageQuery } from '../shared/http/page-query';
import { OneOf, Optional, Rules } from '../shared/validation/rules';

/** docs/imports.md: `allow_dupplicate=true|false` (spelled as in docs/api.md), false unless said. */
export class LeadImportQuery {
  @Optional() @Rules(OneOf(['true', 'false'])) allow_dupplicate?: 'true' | 'false';
}

export class LeadImportListQuery extends PageQuery(15) {}
