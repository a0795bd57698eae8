import { CallSpec } from '../../src/calls/call.events';
import { EVENT_STORE, EventStore } from '../../src/shared/ports/event-store.port';
import { ManualClock } from '../../src/shared/clock';
import { sign } from '../../src/shared/signature';
import { requiredAssistantSettings } from '../../src/testing/assistant.fixture';
import { openCall } from '../support/calls';
import { startTestApp, TestApp } from '../support/test-app';
import { httpRuntimeEnv } from '../support/http-runtime';

const SECRET = 'telephony-test-secret';

describe('calls API and telephony callbacks', () => {
  let t: TestApp;
  const clock = new ManualClock(new Date('2025-03-10T12:00:00Z'));
  let alice: { id: number; token: string };
  let bob: { id: number; token: string };
  let assistantId: number;

  beforeAll(async () => {
    t = await startTestApp(httpRuntimeEnv(SECRET), { clock });
    alice = await t.createUser();
    bob = await t.createUser();
    assistantId = (await t.request('POST', '/api/user/assistant', { token: alice.token, body: requiredAssistantSettings })).body.data.id;
  });
  afterAll(() => t.close());

  const signed = (path: string, body: unknown, signature?: string) => {
    const raw = JSON.stringify(body);
    return t.request('POST', path, { body: raw, headers: { 'x-signature': signature ?? sign(raw, SECRET) } });
  };
  const event = (callId: number, body: object) => signed(`/api/telephony/calls/${callId}/events`, body);
  const list = (query = '', token = alice.token) => t.request('GET', `/api/user/calls${query}`, { token });

  const newCall = async (overrides: Partial<CallSpec> = {}, at?: string): Promise<number> => {
    if (at) clock.set(at);
    return openCall(t.app, { user_id: alice.id, assistant_id: assistantId, assistant_phone_number: '+12015550100', ...overrides });
  };

  describe('record call outcome', () => {
    it('moves a call forward and answers the call record', async () => {
      const id = await newCall({ campaign_id: 7, campaign_name: 'Spring', lead_id: 3 });
      expect(await event(id, { status: 'ringing' })).toMatchObject({ status: 200, body: { message: 'Event recorded.', data: { id, status: 'ringing' } } });
      await event(id, { status: 'in-progress', answered_by: 'human' });
      const done = await event(id, {
        status: 'completed',
        duration: 42,
        transcript: 'AI: Hello\nCustomer: Hi',
        recording_url: 'https://rec.example.com/1.mp3',
        carrier_cost: 0.01,
        total_cost: 0.05,
        variables: { interested: true },
        evaluation: { score: 9 },
      });
      expect(done.body.data).toEqual({
        id,
        assistant_id: assistantId,
        assistant_name: 'Ada',
        campaign_id: 7,
        campaign_name: 'Spring',
        lead_id: 3,
        secondary_contact_id: null,
        type: 'outbound',
        duration: 42,
        assistant_phone_number: '+12015550100',
        client_phone_number: '+12015550123',
        status: 'completed',
        transcript: 'AI: Hello\nCustomer: Hi',
        variables: { interested: true },
        evaluation: { score: 9 },
        webhook_response: null,
        carrier_cost: 0.01,
        total_cost: 0.05,
        answered_by: 'human',
        provider: null,
        provider_call_id: null,
        failure_reason: null,
        recording_url: 'https://rec.example.com/1.mp3',
        created_at: '2025-03-10 12:00:00',
        updated_at: '2025-03-10 12:00:00',
      });
      expect((await t.request('GET', `/api/user/calls/${id}`, { token: alice.token })).body).toEqual(done.body.data);
    });

    it('treats a repeated event as a no-op and refuses a move out of a terminal status or backwards with 409', async () => {
      const id = await newCall();
      await event(id, { status: 'in-progress' });
      expect(await event(id, { status: 'in-progress' })).toMatchObject({ status: 200, body: { data: { status: 'in-progress' } } });
      expect(await event(id, { status: 'ringing' })).toMatchObject({ status: 409, body: { message: 'Invalid call status transition.' } });
      expect(await event(id, { status: 'busy' })).toMatchObject({ status: 409 });
      await event(id, { status: 'ended_by_customer' });
      expect(await event(id, { status: 'ended_by_customer' })).toMatchObject({ status: 200 });
      expect(await event(id, { status: 'failed' })).toMatchObject({ status: 409, body: { message: 'Invalid call status transition.' } });
      const events = await t.app.get<EventStore>(EVENT_STORE).readStream(`call-${id}`);
      expect(events.map((e) => e.data.status ?? 'initiated')).toEqual(['initiated', 'in-progress', 'ended_by_customer']);
    });

    it('answers an unknown call 404 and an invalid body 422', async () => {
      expect(await event(999999, { status: 'ringing' })).toMatchObject({ status: 404, body: { message: 'Call not found' } });
      const id = await newCall();
      expect((await event(id, { status: 'paused' })).body).toEqual({ message: 'Validation failed', errors: { status: ['The selected status is invalid.'] } });
      expect((await event(id, { status: 'completed', duration: -1 })).body.errors).toEqual({ duration: ['The duration field must be at least 0.'] });
      expect((await event(id, { status: 'completed', answered_by: 'robot' })).body.errors).toEqual({ answered_by: ['The selected answered by is invalid.'] });
      expect((await event(id, {})).body.errors).toEqual({ status: ['The status field is required.'] });
    });

    it('refuses a missing, wrong or foreign signature with 401 and records nothing', async () => {
      const id = await newCall();
      const body = JSON.stringify({ status: 'ringing' });
      const path = `/api/telephony/calls/${id}/events`;
      const attempts = [
        undefined,
        'sha256=' + '0'.repeat(64),
        sign(body, 'another-secret'),
        sign(JSON.stringify({ status: 'failed' }), SECRET),
        sign(body, SECRET).replace('sha256=', ''),
      ];
      for (const signature of attempts) {
        const headers: Record<string, string> = signature === undefined ? {} : { 'x-signature': signature };
        expect(await t.request('POST', path, { body, headers })).toMatchObject({ status: 401, body: { message: 'Invalid signature.' } });
      }
      expect((await t.request('GET', `/api/user/calls/${id}`, { token: alice.token })).body.status).toBe('initiated');
    });

    it('shows the recording only when the assistant records calls, and campaign_name only for campaign calls', async () => {
      const id = await newCall({ record: false });
      const res = await event(id, { status: 'completed', recording_url: 'https://rec.example.com/2.mp3' });
      expect(res.body.data).not.toHaveProperty('recording_url');
      expect(res.body.data).not.toHaveProperty('campaign_name');
    });
  });

  describe('list', () => {
    let ids: Record<string, number>;
    beforeAll(async () => {
      ids = {
        a: await newCall({ type: 'outbound', campaign_id: 11, campaign_name: 'A', client_phone_number: '+12015550901' }, '2025-04-01T00:00:00Z'),
        b: await newCall({ type: 'inbound', client_phone_number: '+12015550902' }, '2025-04-01T23:59:59Z'),
        c: await newCall({ type: 'web', campaign_id: 11, campaign_name: 'A', client_phone_number: '+12015550901' }, '2025-04-02T12:00:00Z'),
        d: await newCall({ type: 'outbound', assistant_id: 999, client_phone_number: '+12015550903' }, '2025-04-03T00:00:00Z'),
      };
      await event(ids.a, { status: 'busy' });
      await event(ids.c, { status: 'completed' });
      await newCall({ user_id: bob.id, client_phone_number: '+12015550901' }, '2025-04-02T00:00:00Z');
    });
    const found = async (query: string) => (await list(query)).body.data.map((c: { id: number }) => c.id);

    it('filters by each field alone', async () => {
      expect(await found('?status=busy')).toEqual([ids.a]);
      expect(await found('?type=inbound')).toEqual([ids.b]);
      expect(await found('?type=web')).toEqual([ids.c]);
      expect(await found(`?phone_number=${encodeURIComponent('+1 201 555 0901')}`)).toEqual([ids.c, ids.a]);
      expect(await found('?assistant_id=999')).toEqual([ids.d]);
      expect(await found('?campaign_id=11')).toEqual([ids.c, ids.a]);
    });

    it('takes whole UTC days with both ends included', async () => {
      expect(await found('?date_from=2025-04-01&date_to=2025-04-01')).toEqual([ids.b, ids.a]);
      expect(await found('?date_from=2025-04-02&date_to=2025-04-03')).toEqual([ids.d, ids.c]);
      expect(await found('?date_from=2025-04-03')).toContain(ids.d);
      expect(await found('?date_from=2025-04-03')).not.toContain(ids.c);
      expect(await found('?date_to=2025-04-01')).toEqual(expect.arrayContaining([ids.a, ids.b]));
      expect(await found('?date_to=2025-04-01')).not.toContain(ids.c);
    });

    it('combines filters', async () => {
      expect(await found('?campaign_id=11&status=completed')).toEqual([ids.c]);
      expect(await found('?campaign_id=11&type=outbound&date_from=2025-04-01&date_to=2025-04-01')).toEqual([ids.a]);
      expect(await found('?campaign_id=11&type=inbound')).toEqual([]);
    });

    it('pages newest first with the envelope, total counting matches, and keeps filters in page URLs', async () => {
      const page = await list('?campaign_id=11&per_page=1&page=2');
      expect(page.body).toMatchObject({ current_page: 2, per_page: 1, total: 2, last_page: 2, from: 2, to: 2, next_page_url: null });
      expect(page.body.data.map((c: { id: number }) => c.id)).toEqual([ids.a]);
      expect(page.body.prev_page_url).toMatch(/campaign_id=11.*page=1$/);
      const all = await list('');
      expect(all.body.per_page).toBe(15);
      const allIds = all.body.data.map((c: { id: number }) => c.id);
      expect(allIds).toEqual([...allIds].sort((x, y) => y - x));
      expect((await list('?per_page=100')).status).toBe(200);
      expect((await list('?campaign_id=11&page=9')).body).toMatchObject({ data: [], total: 2 });
    });

    it('refuses bad filter values with 422', async () => {
      for (const q of [
        '?per_page=0',
        '?per_page=101',
        '?page=0',
        '?status=x',
        '?type=x',
        '?date_from=2025-13-01',
        '?date_from=2025-02-30',
        '?date_to=01-04-2025',
        '?date_to=2025-04-01T00:00:00Z',
        '?campaign_id=x',
      ]) {
        expect((await list(q)).status).toBe(422);
      }
    });

    it('keeps every user to their own calls', async () => {
      const bobs = await list('', bob.token);
      expect(bobs.body.total).toBe(1);
      expect(await t.request('GET', `/api/user/calls/${ids.a}`, { token: bob.token })).toMatchObject({ status: 404, body: { message: 'Call not found' } });
    });
  });

  describe('inbound', () => {
    it('creates an inbound call for the assistant holding the dialed number and answers its configuration', async () => {
      const number = (await t.request('POST', '/api/user/phone-numbers', { token: alice.token, body: { phone_number: '+12015550777' } })).body.data;
      const assistant = (
        await t.request('POST', '/api/user/assistant', {
          token: alice.token,
          body: { ...requiredAssistantSettings, assistant_name: 'Reception', calls_direction: 'receive', phone_number_id: number.id },
        })
      ).body.data;
      const res = await signed('/api/telephony/inbound', { call_id: 'prov-1', from: '+44 20 7946 0958', to: '+12015550777' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        call_id: expect.any(Number),
        assistant: { id: assistant.id, name: 'Reception', type: 'inbound', system_prompt: 'You are helpful.' },
      });
      const call = (await t.request('GET', `/api/user/calls/${res.body.call_id}`, { token: alice.token })).body;
      expect(call).toMatchObject({
        type: 'inbound',
        status: 'initiated',
        assistant_id: assistant.id,
        assistant_phone_number: '+12015550777',
        client_phone_number: '+442079460958',
        campaign_id: null,
      });
      expect(call).not.toHaveProperty('campaign_name');
      // The same runtime call id again (a retry, a replay): the first answer, no second call (docs/real-calls.md).
      const total = (await list()).body.total;
      const again = await signed('/api/telephony/inbound', { call_id: 'prov-1', from: '+44 20 7946 0958', to: '+12015550777' });
      expect(again.body).toEqual(res.body);
      expect((await list()).body.total).toBe(total);
      expect(await event(res.body.call_id, { status: 'in-progress' })).toMatchObject({ status: 200 });
    });

    it('answers 404 for a number no assistant holds, and 401 unsigned', async () => {
      expect(await signed('/api/telephony/inbound', { from: '+12015550123', to: '+12015550999' })).toMatchObject({
        status: 404,
        body: { message: 'Phone number not found' },
      });
      expect(await signed('/api/telephony/inbound', { from: '+12015550123', to: '+12015550999' }, 'sha256=bad')).toMatchObject({ status: 401 });
      expect((await signed('/api/telephony/inbound', { from: 'x', to: '+12015550999' })).status).toBe(422);
    });
  });
});
