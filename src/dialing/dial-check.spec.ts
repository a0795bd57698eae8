import { fold } from '../shared/event-sourcing/decider';
import { leadDecider, RetryPolicy } from '../leads/lead.decider';
import { LeadEvent } from '../leads/lead.events';
import { ALWAYS_OPEN } from '../testing/dial-policy.fixture';
import { LEAD_IDS, leadCreated } from '../testing/lead.fixture';
import { DialFacts, dialRefusal } from './dial-check';

const ids = LEAD_IDS;
const created = leadCreated({ secondary_contacts: [{ id: 10, phone_number: '+4930123457', zones: ['Europe/Berlin'], variables: {} }] });
const claimed = (callId: number, contact: number | null = null): LeadEvent => ({
  type: 'LeadCallStarted',
  data: { ...ids, call_id: callId, secondary_contact_id: contact, phone_number: contact ? '+4930123457' : '+12015550123', attempt: 1 },
});
// 09:00–17:00 in each lead's own time; quiet hours 08:00–21:00.
const byLead: RetryPolicy = {
  ...ALWAYS_OPEN,
  rules: { ...ALWAYS_OPEN.rules, window_timezone: 'lead', calling_hours: { start: '09:00', end: '17:00' }, quiet_hours: { start: '08:00', end: '21:00' } },
};
// Wednesday 15:00 UTC: 10:00 in New York, 16:00 in Berlin.
const NOW = new Date('2025-01-15T15:00:00Z');

/** Given the lead's events and what else holds now, when the dial is about to leave, then this. */
const given = (events: LeadEvent[], facts: Partial<DialFacts> = {}) => ({
  when: (now = NOW) => ({
    then: (expected: ReturnType<typeof dialRefusal>) =>
      expect(
        dialRefusal(
          {
            callId: 100,
            campaignId: 3,
            campaignStatus: 'in-progress',
            policy: byLead,
            lead: fold(leadDecider, events),
            number: '+12015550123',
            numberListed: false,
            ...facts,
          },
          now,
        ),
      ).toBe(expected),
  }),
});

describe('the last check before a dial leaves (docs/dialing.md)', () => {
  it('lets the dial go when everything the claim judged still holds', () => {
    given([created, claimed(100)])
      .when()
      .then(null);
  });

  it('holds the dial of a campaign stopped, finished, gone or whose rules cannot be read', () => {
    for (const status of ['stopped', 'completed', 'pending', null])
      given([created, claimed(100)], { campaignStatus: status })
        .when()
        .then('campaign-not-running');
    given([created, claimed(100)], { policy: null })
      .when()
      .then('campaign-not-running');
  });

  it('holds the dial of a lead deleted, closed by hand, moved away, or whose current call is another', () => {
    given([created, claimed(100), { type: 'LeadDeleted', data: ids }])
      .when()
      .then('lead-not-live');
    given([created, claimed(100), { type: 'LeadStatusChanged', data: { ...ids, from: 'created', to: 'completed' } }])
      .when()
      .then('lead-not-live');
    given([created, claimed(100), { type: 'LeadMovedToCampaign', data: { ...ids, campaign_id: 4, from_campaign_id: 3 } }])
      .when()
      .then('lead-not-live');
    given([created, claimed(99)])
      .when()
      .then('lead-not-live');
    given([]).when().then('lead-not-live');
  });

  it('refuses a number put on the do-not-call list since the claim', () => {
    given([created, claimed(100)], { numberListed: true })
      .when()
      .then('do-not-call');
  });

  it("refuses once the contact's own window closed, reading the secondary contact's zone for its call", () => {
    given([created, claimed(100)])
      .when(new Date('2025-01-15T22:30:00Z'))
      .then('outside-window');
    // 16:00 in Berlin is inside; 17:30 is past its window while New York's is still open.
    given([created, claimed(100, 10)], { number: '+4930123457' })
      .when()
      .then(null);
    given([created, claimed(100, 10)], { number: '+4930123457' })
      .when(new Date('2025-01-15T16:30:00Z'))
      .then('outside-window');
  });

  it('refuses on a public holiday of the campaign, in the called party’s date', () => {
    const holidays = { ...byLead, rules: { ...byLead.rules, holidays: ['US'] } };
    given([created, claimed(100)], { policy: holidays })
      .when(new Date('2025-07-04T15:00:00Z'))
      .then('outside-window');
    given([created, claimed(100)], { policy: holidays })
      .when(new Date('2025-07-03T15:00:00Z'))
      .then(null);
  });
});
