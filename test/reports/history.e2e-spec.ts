import { CommandBus } from '@nestjs/cqrs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CALL_STATUSES } from '../../src/calls/call.events';
import { InitiateCall } from '../../src/calls/commands/initiate-call';
import { DialScheduler } from '../../src/dialing/dial-scheduler';
import { EVENT_STORE, EventStore } from '../../src/shared/ports/event-store.port';
import { ProjectionRunner } from '../../src/infrastructure/projections/projection-runner';
import { DocumentStore, READ_STORE } from '../../src/shared/ports/document-store.port';
import { StartLeadCall } from '../../src/leads/commands/start-lead-call';
import { ManualClock } from '../../src/shared/clock';
import { requiredAssistantSettings } from '../../src/testing/assistant.fixture';
import { callSpec } from '../../src/testing/call.fixture';
import { eventually } from '../support/fake-provider';
import { cli } from '../support/processes';
import { startTestApp, TestApp } from '../support/test-app';
import { ALWAYS_OPEN } from '../../src/testing/dial-policy.fixture';

const T0 = new Date('2025-01-15T15:00:00Z'); // Wednesday 10:00 in New York
const at = (ms: number) => new Date(T0.getTime() + ms);

describe('campaign history and replay', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'voice-history-'));
  const clock = new ManualClock(T0);
  const env = { DIAL_INTERVAL_MS: '20', SIMULATED_CALL_STEP_SECONDS: '0', SIMULATED_DIALER_ODDS: 'human:1,no-answer:1', SIMULATED_DIALER_SEED: '3' };
  let t: TestApp;
  let token: string;
  let otherToken: string;
  let campaign: number;
  const snapshots: Array<{ at: Date; state: unknown }> = [];

  const get = async (path: string, as = token) => (await t.request('GET', path, { token: as })).body;
  /** The campaign as the live read models show it, in the shape of the as_of state. */
  const live = async () => {
    const c = await get(`/api/user/campaigns/${campaign}`);
    const calls: Record<string, number> = {};
    for (const status of CALL_STATUSES) calls[status] = (await get(`/api/user/calls?campaign_id=${campaign}&status=${status}&per_page=1`)).total;
    const { status, max_retries, retry_delay_seconds, calling_hours, calling_days, max_concurrent_calls } = c;
    return { status, max_retries, retry_delay_seconds, calling_hours, calling_days, max_concurrent_calls, leads: c.stats.leads, calls };
  };
  /**
   * No claim left to make and no call in flight, three looks in a row with the read models
   * settled on every event stored: the scheduler's own passes run beside these, and a claim
   * one of them appends must show before the campaign counts as quiet.
   */
  const quiet = async () => {
    let calm = 0;
    await eventually(
      async () => {
        const idle = (await t.app.get(DialScheduler).pass()) === 0;
        await t.app.get(ProjectionRunner).settle(await t.app.get<EventStore>(EVENT_STORE).headPosition());
        calm = idle && (await get(`/api/user/campaigns/${campaign}`)).stats.calls_in_flight === 0 ? calm + 1 : 0;
        return calm >= 3;
      },
      15_000,
      'dialing to go quiet',
    );
  };

  beforeAll(async () => {
    t = await startTestApp(env, { dataDir, clock });
    token = (await t.createUser()).token;
    otherToken = (await t.createUser()).token;
    const assistant = (await t.request('POST', '/api/user/assistant', { token, body: requiredAssistantSettings })).body.data.id;
    campaign = (
      await t.request('POST', '/api/user/campaigns', {
        token,
        body: { name: 'Audit', assistant_id: assistant, max_retries: 1, retry_delay_seconds: 600, max_concurrent_calls: 2 },
      })
    ).body.data.id;
    for (let i = 0; i < 6; i++) await t.request('POST', '/api/user/lead', { token, body: { campaign_id: campaign, phone_number: `+1201555${3000 + i}` } });
    snapshots.push({ at: at(30_000), state: await live() });

    clock.set(at(60_000));
    await t.request('POST', '/api/user/campaigns/update-status', { token, body: { campaign_id: campaign, action: 'start' } });
    await quiet();
    snapshots.push({ at: at(90_000), state: await live() });

    clock.set(at(60_000 + 601_000));
    t.app.get(DialScheduler).nudge();
    await eventually(async () => (await get(`/api/user/campaigns/${campaign}`)).status === 'completed', 15_000, 'campaign completed');
    snapshots.push({ at: at(60_000 + 631_000), state: await live() });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('ran a campaign with a retry round, so the instants differ', () => {
    expect(snapshots.map((s) => (s.state as { status: string }).status)).toEqual(['draft', 'in-progress', 'completed']);
    expect((snapshots[1].state as { leads: Record<string, number> }).leads.created).toBeGreaterThan(0);
  });

  it('rebuilds the campaign at each instant from its events exactly as the live read models showed it', async () => {
    for (const snapshot of snapshots) {
      const res = await t.request('GET', `/api/user/campaigns/${campaign}/history?limit=1&as_of=${snapshot.at.toISOString()}`, { token });
      expect(res.status).toBe(200);
      expect(res.body.state).toEqual(snapshot.state);
    }
    expect((await get(`/api/user/campaigns/${campaign}/history?as_of=2024-01-01T00:00:00Z`)).state).toBeNull();
  });

  it('lists every event of the campaign, its leads and its calls, oldest first, in cursor pages', async () => {
    const whole = await get(`/api/user/campaigns/${campaign}/history?limit=1000`);
    expect(whole.next_cursor).toBeNull();
    const positions = whole.data.map((e: { position: number }) => e.position);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    const kinds = new Set(whole.data.map((e: { stream: string }) => e.stream.split('-')[0]));
    expect(kinds).toEqual(new Set(['campaign', 'lead', 'call']));
    const types = new Set(whole.data.map((e: { type: string }) => e.type));
    for (const type of [
      'CampaignCreated',
      'CampaignStarted',
      'LeadCreated',
      'LeadCallStarted',
      'CallInitiated',
      'CallOutcomeRecorded',
      'LeadAttemptFailed',
      'CampaignCompleted',
    ])
      expect(types).toContain(type);
    expect(whole.data[0]).toEqual({
      position: expect.any(Number),
      type: 'CampaignCreated',
      stream: `campaign-${campaign}`,
      occurred_at: T0.toISOString(),
      actor: { type: 'user', id: expect.any(Number) },
      data: expect.objectContaining({ campaign_id: campaign }),
    });

    const paged: unknown[] = [];
    let cursor: string | null = '0';
    while (cursor !== null) {
      const page: { data: unknown[]; next_cursor: string | null } = await get(`/api/user/campaigns/${campaign}/history?limit=7&after=${cursor}`);
      expect(page.data.length).toBeLessThanOrEqual(7);
      paged.push(...page.data);
      cursor = page.next_cursor;
    }
    expect(paged).toEqual(whole.data);
  });

  it("refuses bad paging and instants, and another user's campaign", async () => {
    for (const q of ['limit=0', 'limit=1001', 'after=-1', 'as_of=yesterday', 'as_of=2025-13-45', 'as_of=2025-02-30T10:00:00Z']) {
      expect((await t.request('GET', `/api/user/campaigns/${campaign}/history?${q}`, { token })).status).toBe(422);
    }
    expect(await t.request('GET', `/api/user/campaigns/${campaign}/history`, { token: otherToken })).toMatchObject({
      status: 404,
      body: { message: 'Campaign not found' },
    });
  });

  it('rebuilds every read model identical to the live one, with the command line, the service stopped', async () => {
    const collections = ['users', 'access_tokens', 'tools', 'assistants', 'phone_numbers', 'campaigns', 'leads', 'calls', 'webhook_deliveries'];
    const snapshot = async () => {
      const store = t.app.get<DocumentStore>(READ_STORE);
      return Object.fromEntries(
        await Promise.all(collections.map(async (c) => [c, await store.collection<{ id: string }>(c).find({}, { sort: [['id', 'asc']] })])),
      );
    };
    const before = await snapshot();
    expect(before.leads).toHaveLength(6);
    expect(before.calls.length).toBeGreaterThan(6);
    const head = await t.app.get<EventStore>(EVENT_STORE).headPosition();
    await t.stop();
    for (let i = 0; i < 2; i++) {
      const rebuilt = await cli({ DATA_DIR: dataDir }, 'projections:rebuild');
      expect(rebuilt.json).toMatchObject({ events: head });
    }
    t = await startTestApp(env, { dataDir, clock });
    expect(await snapshot()).toEqual(before);
  });

  it('prints the same trail and state for an operator on the command line', async () => {
    const trail = await get(`/api/user/campaigns/${campaign}/history?limit=1000&as_of=${snapshots[1].at.toISOString()}`);
    await t.stop();
    const printed = await cli({ DATA_DIR: dataDir }, 'campaigns:history', String(campaign), '--as-of', snapshots[1].at.toISOString());
    expect(printed.code).toBe(0);
    expect(printed.json).toEqual({ data: trail.data, state: snapshots[1].state });
    expect((await cli({ DATA_DIR: dataDir }, 'campaigns:history', '999')).json).toEqual({ message: 'Campaign not found' });
    expect((await cli({ DATA_DIR: dataDir }, 'campaigns:history')).code).toBe(64);
    t = await startTestApp(env, { dataDir, clock });
  });
});

describe('an event stored in an older shape', () => {
  it('is read in the current shape by the deciders, the reactors and the history', async () => {
    const t = await startTestApp({ DIAL_INTERVAL_MS: '3600000' }, { clock: new ManualClock(T0) });
    try {
      const { token, id: userId } = await t.createUser();
      const assistant = (await t.request('POST', '/api/user/assistant', { token, body: requiredAssistantSettings })).body.data.id;
      const campaign = (await t.request('POST', '/api/user/campaigns', { token, body: { name: 'Old', assistant_id: assistant } })).body.data.id;
      const lead = (await t.request('POST', '/api/user/lead', { token, body: { campaign_id: campaign, phone_number: '+12015554000' } })).body.data;
      const store = t.app.get<EventStore>(EVENT_STORE);
      const callId = await store.nextId('call');
      const bus = t.app.get(CommandBus);
      await bus.execute(new StartLeadCall(lead.id, callId, ALWAYS_OPEN, []));
      await bus.execute(
        new InitiateCall(
          callId,
          callSpec({
            user_id: userId,
            assistant_id: assistant,
            campaign_id: campaign,
            campaign_name: 'Old',
            lead_id: lead.id,
            client_phone_number: '+12015554000',
          }),
        ),
      );
      // A v1 outcome, as the service wrote them before `reached` existed.
      const [, ...rest] = await store.readStream(`call-${callId}`);
      await store.append(
        `call-${callId}`,
        [
          {
            type: 'CallOutcomeRecorded',
            schemaVersion: 1,
            data: {
              call_id: callId,
              user_id: userId,
              campaign_id: campaign,
              lead_id: lead.id,
              from: 'initiated',
              status: 'completed',
              details: { answered_by: 'human' },
            },
            metadata: { occurred_at: T0.toISOString(), $correlationId: `campaign-${campaign}` },
          },
        ],
        rest.length,
      );
      // The lead-results reactor reads `reached` from the lifted event and completes the lead.
      await eventually(
        async () => (await t.request('GET', `/api/user/leads?campaign_id=${campaign}`, { token })).body[0].status === 'completed',
        10_000,
        'lead completed',
      );
      const trail = (await t.request('GET', `/api/user/campaigns/${campaign}/history?limit=1000`, { token })).body.data;
      const outcome = trail.find((e: { type: string }) => e.type === 'CallOutcomeRecorded');
      expect(outcome.data).toMatchObject({ status: 'completed', reached: true });
      const stored = (await store.readStream(`call-${callId}`)).at(-1)!;
      expect(stored.schemaVersion).toBe(1);
      expect(stored.data).not.toHaveProperty('reached');
    } finally {
      await t.close();
    }
  });
});
