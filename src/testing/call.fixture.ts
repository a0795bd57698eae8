import { CallSpec } from '../calls/call.events';

/** An outbound call outside any campaign; specs and end-to-end suites override what they test. */
export const callSpec = (overrides: Partial<CallSpec> & Pick<CallSpec, 'user_id' | 'assistant_id'>): CallSpec => ({
  assistant_name: 'Ada',
  campaign_id: null,
  campaign_name: null,
  lead_id: null,
  secondary_contact_id: null,
  type: 'outbound',
  assistant_phone_number: null,
  client_phone_number: '+12015550123',
  variables: {},
  record: true,
  max_duration_seconds: 600,
  ...overrides,
});
