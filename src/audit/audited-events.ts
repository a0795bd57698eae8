import { ASSISTANT_EVENT_TYPES, ASSISTANT_PUBLICATION_EVENT_TYPES } from '../assistants/assistant.events';
import { CALL_EVENT_TYPES } from '../calls/call.events';
import { CAMPAIGN_EVENT_TYPES } from '../campaigns/campaign.events';
import { DO_NOT_CALL_EVENT_TYPES } from '../do-not-call/do-not-call.events';
import { LEAD_IMPORT_EVENT_TYPES } from '../lead-imports/lead-import.events';
import { LEAD_EVENT_TYPES } from '../leads/lead.events';
import { PHONE_NUMBER_EVENT_TYPES } from '../phone-numbers/phone-number.events';
import { TOOL_EVENT_TYPES } from '../tools/tool.events';
import { ORGANISATION_EVENT_TYPES } from '../users/organisation.events';
import { USER_EVENT_TYPES } from '../users/user.events';
import { WEBHOOK_EVENT_TYPES } from '../webhooks/webhook.events';

/** docs/teams.md: the trail shows every event of the service's features (not its own bookkeeping: leases, parked events). */
export const AUDITED_EVENT_TYPES: readonly string[] = [
  ...USER_EVENT_TYPES,
  ...ORGANISATION_EVENT_TYPES,
  ...ASSISTANT_EVENT_TYPES,
  ...ASSISTANT_PUBLICATION_EVENT_TYPES,
  ...TOOL_EVENT_TYPES,
  ...PHONE_NUMBER_EVENT_TYPES,
  ...CAMPAIGN_EVENT_TYPES,
  ...LEAD_EVENT_TYPES,
  ...LEAD_IMPORT_EVENT_TYPES,
  ...CALL_EVENT_TYPES,
  ...DO_NOT_CALL_EVENT_TYPES,
  ...WEBHOOK_EVENT_TYPES,
];
