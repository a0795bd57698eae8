import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteDocumentStore } from '../infrastructure/read-store/sqlite-document-store';
import { AT, projectionSpec } from '../testing/projection-spec';
import { queryPlans } from '../testing/sqlite-query-plans';
import { LeadsProjection, createdLead } from './leads.projection';
import { LeadsQueries } from './leads.queries';

const dir = mkdtempSync(join(tmpdir(), 'leads-projection-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const lead = (id: number, campaignId: number, phone: string) =>
  createdLead({ lead_id: id, user_id: 1, campaign_id: campaignId, phone_number: phone, variables: {}, secondary_contacts: [] }, '2026-01-05T10:00:00.000Z');

/** Each read on a store opened for it, so that its statements are prepared (and seen) afresh. */
async function planOf<R>(file: string, read: (leads: LeadsProjection) => Promise<R>) {
  const store = new SqliteDocumentStore(file);
  try {
    const projection = new LeadsProjection(store);
    return await queryPlans(store, () => read(projection));
  } finally {
    await store.close();
  }
}

/** A store of 3,000 leads in 3 campaigns of one user, every number in each campaign. */
async function filled(file: string, statistics: boolean) {
  const store = new SqliteDocumentStore(file);
  const { leads } = new LeadsProjection(store);
  await store.exclusive('fill', async () => {
    for (let id = 1; id <= 3000; id++) await leads.upsert(id, lead(id, 1 + (id % 3), `+1212555${String(Math.floor(id / 3)).padStart(4, '0')}`), id);
  });
  await store.close();
  // The next open finds the table grown and gathers statistics; without, the planner has none.
  if (!statistics) return;
  await new SqliteDocumentStore(file).close();
}

describe.each([
  ['without statistics', false],
  ['with statistics', true],
])('LeadsProjection on the embedded store, %s', (_, statistics) => {
  const file = join(dir, `leads-${statistics}.db`);
  beforeAll(() => filled(file, statistics));

  it('checks a number within a campaign from one index, on all four of its equalities', async () => {
    const index =
      'INDEX rm_leads__user_id__deleted__phone_number__campaign_id__id (doc.user_id=? AND doc.deleted=? AND doc.phone_number=? AND doc.campaign_id=?)';
    const taken = await planOf(file, (p) => new LeadsQueries(p).numberTaken(1, 2, '+12125550100'));
    expect(taken.result).toBe(true);
    expect(taken.plans.filter((plan) => plan.includes('rm_leads'))).toEqual([expect.stringContaining(index)]);
    const free = await planOf(file, (p) => new LeadsQueries(p).numberTaken(1, 2, '+12125559999'));
    expect(free.result).toBe(false);
    expect(free.plans.filter((plan) => plan.includes('rm_leads'))).toEqual([expect.stringContaining(index)]);
  });

  it.each([
    ['a campaign', { campaign_id: 2 }, 'rm_leads__user_id__deleted__campaign_id__id'],
    ['a campaign and a status', { campaign_id: 2, status: 'created' }, 'rm_leads__user_id__deleted__campaign_id__status__id'],
    ['a status', { status: 'created' }, 'rm_leads__user_id__deleted__status__id'],
    ['every campaign', {}, 'rm_leads__user_id__deleted__id'],
  ])('reads a page of %s from its index in id order, without sorting', async (_, filter, index) => {
    // Asked again, the page is sought from the anchor its first read left: both from the index.
    const page = (p: LeadsProjection) => p.leads.find({ user_id: 1, deleted: false, ...filter }, { sort: [['id', 'asc']], skip: 100, limit: 10 });
    const { plans, result } = await planOf(file, async (p) => [await page(p), await page(p)]);
    expect(result[0]).toHaveLength(10);
    expect(result[1]).toEqual(result[0]);
    const reads = plans.filter((plan) => plan.includes('rm_leads'));
    expect(reads).toEqual([expect.stringContaining(`INDEX ${index} `), expect.stringContaining(`INDEX ${index} `)]);
    expect(reads[1]).toContain('doc.id>?');
    for (const plan of reads) expect(plan).not.toContain('TEMP B-TREE');
  });

  it("reads every campaign's calls in flight from one index, not the whole table", async () => {
    const { plans, result } = await planOf(file, (p) => new LeadsQueries(p).inFlightByCampaign());
    expect(result).toEqual(new Map());
    expect(plans).toEqual([expect.stringContaining('COVERING INDEX rm_leads__in_flight__campaign_id (doc.in_flight=?)')]);
  });

  it("reads a number's leads from the number's index", async () => {
    const { plans, result } = await planOf(file, (p) =>
      p.leads.find({ user_id: 1, deleted: false, phone_number: '+12125550100' }, { sort: [['id', 'asc']], limit: 10 }),
    );
    expect(result.map((l) => l.id)).toEqual([300, 301, 302]);
    expect(plans.filter((plan) => plan.includes('rm_leads'))).toEqual([
      expect.stringContaining('INDEX rm_leads__user_id__deleted__phone_number__campaign_id__id (doc.user_id=? AND doc.deleted=? AND doc.phone_number=?)'),
    ]);
  });
});

describe('leads projection', () => {
  const { given } = projectionSpec(
    (store) => new LeadsProjection(store),
    (p) => p.leads,
  );
  const data = { lead_id: 1, user_id: 1, campaign_id: 2, phone_number: '+12015550100', variables: { customer_name: 'Ann' }, secondary_contacts: [] };
  const created = { type: 'LeadCreated', data };
  const doc = createdLead(data, AT);

  it('keeps a lead as created, due to dial from its creation', () => given(created).then([{ ...doc, dial_due_at: Date.parse(AT) }]));

  it('takes it off the dialing index while a call is in flight, and back after', async () => {
    const started = { type: 'LeadCallStarted', data: { lead_id: 1, user_id: 1, campaign_id: 2, call_id: 9 } };
    await given(created, started).then([{ ...doc, in_flight_call_id: 9, in_flight: true, dial_due_at: null }]);
    await given(created, started, { type: 'LeadCallFinished', data: { lead_id: 1, user_id: 1, campaign_id: 2, call_id: 9, call_status: 'busy' } }).then([
      { ...doc, last_call_status: 'busy', last_called_at: expect.any(String) },
    ]);
  });

  it('moves a deferred turn to its new instant, and ends a stopped lead completed with its reason', async () => {
    const deferred = {
      type: 'LeadDialDeferred',
      data: { lead_id: 1, user_id: 1, campaign_id: 2, secondary_contact_id: null, due_at: '2030-01-01T08:00:00.000Z' },
    };
    const due = Date.parse('2030-01-01T08:00:00.000Z');
    await given(created, deferred).then([{ ...doc, next_due_at: due, dial_due_at: due }]);
    const stopped = { type: 'LeadStopped', data: { lead_id: 1, user_id: 1, campaign_id: 2, reason: 'do-not-call' } };
    await given(created, stopped).then([{ ...doc, status: 'completed', stopped_reason: 'do-not-call', dial_due_at: null, updated_at: expect.any(String) }]);
  });

  it('keeps a deleted lead, marked deleted and off the dialing index', () =>
    given(created, { type: 'LeadDeleted', data: { lead_id: 1, user_id: 1, campaign_id: 2 } }).then([{ ...doc, deleted: true, dial_due_at: null }]));
});
