import { CommandBus } from '@nestjs/cqrs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InitiateCall } from '../src/calls/commands/initiate-call';
import { UnsentDialSweeper } from '../src/dialing/unsent-dial-sweeper';
import { EVENT_STORE, EventStore } from '../src/infrastructure/event-store/event-store.port';
import { StartLeadCall } from '../src/leads/commands/start-lead-call';
import { ManualClock } from '../src/shared/clock';
import { requiredAssistantSettings } from '../src/testing/assistant.fixture';
import { callSpec } from '../src/testing/call.fixture';
import { eventually, FakeProvider } from './support/fake-provider';
import { startTestApp } from './support/test-app';
import { ALWAYS_OPEN } from '../src/testing/dial-policy.fixture';

const SECRET = 'recovery-secret';

describe('a crash between claiming a lead and dialing it', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'voice-recovery-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('loses nothing: a claim is dialed after restart, and a call opened but never placed is sent again under its id, with no attempt used', async () => {
    const provider = new FakeProvider(SECRET, () => 'human');
    const clock = new ManualClock(new Date('2025-01-15T15:00:00Z'));
    const env = { DIALER: 'http', DIALER_URL: await provider.start(), TELEPHONY_SECRET: SECRET, DIAL_INTERVAL_MS: '3600000' };

    // The process that "crashes": no background work, so nothing it claims gets placed.
    const before = await startTestApp(env, { dataDir, clock, background: false });
    const { token } = await before.createUser();
    const assistant = (await before.request('POST', '/api/user/assistant', { token, body: { ...requiredAssistantSettings, max_call_duration: 20 } })).body.data
      .id;
    const campaign = (await before.request('POST', '/api/user/campaigns', { token, body: { name: 'R', assistant_id: assistant, retry_delay_seconds: 0 } })).body
      .data.id;
    const claimedOnly = (await before.request('POST', '/api/user/lead', { token, body: { campaign_id: campaign, phone_number: '+12015550501' } })).body.data;
    const openedNotPlaced = (await before.request('POST', '/api/user/lead', { token, body: { campaign_id: campaign, phone_number: '+12015550502' } })).body
      .data;
    await before.request('POST', '/api/user/campaigns/update-status', { token, body: { campaign_id: campaign, action: 'start' } });
    const store = before.app.get<EventStore>(EVENT_STORE);
    const bus = before.app.get(CommandBus);
    const firstCall = await store.nextId('call');
    expect((await bus.execute(new StartLeadCall(claimedOnly.id, firstCall, ALWAYS_OPEN, []))).claimed).toBe(true);
    const secondCall = await store.nextId('call');
    expect((await bus.execute(new StartLeadCall(openedNotPlaced.id, secondCall, ALWAYS_OPEN, []))).claimed).toBe(true);
    const userId = (await before.request('GET', '/api/user/me', { token })).body.id;
    const spec = callSpec({
      user_id: userId,
      assistant_id: assistant,
      campaign_id: campaign,
      campaign_name: 'R',
      lead_id: openedNotPlaced.id,
      client_phone_number: '+12015550502',
      max_duration_seconds: 20,
    });
    const { created } = await bus.execute(new InitiateCall(secondCall, spec));
    expect(created).toBe(true);
    await before.stop();

    const after = await startTestApp(env, { dataDir, clock });
    try {
      // The bare claim is placed on restart, once.
      await eventually(() => provider.dials.some((d) => d.request.call_id === firstCall), 10_000, 'the claimed lead to be dialed');
      await eventually(
        async () => (await after.request('GET', `/api/user/calls/${firstCall}`, { token })).body.status === 'completed',
        10_000,
        'first call to end',
      );
      expect(provider.dials.filter((d) => d.request.call_id === secondCall)).toHaveLength(0);
      expect((await after.request('GET', `/api/user/calls/${secondCall}`, { token })).body.status).toBe('initiated');

      // The call that was opened but never placed is sent again under its own id once its dial is
      // overdue for confirmation (contract §12); the lead's attempt is not used.
      clock.advance(29_000);
      expect(await after.app.get(UnsentDialSweeper).sweepOnce()).toBe(0);
      clock.advance(1_000);
      expect(await after.app.get(UnsentDialSweeper).sweepOnce()).toBe(1);
      await eventually(
        async () => (await after.request('GET', `/api/user/campaigns/${campaign}`, { token })).body.status === 'completed',
        10_000,
        'campaign to complete',
      );
      expect(await after.app.get(UnsentDialSweeper).sweepOnce()).toBe(0);
      const leads = (await after.request('GET', `/api/user/leads?campaign_id=${campaign}`, { token })).body;
      expect(leads.map((l: { status: string }) => l.status)).toEqual(['completed', 'completed']);
      expect((await after.request('GET', `/api/user/calls/${secondCall}`, { token })).body.status).toBe('completed');
      expect(provider.dials.map((d) => [d.request.call_id, d.request.to])).toEqual(
        expect.arrayContaining([
          [firstCall, '+12015550501'],
          [secondCall, '+12015550502'],
        ]),
      );
      expect(provider.dials).toHaveLength(2);
      const secondLead = await after.app.get<EventStore>(EVENT_STORE).readStream(`lead-${openedNotPlaced.id}`);
      expect(secondLead.map((e) => e.type)).toEqual(['LeadCreated', 'LeadCallStarted', 'LeadCallFinished', 'LeadReached']);
    } finally {
      await after.close();
      await provider.stop();
    }
  });
});
