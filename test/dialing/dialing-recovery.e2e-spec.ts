import { CommandBus } from '@nestjs/cqrs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InitiateCall } from '../../src/calls/commands/initiate-call';
import { ClaimDialSend } from '../../src/calls/commands/call-dial';
import { StuckCallSweeper } from '../../src/dialing/stuck-call-sweeper';
import { UnsentDialSweeper } from '../../src/dialing/unsent-dial-sweeper';
import { EVENT_STORE, EventStore } from '../../src/shared/ports/event-store.port';
import { StartLeadCall } from '../../src/leads/commands/start-lead-call';
import { ManualClock } from '../../src/shared/clock';
import { requiredAssistantSettings } from '../../src/testing/assistant.fixture';
import { callSpec } from '../../src/testing/call.fixture';
import { eventually, FakeProvider } from '../support/fake-provider';
import { startTestApp } from '../support/test-app';
import { ALWAYS_OPEN } from '../../src/testing/dial-policy.fixture';

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
      // overdue for confirmation (docs/api.md); the lead's attempt is not used.
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

  it('after an outage longer than max_call_duration + 120 s, sends the calls never dialed and fails none while it rings again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'voice-outage-'));
    // Each call rings and is never ended by the provider: only the deadline ends it.
    const provider = new FakeProvider(SECRET, () => 'silence');
    const clock = new ManualClock(new Date('2025-01-15T15:00:00Z'));
    const env = { DIALER: 'http', DIALER_URL: await provider.start(), TELEPHONY_SECRET: SECRET, DIAL_INTERVAL_MS: '3600000' };
    const before = await startTestApp(env, { dataDir: dir, clock, background: false });
    const { token } = await before.createUser();
    const assistant = (await before.request('POST', '/api/user/assistant', { token, body: { ...requiredAssistantSettings, max_call_duration: 20 } })).body.data
      .id;
    const campaign = (await before.request('POST', '/api/user/campaigns', { token, body: { name: 'O', assistant_id: assistant, retry_delay_seconds: 0 } })).body
      .data.id;
    const userId = (await before.request('GET', '/api/user/me', { token })).body.id;
    const bus = before.app.get(CommandBus);
    const calls: number[] = [];
    // One call opened and never sent; one whose send was claimed and never confirmed (the process died on the wire).
    for (const [n, phone] of ['+12015550511', '+12015550512'].entries()) {
      const lead = (await before.request('POST', '/api/user/lead', { token, body: { campaign_id: campaign, phone_number: phone } })).body.data;
      const callId = await before.app.get<EventStore>(EVENT_STORE).nextId('call');
      expect((await bus.execute(new StartLeadCall(lead.id, callId, ALWAYS_OPEN, []))).claimed).toBe(true);
      const spec = callSpec({
        user_id: userId,
        assistant_id: assistant,
        campaign_id: campaign,
        lead_id: lead.id,
        client_phone_number: phone,
        max_duration_seconds: 20,
      });
      expect((await bus.execute(new InitiateCall(callId, spec))).created).toBe(true);
      if (n === 1) expect(await bus.execute(new ClaimDialSend(callId, 30_000))).toMatchObject({ sends: 1 });
      calls.push(callId);
    }
    await before.request('POST', '/api/user/campaigns/update-status', { token, body: { campaign_id: campaign, action: 'start' } });
    await before.stop();

    // Two hours down: every deadline counted from the claim would have passed long ago.
    clock.advance(2 * 3600_000);
    const after = await startTestApp(env, { dataDir: dir, clock });
    try {
      await eventually(() => calls.every((id) => provider.dials.some((d) => d.request.call_id === id)), 10_000, 'both calls to be sent');
      const status = async (id: number) => (await after.request('GET', `/api/user/calls/${id}`, { token })).body.status;
      await eventually(async () => (await status(calls[0])) === 'ringing' && (await status(calls[1])) === 'ringing', 10_000, 'both calls to ring');
      // Their deadlines count from these sends: 140 s from now, not two hours ago.
      expect(await after.app.get(StuckCallSweeper).sweepOnce()).toBe(0);
      clock.advance(139_000);
      expect(await after.app.get(StuckCallSweeper).sweepOnce()).toBe(0);
      expect(await Promise.all(calls.map(status))).toEqual(['ringing', 'ringing']);
      const leads = (await after.request('GET', `/api/user/leads?campaign_id=${campaign}`, { token })).body;
      expect(leads.map((l: { attempts: number }) => l.attempts)).toEqual([0, 0]);
      clock.advance(2_000);
      expect(await after.app.get(StuckCallSweeper).sweepOnce()).toBe(2);
      expect(provider.dials.map((d) => d.request.call_id).sort()).toEqual([...calls].sort());
    } finally {
      await after.close();
      await provider.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
