import { fold } from '../shared/event-sourcing/decider';
import { CampaignCommand, campaignDecider } from './campaign.decider';
import { CAMPAIGN_DEFAULTS, CampaignEvent } from './campaign.events';
import { refusalOf } from '../testing/refusal';
import { deciderSpec } from '../testing/decider-spec';

const given = (events: CampaignEvent[]) => ({
  when: (c: CampaignCommand) => () => campaignDecider.decide(c, fold(campaignDecider, events), new Date('2025-01-01T00:00:00Z')),
});
const ids = { campaign_id: 1, user_id: 2 };
const created: CampaignEvent = { type: 'CampaignCreated', data: { ...ids, settings: { ...CAMPAIGN_DEFAULTS, name: 'Spring', assistant_id: 3 } } };
const started: CampaignEvent = { type: 'CampaignStarted', data: ids };
const stopped: CampaignEvent = { type: 'CampaignStopped', data: { ...ids, reason: 'user' } };
const start = (leadsToCall = 1): Extract<CampaignCommand, { type: 'StartCampaign' }> => ({ type: 'StartCampaign', id: 1, organisationId: 2, leadsToCall });
const stop: CampaignCommand = { type: 'StopCampaign', id: 1, organisationId: 2 };

describe('campaign decider', () => {
  it("creates a draft with the default scheduling settings, its leads' numbers reserved from the start", () => {
    const events = given([]).when({
      type: 'CreateCampaign',
      id: 1,
      organisationId: 2,
      settings: { name: 'Spring', assistant_id: 3 },
      assistantCanCall: true,
      inputErrors: {},
    })();
    expect(events).toEqual([{ ...created, data: { ...created.data, numbers_reserved: true } }]);
    expect(fold(campaignDecider, events)).toMatchObject({ status: 'draft' });
  });

  it('refuses an assistant that cannot make calls and calling hours that end before they start', () => {
    expect(
      given([]).when({ type: 'CreateCampaign', id: 1, organisationId: 2, settings: { name: 'S', assistant_id: 3 }, assistantCanCall: false, inputErrors: {} }),
    ).toThrow('Validation failed');
    expect(
      given([created]).when({
        type: 'UpdateCampaign',
        id: 1,
        organisationId: 2,
        changes: { calling_hours: { start: '18:00', end: '09:00' } },
        assistantCanCall: true,
        inputErrors: {},
      }),
    ).toThrow('Validation failed');
  });

  it("answers the request's own field errors with those it finds", () => {
    const days = ['The selected calling days is invalid.'];
    const refusal = (c: CampaignCommand) => refusalOf(given([]).when(c)).errors;
    expect(
      refusal({
        type: 'CreateCampaign',
        id: 1,
        organisationId: 2,
        settings: { name: 'S', assistant_id: 3 },
        assistantCanCall: false,
        inputErrors: { calling_days: days },
      }),
    ).toEqual({
      calling_days: days,
      assistant_id: ['The selected assistant id is invalid.'],
    });
    expect(
      refusal({
        type: 'CreateCampaign',
        id: 1,
        organisationId: 2,
        settings: { name: 'S', assistant_id: 3 },
        assistantCanCall: true,
        inputErrors: { calling_days: days },
      }),
    ).toEqual({
      calling_days: days,
    });
  });

  it('starts a campaign with leads to call, and refuses one without', () => {
    expect(given([created]).when(start())()).toEqual([started]);
    expect(given([created]).when(start(0))).toThrow('Campaign has no leads to call.');
  });

  it('repeats the current action as a no-op', () => {
    expect(given([created, started]).when(start(0))()).toEqual([]);
    expect(given([created, started, stopped]).when(stop)()).toEqual([]);
  });

  it('stops when its failure breaker trips while it dials, and only then', () => {
    const tripped = { type: 'TripFailureBreaker', id: ids.campaign_id, failed: 12, window: 20 } as const;
    expect(given([created, started]).when(tripped)()).toEqual([{ type: 'CampaignStopped', data: { ...ids, reason: 'failure-rate', failed: 12, window: 20 } }]);
    expect(given([created, started, stopped]).when(tripped)()).toEqual([]);
  });

  it('stops and starts again', () => {
    expect(given([created, started]).when(stop)()).toEqual([stopped]);
    expect(given([created, started, stopped]).when(start())()).toEqual([started]);
    expect(fold(campaignDecider, [created, started, stopped, started])).toMatchObject({ status: 'in-progress' });
  });

  it("answers another user's campaign as not found", () => {
    expect(given([created]).when({ ...stop, organisationId: 9 })).toThrow('Campaign not found');
    expect(given([created]).when({ ...start(), organisationId: 9 })).toThrow('Campaign not found');
  });

  it('completes an in-progress campaign only when nothing is left to dial and no call is in flight', () => {
    const complete = (leadsToCall: number, callsInFlight: number): CampaignCommand => ({ type: 'CompleteCampaign', id: 1, leadsToCall, callsInFlight });
    expect(given([created, started]).when(complete(0, 0))()).toEqual([{ type: 'CampaignCompleted', data: ids }]);
    expect(given([created, started]).when(complete(1, 0))()).toEqual([]);
    expect(given([created, started]).when(complete(0, 1))()).toEqual([]);
    expect(given([created, started, stopped]).when(complete(0, 0))()).toEqual([]);
    const completed: CampaignEvent = { type: 'CampaignCompleted', data: ids };
    expect(fold(campaignDecider, [created, started, completed])).toMatchObject({ status: 'completed' });
    // A completed campaign with new leads is started again by hand.
    expect(given([created, started, completed]).when(start())()).toEqual([started]);
  });
});

describe("campaign decider: the dialer's failures", () => {
  const spec = deciderSpec(campaignDecider);
  const retryAt = new Date('2025-01-01T00:00:01Z');
  const failed: CampaignEvent = { type: 'CampaignDialingFailed', data: { ...ids, message: 'bad hours', retry_at: retryAt.toISOString() } };
  const recovered: CampaignEvent = { type: 'CampaignDialingRecovered', data: ids };

  it('records a failure with when it is tried again', () =>
    spec.given([created, started]).when({ type: 'RecordDialingFailure', id: 1, message: 'bad hours', retryAt }).then([failed]));
  it('records a recovery only after a failure', () => {
    spec.given([created, started, failed]).when({ type: 'RecordDialingRecovery', id: 1 }).then([recovered]);
    spec.given([created, started, failed, recovered]).when({ type: 'RecordDialingRecovery', id: 1 }).then([]);
  });
  it('records nothing for a campaign that does not exist', () => spec.given([]).when({ type: 'RecordDialingFailure', id: 1, message: 'x', retryAt }).then([]));
});
