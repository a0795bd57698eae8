import fc from 'fast-check';
import { isReached, isTerminal } from '../../src/calls/call-status';
import { requiredAssistantSettings } from '../../src/testing/assistant.fixture';
import { Dial, FakeProvider, Script, eventually } from '../support/fake-provider';
import { TestApp, startTestApp } from '../support/test-app';

const SECRET = 'reports-telephony-secret';
const ALL_DAY = { calling_hours: { start: '00:00', end: '24:00' }, calling_days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] };
const SCRIPTS: Script[] = ['human', 'machine', 'busy', 'no-answer', 'failed'];
const TOPICS = ['billing', 'booking', 'other', '=SUM(A1)'];

interface Plan {
  leads: number;
  maxRetries: number;
  /** What each dial meets, in order of the dials (the same list for every number). */
  scripts: Script[];
  booked: boolean[];
  topics: string[];
  cents: number[];
}

const plan: fc.Arbitrary<Plan> = fc.record({
  leads: fc.integer({ min: 1, max: 8 }),
  maxRetries: fc.integer({ min: 0, max: 2 }),
  scripts: fc.array(fc.constantFrom(...SCRIPTS), { minLength: 30, maxLength: 30 }),
  booked: fc.array(fc.boolean(), { minLength: 30, maxLength: 30 }),
  topics: fc.array(fc.constantFrom(...TOPICS), { minLength: 30, maxLength: 30 }),
  cents: fc.array(fc.integer({ min: 0, max: 250 }), { minLength: 30, maxLength: 30 }),
});

/** Every page of a list. */
async function all(t: TestApp, token: string, path: string): Promise<any[]> {
  const out = [];
  for (let page = 1; ; page++) {
    const body = (await t.request('GET', `${path}&page=${page}&per_page=100`, { token })).body;
    const data = Array.isArray(body) ? body : body.data;
    out.push(...data);
    if (data.length < 100) return out;
  }
}

/** docs/reports.md: the campaign report, and the figures it must agree with. */
describe('campaign report', () => {
  let t: TestApp;
  let provider: FakeProvider;
  let dials = 0;
  let current: Plan;

  beforeAll(async () => {
    provider = new FakeProvider(SECRET, () => current.scripts[dials++ % current.scripts.length], 2);
    provider.lastDetails = (dial: Dial) => {
      const i = provider.dials.indexOf(dial) % 30;
      return dial.script === 'human' ? { variables: { booked: current.booked[i], topic: current.topics[i] }, total_cost: current.cents[i] / 100 } : {};
    };
    t = await startTestApp({ DIALER: 'http', DIALER_URL: await provider.start(), TELEPHONY_SECRET: SECRET, DIAL_INTERVAL_MS: '20' });
  });
  afterAll(async () => {
    await t.close();
    await provider.stop();
  });

  it('equals counts over the calls and leads lists, whatever the calls meet', async () => {
    await fc.assert(
      fc.asyncProperty(plan, async (p) => {
        current = p;
        const { token } = await t.createUser();
        const schema = [
          { name: 'booked', type: 'bool', description: 'Booked?' },
          { name: 'topic', type: 'string', description: 'About what' },
          { name: 'score', type: 'number', description: 'Not counted' },
        ];
        const assistant = (await t.request('POST', '/api/user/assistant', { token, body: { ...requiredAssistantSettings, post_call_schema: schema } })).body
          .data.id;
        const body = { name: 'Reported', assistant_id: assistant, max_retries: p.maxRetries, retry_delay_seconds: 0, ...ALL_DAY };
        const campaign = (await t.request('POST', '/api/user/campaigns', { token, body })).body.data.id;
        for (let i = 0; i < p.leads; i++) {
          const lead = { campaign_id: campaign, phone_number: `+1201555${String(3000 + i)}`, variables: { customer_name: `Lead ${i}` } };
          expect((await t.request('POST', '/api/user/lead', { token, body: lead })).status).toBe(200);
        }
        await t.request('POST', '/api/user/campaigns/update-status', { token, body: { campaign_id: campaign, action: 'start' } });
        await eventually(async () => (await t.request('GET', `/api/user/campaigns/${campaign}`, { token })).body.status === 'completed', 30_000);

        const report = (await t.request('GET', `/api/user/campaigns/${campaign}/report`, { token })).body;
        const calls = await all(t, token, `/api/user/calls?campaign_id=${campaign}`);
        const leads = await all(t, token, `/api/user/leads?campaign_id=${campaign}`);
        const ended = calls.filter((c) => isTerminal(c.status));
        const reached = ended.filter((c) => isReached(c.status, c.answered_by)).length;
        const count = <T>(items: T[], key: (item: T) => string) =>
          items.reduce<Record<string, number>>((out, item) => ({ ...out, [key(item)]: (out[key(item)] ?? 0) + 1 }), {});
        expect(report.leads).toEqual({
          total: leads.length,
          by_status: { created: 0, completed: 0, 'reached-max-retries': 0, ...count(leads, (l) => l.status) },
        });
        expect(report.calls.total).toBe(calls.length);
        expect(Object.fromEntries(Object.entries(report.calls.by_status).filter(([, n]) => n !== 0))).toEqual(count(calls, (c) => c.status));
        expect(report.calls.reached).toBe(reached);
        expect(report.calls.answer_rate).toBe(ended.length ? Math.round((reached / ended.length) * 1e4) / 1e4 : 0);
        const machines = ended.filter((c) => c.answered_by === 'machine').length;
        expect(report.calls.machine_rate).toBe(ended.length ? Math.round((machines / ended.length) * 1e4) / 1e4 : 0);
        const duration = ended.reduce((sum, c) => sum + c.duration, 0);
        expect(report.calls.total_duration_seconds).toBe(duration);
        expect(report.calls.total_cost).toBeCloseTo(
          ended.reduce((sum, c) => sum + c.total_cost, 0),
          4,
        );
        expect(report.completed_at_attempt).toEqual(
          count(
            leads.filter((l) => l.status === 'completed'),
            (l) => String(l.attempts),
          ),
        );
        expect(report.by_hour.reduce((sum: number, h: { calls: number }) => sum + h.calls, 0)).toBe(calls.length);
        expect(report.by_hour.reduce((sum: number, h: { reached: number }) => sum + h.reached, 0)).toBe(reached);
        const outcomes: Record<string, Record<string, number>> = {};
        for (const c of ended)
          for (const field of ['booked', 'topic'])
            if (c.variables[field] !== undefined)
              (outcomes[field] ??= {})[String(c.variables[field])] = (outcomes[field]?.[String(c.variables[field])] ?? 0) + 1;
        expect(report.outcomes).toEqual(outcomes);
        // The same filters as the list: no call was made tomorrow.
        const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
        const none = (await t.request('GET', `/api/user/campaigns/${campaign}/report?date_from=${tomorrow}`, { token })).body;
        expect([none.calls.total, none.by_hour, none.leads.total]).toEqual([0, [], leads.length]);
      }),
      { numRuns: 6 },
    );
  }, 240_000);

  it('is the campaign owner’s alone, and refuses bad dates', async () => {
    const owner = await t.createUser();
    const assistant = (await t.request('POST', '/api/user/assistant', { token: owner.token, body: requiredAssistantSettings })).body.data.id;
    const campaign = (await t.request('POST', '/api/user/campaigns', { token: owner.token, body: { name: 'Mine', assistant_id: assistant } })).body.data.id;
    const stranger = await t.createUser();
    const answer = await t.request('GET', `/api/user/campaigns/${campaign}/report`, { token: stranger.token });
    expect([answer.status, answer.body]).toEqual([404, { message: 'Campaign not found' }]);
    const bad = await t.request('GET', `/api/user/campaigns/${campaign}/report?date_from=yesterday`, { token: owner.token });
    expect([bad.status, bad.body.message]).toEqual([422, 'Validation failed']);
    const empty = (await t.request('GET', `/api/user/campaigns/${campaign}/report`, { token: owner.token })).body;
    expect(empty).toMatchObject({ campaign_id: campaign, calls: { total: 0, answer_rate: 0, machine_rate: 0 }, by_hour: [], outcomes: {} });
  });
});
