import { LeadCreated } from '../leads/lead.events';

/** The ids every lead event of the specs carries. */
export const LEAD_IDS = { lead_id: 1, user_id: 2, campaign_id: 3 };

/** A lead in New York with one secondary contact (id 10); specs override what they test. */
export const leadCreated = (overrides: Partial<LeadCreated['data']> = {}): LeadCreated => ({
  type: 'LeadCreated',
  data: {
    ...LEAD_IDS,
    phone_number: '+12015550123',
    timezone: null,
    zones: ['America/New_York'],
    variables: {},
    secondary_contacts: [{ id: 10, phone_number: '+12015550124', variables: {}, timezone: null, zones: ['America/New_York'] }],
    ...overrides,
  },
});
