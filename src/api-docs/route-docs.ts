import { ForecastLeadsQuery, ForecastQuery } from '../forecast/forecast.controller';
import { RequestErasureDto } from '../privacy/erasure/erasure.dto';
import { AssistantPageQuery } from '../assistants/assistants.controller';
import { CreateAssistantDto, UpdateAssistantDto } from '../assistants/assistant.dto';
import { CallEventDto, CallFilterQuery, CallListQuery, InboundCallDto } from '../calls/call.dto';
import { CampaignPageQuery } from '../campaigns/campaigns.controller';
import { CreateCampaignDto, UpdateCampaignDto, UpdateCampaignStatusDto } from '../campaigns/campaign.dto';
import { HistoryQuery } from '../history/history.controller';
import { CreateLeadDto, LeadFilterQuery, LeadListQuery, UpdateLeadDto } from '../leads/lead.dto';
import { ReportQuery } from '../reports/reports.controller';
import { AddPhoneNumberDto } from '../phone-numbers/phone-numbers.controller';
import { CreateToolDto, ToolArgumentsDto, UpdateToolDto } from '../tools/tool.dto';
import { WebhookDeliveryListQuery } from '../webhooks/webhook-delivery.dto';
import { AddToDoNotCallDto, DoNotCallListQuery } from '../do-not-call/do-not-call.dto';
import { SettingsDto } from '../users/settings.controller';
import { AddMemberDto, ChangeMemberDto } from '../users/members.controller';
import { CreateApiKeyDto } from '../users/api-keys.controller';
import { AuditQuery } from '../audit/audit.controller';
import { LeadImportListQuery, LeadImportQuery } from '../lead-imports/lead-import.dto';

/** Who may call a route: a user's bearer token, the telephony provider's signature, a voice runtime's secret or signature, METRICS_TOKEN when set, or anyone. */
export type Caller = 'user' | 'provider' | 'vapi' | 'retell' | 'twilio' | 'scraper' | 'anyone';

/** An answer shown for a route the API walk cannot reach (a voice runtime's callbacks answer only with that runtime as the dialer). */
export interface ShownExchange {
  request?: unknown;
  answer: unknown;
}

export interface RouteDoc {
  tag: string;
  summary: string;
  caller: Caller;
  body?: new () => unknown;
  query?: new () => unknown;
  /** Objects in the answer whose keys vary from one answer to the next (see inferSchema). */
  openPaths?: string[];
  /** A body of another type than JSON, by content type (an import's file). */
  upload?: string[];
  /** A 200 of another type than JSON, by content type (an export): its example is the walk's answer of that type. */
  produces?: string[];
  /** Answers by status, for a route the API walk does not reach. */
  shown?: Record<string, ShownExchange[]>;
}

const user = (tag: string, summary: string, more: Partial<RouteDoc> = {}): RouteDoc => ({ tag, summary, caller: 'user', ...more });
/** The generic HTTP runtime's callbacks: served with `DIALER=http` only (elsewhere 404). */
const provider = (summary: string, body: new () => unknown): RouteDoc => ({
  tag: 'Telephony',
  summary: `${summary} (DIALER=http only)`,
  caller: 'provider',
  body,
});

/** Every route of the API, keyed `METHOD /path/:param` as Fastify registers it. */
export const ROUTE_DOCS: Record<string, RouteDoc> = {
  'GET /health/live': { tag: 'Operations', summary: 'Answers 200 while the process runs', caller: 'anyone' },
  'GET /health': { tag: 'Operations', summary: 'Answers 200 when both stores answer, 503 otherwise', caller: 'anyone' },
  'GET /health/ready': { tag: 'Operations', summary: 'The same as GET /health', caller: 'anyone' },
  'GET /metrics': { tag: 'Operations', summary: 'Prometheus text (docs/api.md); behind METRICS_TOKEN when it is set', caller: 'scraper' },

  'GET /api/user/me': user('Account', "The token's member: its organisation, role and, for an API key, the key's scopes"),
  'GET /api/user/members': user('Teams', 'The members of the organisation and their roles'),
  'POST /api/user/members': user('Teams', 'Adds a member (a new user of the organisation); its token is shown once', { body: AddMemberDto }),
  'PUT /api/user/members/:id': user('Teams', "Changes a member's role; only an owner makes or unmakes an owner, and one owner always stays", {
    body: ChangeMemberDto,
  }),
  'DELETE /api/user/members/:id': user('Teams', 'Removes a member: its tokens and its API keys stop working from the next request on'),
  'GET /api/user/api-keys': user('Teams', "The organisation's API keys, without their tokens, with when each was last used (to the minute)"),
  'POST /api/user/api-keys': user('Teams', 'Creates an API key acting as its creator within its scopes; its token is shown once, only its hash is kept', {
    body: CreateApiKeyDto,
  }),
  'DELETE /api/user/api-keys/:id': user('Teams', 'Revokes an API key from the next request on'),
  'GET /api/user/campaigns/:id/report': user(
    'Reports',
    "How a campaign went: leads by status, calls by status, reached, answer and machine rates, minutes, cost, the attempt that completed each lead, calls per hour and the post-call fields' top values; from counters, never a scan. Optional date_from and date_to (whole UTC days of the calls' created_at)",
    { query: ReportQuery, openPaths: ['completed_at_attempt', 'outcomes'] },
  ),
  'GET /api/user/campaigns/:id/forecast': user(
    'Forecast',
    "When a campaign's leads will be dialed, by the dialer's own rules (windows in each zone, quiet hours, holidays, do-not-call, retries, concurrency, pacing, the runtime's cap), from `from` (default now) for a campaign in any status: its first dial and end, dials per day, leads never callable by reason, and the answer rate and call length assumed (the campaign's own after 20 calls)",
    { query: ForecastQuery, openPaths: ['leads.never_callable.by_reason'] },
  ),
  'GET /api/user/campaigns/:id/forecast/leads': user(
    'Forecast',
    "Each lead's first expected dial and expected attempts, or why it will never be dialed (`never_callable=true`: those only), in the leads' order",
    { query: ForecastLeadsQuery },
  ),
  'GET /api/user/calls/export': user(
    'Reports',
    "The calls of the list's filters, newest first, streamed from one moment: CSV (RFC 4180, formula-like cells prefixed with ') or, with Accept: application/x-ndjson, NDJSON; a var_<name> column per variable seen",
    { query: CallFilterQuery, produces: ['text/csv', 'application/x-ndjson'] },
  ),
  'GET /api/user/leads/export': user('Reports', 'The live leads of campaign_id and status, newest first, streamed like the calls export', {
    query: LeadFilterQuery,
    produces: ['text/csv', 'application/x-ndjson'],
  }),
  'GET /api/user/audit': user('Teams', 'Every event of the organisation with its actor, newest first', { query: AuditQuery }),
  'GET /api/user/settings': user('Account', "The user's quiet hours (docs/dialing.md), their own or the operator's default; null: none"),
  'PUT /api/user/settings': user('Account', 'Narrows the quiet hours within 08:00-21:00 (only the operator lifts them)', { body: SettingsDto }),
  'GET /api/user/voices': user('Catalog', 'The voices an assistant may speak with'),
  'GET /api/user/languages': user('Catalog', 'The languages an assistant may speak'),

  'POST /api/user/tools': user('Tools', 'Creates a mid-call tool (at most the plan limit)', { body: CreateToolDto }),
  'GET /api/user/tools': user('Tools', "The user's tools"),
  'GET /api/user/tools/:id': user('Tools', 'One tool; needs JSON `Accept` and `Content-Type` (415 otherwise)'),
  'PUT /api/user/tools/:id': user('Tools', 'Changes a tool; a given `headers` or `schema` replaces the old one whole', { body: UpdateToolDto }),
  'DELETE /api/user/tools/:id': user('Tools', 'Deletes a tool; it disappears from every assistant'),
  'POST /api/user/tools/:id/test': user('Tools', 'Runs a tool with `arguments` and answers what its endpoint answered', { body: ToolArgumentsDto }),

  'POST /api/user/phone-numbers': user('Phone numbers', 'Adds one of the user’s numbers (stored as E.164)', { body: AddPhoneNumberDto }),
  'GET /api/user/phone-numbers': user('Phone numbers', "The user's numbers"),
  'DELETE /api/user/phone-numbers/:id': user('Phone numbers', 'Deletes a number'),

  'POST /api/user/assistant': user('Assistants', 'Creates an assistant; optional fields take the defaults of docs/api.md', { body: CreateAssistantDto }),
  'PUT /api/user/assistant/:id': user('Assistants', 'Changes an assistant', { body: UpdateAssistantDto }),
  'DELETE /api/user/assistant/:id': user('Assistants', 'Deletes an assistant (soft)'),
  'GET /api/user/assistants/get': user('Assistants', "A page of the user's assistants", { query: AssistantPageQuery }),
  'GET /api/user/assistants/:id': user('Assistants', 'One assistant'),

  'POST /api/user/campaigns': user('Campaigns', 'Creates a campaign (draft)', { body: CreateCampaignDto }),
  'GET /api/user/campaigns': user('Campaigns', "A page of the user's campaigns with their live stats", { query: CampaignPageQuery }),
  'GET /api/user/campaigns/:id': user('Campaigns', 'One campaign with its live stats'),
  'PUT /api/user/campaigns/:id': user('Campaigns', "Changes a campaign's settings", { body: UpdateCampaignDto }),
  'POST /api/user/campaigns/update-status': user('Campaigns', 'Starts or stops a campaign', { body: UpdateCampaignStatusDto }),
  'GET /api/user/campaigns/:id/history': user('Campaigns', "The campaign's audit trail; with `as_of`, its state at that instant", {
    query: HistoryQuery,
    openPaths: ['data[].data', 'state'],
  }),

  'POST /api/user/lead': user('Leads', 'Creates a lead with its secondary contacts', { body: CreateLeadDto }),
  'GET /api/user/leads': user('Leads', 'Leads, oldest first; the total in `X-Total-Count`, the next page in `Link`', { query: LeadListQuery }),
  'PUT /api/user/leads/:id': user('Leads', 'Changes a lead', { body: UpdateLeadDto }),
  'DELETE /api/user/leads/:id': user('Leads', 'Deletes a lead'),

  'GET /api/user/calls': user('Calls', 'Calls, newest first, with the filters given', { query: CallListQuery }),
  'GET /api/user/calls/:id': user('Calls', 'One call'),

  'GET /api/user/webhook-deliveries': user('Webhooks', 'Webhook deliveries, newest first', { query: WebhookDeliveryListQuery }),
  'GET /api/user/webhook-deliveries/:id': user('Webhooks', 'One delivery with every attempt'),
  'POST /api/user/webhook-deliveries/:id/redeliver': user('Webhooks', 'Sends a delivery that ended again, as a new series of attempts (409 while one is due)'),

  'POST /api/user/campaigns/:id/leads/import': user(
    'Lead imports',
    'Starts an import of a CSV (header row; phone_number, timezone, secondary_phone_number_1..n, other columns as variables) or NDJSON (one lead body per line) file, streamed, up to IMPORT_MAX_BYTES; rows up to 1 MiB each; read in the Content-Type charset (UTF-8 if none, 415 if unknown)',
    { query: LeadImportQuery, upload: ['text/csv', 'application/x-ndjson'] },
  ),
  'GET /api/user/lead-imports/:id': user('Lead imports', "An import's progress: rows read, accepted, duplicates, invalid, and the first 1,000 refused rows"),
  'GET /api/user/lead-imports': user('Lead imports', "The user's imports, newest first", { query: LeadImportListQuery }),
  'POST /api/user/dnc': user('Do not call', 'Adds numbers to the do-not-call list (1 to 10,000); answers how many were new', { body: AddToDoNotCallDto }),
  'GET /api/user/dnc': user('Do not call', 'The do-not-call list, newest first', { query: DoNotCallListQuery }),
  'DELETE /api/user/dnc/:phone_number': user('Do not call', 'Takes a number off the do-not-call list'),
  'GET /api/user/privacy/subjects/:phone_number': user(
    'Privacy',
    'Everything the organisation holds on one phone number: its leads (as primary or secondary contact), calls, do-not-call listing, webhook deliveries and refused import rows (admins and owners)',
  ),
  'POST /api/user/privacy/erasures': user(
    'Privacy',
    'Erases everything the organisation holds on one phone number (crypto-shredding): lists it on the do-not-call list for good, then every value becomes [erased] (admins and owners)',
    { body: RequestErasureDto },
  ),
  'GET /api/user/privacy/erasures/:id': user('Privacy', 'An erasure: pending until every store holds nothing of the number, then done'),
  'POST /api/user/dnc/import': user(
    'Do not call',
    'Starts an import of numbers into the do-not-call list: a CSV with a phone_number column, or plain text with one number a line; streamed, up to IMPORT_MAX_BYTES',
    { upload: ['text/csv', 'text/plain'] },
  ),
  'GET /api/user/dnc-imports/:id': user('Do not call', "A do-not-call import's progress: rows read, accepted, invalid, and the first 1,000 refused rows"),
  'GET /api/user/dnc-imports': user('Do not call', "The user's do-not-call imports, newest first", { query: LeadImportListQuery }),

  'POST /api/telephony/vapi/events': {
    tag: 'Voice runtimes',
    summary: "Vapi's server messages (DIALER=vapi): status-update, end-of-call-report, tool-calls, assistant-request; X-Vapi-Secret checked",
    caller: 'vapi',
    shown: {
      '200': [
        { request: { message: { type: 'status-update', status: 'ringing', call: { id: '019a0001-vapi-call' } } }, answer: {} },
        {
          request: {
            message: {
              type: 'tool-calls',
              call: { id: '019a0001-vapi-call' },
              toolCallList: [{ id: 'tc-1', function: { name: 'book_slot', arguments: '{"day":"Tuesday"}' } }],
            },
          },
          answer: { results: [{ toolCallId: 'tc-1', name: 'book_slot', result: '{"booked":true}' }] },
        },
      ],
    },
  },
  'POST /api/telephony/retell/events': {
    tag: 'Voice runtimes',
    summary: "Retell's call events (DIALER=retell): call_started, call_ended, call_analyzed; x-retell-signature checked with Retell.verify",
    caller: 'retell',
    shown: { '200': [{ request: { event: 'call_started', call: { call_id: 'call_0001', metadata: { call_id: 7 } } }, answer: {} }] },
  },
  'POST /api/telephony/retell/tools/:tool_name': {
    tag: 'Voice runtimes',
    summary: "A Retell custom tool call: runs the call's assistant's tool of that name, answered with the tool's answer body",
    caller: 'retell',
    openPaths: [''],
    shown: {
      '200': [{ request: { name: 'book_slot', call: { call_id: 'call_0001', metadata: { call_id: 7 } }, args: { day: 'Tuesday' } }, answer: { booked: true } }],
    },
  },
  'POST /api/telephony/twilio/status': {
    tag: 'Voice runtimes',
    summary:
      "Twilio's status callbacks (DIALER=twilio; form-encoded, X-Twilio-Signature checked with twilio's validateRequest): CallStatus, CallDuration, AnsweredBy. The conversation itself runs over the WebSocket GET /api/telephony/twilio/relay",
    caller: 'twilio',
    shown: { '200': [{ request: { CallSid: 'CA0000000000000000000000000000abcd', CallStatus: 'completed', CallDuration: '42' }, answer: {} }] },
  },
  'POST /api/telephony/twilio/recording': {
    tag: 'Voice runtimes',
    summary: "Twilio's recording status callback (DIALER=twilio, form-encoded, signed): the call's recording_url",
    caller: 'twilio',
    shown: {
      '200': [
        {
          request: { CallSid: 'CA0000000000000000000000000000abcd', RecordingStatus: 'completed', RecordingUrl: 'https://api.twilio.com/…/Recordings/RE0001' },
          answer: {},
        },
      ],
    },
  },
  'POST /api/telephony/twilio/inbound': {
    tag: 'Voice runtimes',
    summary:
      "A Twilio number's voice URL (DIALER=twilio, form-encoded, signed): an inbound call for the assistant holding To, answered with TwiML (text/xml) connecting it to the relay, or <Response><Reject/></Response>",
    caller: 'twilio',
    shown: {
      '200': [
        { request: { CallSid: 'CA0000000000000000000000000000abcd', From: '+12015550999', To: '+12015550800' }, answer: '<Response><Reject/></Response>' },
      ],
    },
  },
  'POST /api/telephony/inbound': provider('Opens an inbound call for the assistant holding `to`', InboundCallDto),
  'POST /api/telephony/calls/:call_id/events': provider("Records a call's status and details (409 for a move the state machine forbids)", CallEventDto),
  'POST /api/telephony/calls/:call_id/tools/:tool_name': provider("Runs one of the call's assistant's tools and records the run", ToolArgumentsDto),
};
