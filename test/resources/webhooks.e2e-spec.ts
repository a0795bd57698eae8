import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CallSpec } from '../../src/calls/call.events';
import { hasValidSignature, sign } from '../../src/shared/signature';
import { requiredAssistantSettings } from '../../src/testing/assistant.fixture';
import { RegisteredUser } from '../../src/users/commands/register-user';
import { eventually } from '../support/fake-provider';
import { openCall } from '../support/calls';
import { Receiver } from '../support/receiver';
import { startTestApp, TestApp } from '../support/test-app';
import { httpRuntimeEnv } from '../support/http-runtime';

const SECRET = 'webhook-telephony-secret';

describe('post-call webhooks', () => {
  let t: TestApp;
  let user: RegisteredUser;
  let receiver: Receiver;
  const dataDir = mkdtempSync(join(tmpdir(), 'voice-webhooks-'));
  const env = { ...httpRuntimeEnv(SECRET), WEBHOOK_RETRY_DELAYS: '0,0,0,0' };

  beforeAll(async () => {
    receiver = await new Receiver((req, count) => {
      if (req.path === '/flaky') return count <= 2 ? { status: 503 } : { status: 200, body: { thanks: true } };
      if (req.path === '/missing') return { status: 404, body: { error: 'nope' } };
      if (req.path === '/down') return { status: 500 };
      if (req.path === '/later') return count === 1 ? { status: 502 } : { status: 200, body: { late: true } };
      return { status: 200, body: { received: true } };
    }).start();
    t = await startTestApp(env, { dataDir });
    user = await t.createUser();
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const assistant = async (settings: object) =>
    (await t.request('POST', '/api/user/assistant', { token: user.token, body: { ...requiredAssistantSettings, ...settings } })).body.data.id as number;
  const callFor = (assistantId: number, overrides: Partial<CallSpec> = {}) => openCall(t.app, { user_id: user.id, assistant_id: assistantId, ...overrides });
  const report = (callId: number, body: object) => {
    const raw = JSON.stringify(body);
    return t.request('POST', `/api/telephony/calls/${callId}/events`, { body: raw, headers: { 'x-signature': sign(raw, SECRET) } });
  };
  const call = async (id: number) => (await t.request('GET', `/api/user/calls/${id}`, { token: user.token })).body;
  const settledResponse = (id: number, attempts: number) =>
    eventually(
      async () => {
        const c = await call(id);
        return c.webhook_response?.attempts === attempts && c.webhook_response;
      },
      10_000,
      `webhook_response after ${attempts} attempts`,
    );

  it('posts a signed call.ended payload with the call, its lead and campaign, and stores the answer on the call', async () => {
    const a = await assistant({ is_webhook_active: true, webhook_url: `${receiver.url}/ok` });
    const campaign = (await t.request('POST', '/api/user/campaigns', { token: user.token, body: { name: 'Hooks', assistant_id: a } })).body.data;
    const lead = (
      await t.request('POST', '/api/user/lead', {
        token: user.token,
        body: { campaign_id: campaign.id, phone_number: '+12015550123', variables: { customer_name: 'Ann' } },
      })
    ).body.data;
    const id = await callFor(a, { campaign_id: campaign.id, campaign_name: 'Hooks', lead_id: lead.id });
    await report(id, { status: 'completed', answered_by: 'human', duration: 12, recording_url: 'https://rec.example.com/x.mp3' });
    const response = await settledResponse(id, 1);
    expect(response).toEqual({
      status_code: 200,
      body: { received: true },
      attempts: 1,
      delivered_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
    });
    const [hook] = receiver.to('/ok').filter((r) => r.body.call.id === id);
    expect(hasValidSignature(hook.raw, user.webhook_secret, hook.headers['x-webhook-signature'] as string)).toBe(true);
    expect(hasValidSignature(hook.raw, 'another-secret', hook.headers['x-webhook-signature'] as string)).toBe(false);
    // docs/api.md: the timestamp is signed with the body.
    const timestamp = hook.headers['x-webhook-timestamp'] as string;
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60);
    expect(hasValidSignature(`${timestamp}.${hook.raw}`, user.webhook_secret, hook.headers['x-webhook-signature-v2'] as string)).toBe(true);
    expect(hasValidSignature(`${Number(timestamp) + 1}.${hook.raw}`, user.webhook_secret, hook.headers['x-webhook-signature-v2'] as string)).toBe(false);
    expect(hook.body).toMatchObject({
      event: 'call.ended',
      call: { id, status: 'completed', duration: 12, answered_by: 'human', campaign_name: 'Hooks' },
      lead: { id: lead.id, phone_number: '+12015550123', variables: { customer_name: 'Ann' }, campaign: { id: campaign.id, name: 'Hooks' } },
      campaign: { id: campaign.id, name: 'Hooks' },
    });
    expect(hook.body.call).not.toHaveProperty('recording_url');
    const listed = (await t.request('GET', `/api/user/calls?campaign_id=${campaign.id}`, { token: user.token })).body.data[0];
    expect(listed.webhook_response).toEqual(response);
  });

  it('includes the recording only when include_recording_in_webhook is set', async () => {
    const a = await assistant({ is_webhook_active: true, webhook_url: `${receiver.url}/ok`, include_recording_in_webhook: true });
    const id = await callFor(a);
    await report(id, { status: 'completed', recording_url: 'https://rec.example.com/y.mp3' });
    await settledResponse(id, 1);
    expect(receiver.to('/ok').find((r) => r.body.call.id === id)!.body.call.recording_url).toBe('https://rec.example.com/y.mp3');
  });

  it('sends nothing while the webhook is inactive, and only completed calls when so configured', async () => {
    const inactive = await assistant({ is_webhook_active: false, webhook_url: `${receiver.url}/ok` });
    const onlyCompleted = await assistant({ is_webhook_active: true, webhook_url: `${receiver.url}/ok`, send_webhook_only_on_completed: true });
    const quiet = await callFor(inactive);
    const missed = await callFor(onlyCompleted);
    const answered = await callFor(onlyCompleted);
    await report(quiet, { status: 'completed' });
    await report(missed, { status: 'no-answer' });
    await report(answered, { status: 'completed' });
    await settledResponse(answered, 1);
    await new Promise((r) => setTimeout(r, 300));
    const ids = receiver.to('/ok').map((r) => r.body.call.id);
    expect(ids).toContain(answered);
    expect(ids).not.toContain(quiet);
    expect(ids).not.toContain(missed);
    expect((await call(quiet)).webhook_response).toBeNull();
  });

  it('retries a receiver failing twice, then succeeding', async () => {
    const id = await callFor(await assistant({ is_webhook_active: true, webhook_url: `${receiver.url}/flaky` }));
    await report(id, { status: 'completed' });
    expect(await settledResponse(id, 3)).toMatchObject({ status_code: 200, body: { thanks: true }, attempts: 3 });
    expect(receiver.to('/flaky')).toHaveLength(3);
  });

  it('does not retry a 404, and gives up after 5 attempts on a failing receiver', async () => {
    const missing = await callFor(await assistant({ is_webhook_active: true, webhook_url: `${receiver.url}/missing` }));
    const down = await callFor(await assistant({ is_webhook_active: true, webhook_url: `${receiver.url}/down` }));
    await report(missing, { status: 'failed' });
    await report(down, { status: 'busy' });
    expect(await settledResponse(missing, 1)).toEqual({ status_code: 404, body: { error: 'nope' }, attempts: 1, delivered_at: null });
    expect(await settledResponse(down, 5)).toMatchObject({ status_code: 500, attempts: 5, delivered_at: null });
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.to('/missing')).toHaveLength(1);
    expect(receiver.to('/down')).toHaveLength(5);
  });

  it('refuses a receiver on a private address when saved, and one saved before when called, without retrying', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'voice-strict-'));
    // Saved while private targets were allowed: the call-time check still guards it.
    const permissive = await startTestApp(env, { dataDir, background: false });
    const owner = await permissive.createUser();
    const a = (
      await permissive.request('POST', '/api/user/assistant', {
        token: owner.token,
        body: { ...requiredAssistantSettings, is_webhook_active: true, webhook_url: `${receiver.url}/ok` },
      })
    ).body.data.id;
    await permissive.stop();
    const strict = await startTestApp({ ...env, ALLOW_PRIVATE_TARGETS: 'false' }, { dataDir });
    try {
      for (const webhook_url of [`${receiver.url}/ok`, 'http://10.0.0.1/hook', 'http://localhost/hook']) {
        expect(
          await strict.request('POST', '/api/user/assistant', {
            token: owner.token,
            body: { ...requiredAssistantSettings, is_webhook_active: true, webhook_url },
          }),
        ).toMatchObject({
          status: 422,
          body: { errors: { webhook_url: ['The webhook url field must point to a public address.'] } },
        });
      }
      expect(
        (await strict.request('PUT', `/api/user/assistant/${a}`, { token: owner.token, body: { inbound_webhook_url: 'http://[::1]/in' } })).body.errors,
      ).toEqual({
        inbound_webhook_url: ['The inbound webhook url field must point to a public address.'],
      });
      const id = await openCall(strict.app, { user_id: owner.id, assistant_id: a });
      const before = receiver.received.length;
      const raw = JSON.stringify({ status: 'completed' });
      await strict.request('POST', `/api/telephony/calls/${id}/events`, { body: raw, headers: { 'x-signature': sign(raw, SECRET) } });
      const response = await eventually(
        async () => (await strict.request('GET', `/api/user/calls/${id}`, { token: owner.token })).body.webhook_response,
        10_000,
        'refusal recorded',
      );
      expect(response).toMatchObject({ status_code: null, attempts: 1, error: expect.stringContaining('not a public address') });
      expect(receiver.received.length).toBe(before);
    } finally {
      await strict.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('notifies inbound_webhook_url when an inbound call starts', async () => {
    const number = (await t.request('POST', '/api/user/phone-numbers', { token: user.token, body: { phone_number: '+12015550888' } })).body.data;
    await assistant({ calls_direction: 'receive', phone_number_id: number.id, inbound_webhook_url: `${receiver.url}/inbound` });
    const raw = JSON.stringify({ from: '+12015550199', to: '+12015550888' });
    const res = await t.request('POST', '/api/telephony/inbound', { body: raw, headers: { 'x-signature': sign(raw, SECRET) } });
    const hook = await eventually(() => receiver.to('/inbound')[0], 10_000, 'inbound notification');
    expect(hook.body).toMatchObject({
      event: 'call.started',
      call: { id: res.body.call_id, type: 'inbound', status: 'initiated', client_phone_number: '+12015550199' },
      lead: null,
      campaign: null,
    });
    expect(hasValidSignature(hook.raw, user.webhook_secret, hook.headers['x-webhook-signature'] as string)).toBe(true);
  });

  it('lists the deliveries newest first with their attempts, and sends an ended one again on request (docs/api.md)', async () => {
    const a = await assistant({ is_webhook_active: true, webhook_url: `${receiver.url}/missing` });
    const id = await callFor(a);
    await report(id, { status: 'completed' });
    await settledResponse(id, 1);
    const list = (await t.request('GET', `/api/user/webhook-deliveries?call_id=${id}`, { token: user.token })).body;
    expect(list).toMatchObject({ current_page: 1, total: 1 });
    const [delivery] = list.data;
    expect(delivery).toEqual({
      id: `${id}-ended`,
      call_id: id,
      event: 'call.ended',
      url: `${receiver.url}/missing`,
      status: 'failed',
      attempts: 1,
      last_status_code: 404,
      last_error: null,
      next_attempt_at: null,
      delivered_at: null,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    const failed = (await t.request('GET', '/api/user/webhook-deliveries?status=failed&per_page=100', { token: user.token })).body.data;
    expect(failed.map((d: { id: string }) => d.id)).toContain(delivery.id);
    expect(
      (await t.request('GET', '/api/user/webhook-deliveries?status=delivered&per_page=100', { token: user.token })).body.data.map((d: { id: string }) => d.id),
    ).not.toContain(delivery.id);
    const detail = (await t.request('GET', `/api/user/webhook-deliveries/${delivery.id}`, { token: user.token })).body;
    expect(detail.attempt_log).toEqual([{ attempt: 1, status_code: 404, error: null, outcome: 'failed', at: expect.any(String) }]);

    const again = await t.request('POST', `/api/user/webhook-deliveries/${delivery.id}/redeliver`, { token: user.token });
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ message: 'Redelivery scheduled.', data: { id: delivery.id, status: 'pending' } });
    await eventually(() => receiver.to('/missing').filter((r) => r.body.call.id === id).length === 2, 10_000, 'the redelivery');
    await eventually(
      async () => (await t.request('GET', `/api/user/webhook-deliveries/${delivery.id}`, { token: user.token })).body.attempt_log.length === 2,
      10_000,
      'the second attempt recorded',
    );
    const [first, second] = receiver.to('/missing').filter((r) => r.body.call.id === id);
    expect(second.raw).toBe(first.raw);
    expect(hasValidSignature(second.raw, user.webhook_secret, second.headers['x-webhook-signature'] as string)).toBe(true);

    const stranger = await t.createUser();
    expect((await t.request('GET', `/api/user/webhook-deliveries/${delivery.id}`, { token: stranger.token })).status).toBe(404);
    expect((await t.request('POST', `/api/user/webhook-deliveries/${delivery.id}/redeliver`, { token: stranger.token })).status).toBe(404);
    expect((await t.request('GET', '/api/user/webhook-deliveries?status=nope', { token: user.token })).status).toBe(422);
  });

  it('notifies the end of a lead and of a campaign: lead.completed, campaign.stopped with its reason, campaign.completed (docs/api.md)', async () => {
    const a = await assistant({ is_webhook_active: true, webhook_url: `${receiver.url}/lifecycle` });
    const campaign = (await t.request('POST', '/api/user/campaigns', { token: user.token, body: { name: 'Ends', assistant_id: a } })).body.data;
    const lead = (await t.request('POST', '/api/user/lead', { token: user.token, body: { campaign_id: campaign.id, phone_number: '+12015550177' } })).body.data;
    expect((await t.request('PUT', `/api/user/leads/${lead.id}`, { token: user.token, body: { status: 'completed' } })).status).toBe(200);
    const hooks = (kind: string) => receiver.to('/lifecycle').filter((r) => r.body.event === kind);
    await eventually(() => hooks('lead.completed').length === 1, 10_000, 'lead.completed');
    expect(hooks('lead.completed')[0].body).toMatchObject({
      event: 'lead.completed',
      lead: { id: lead.id, status: 'completed', campaign: { id: campaign.id, name: 'Ends' } },
      campaign: { id: campaign.id, name: 'Ends' },
    });
    const [hook] = hooks('lead.completed');
    expect(hasValidSignature(hook.raw, user.webhook_secret, hook.headers['x-webhook-signature'] as string)).toBe(true);

    const status = (action: string) =>
      t.request('POST', '/api/user/campaigns/update-status', { token: user.token, body: { campaign_id: campaign.id, action } });
    await status('start');
    await status('stop');
    await eventually(() => hooks('campaign.stopped').length === 1, 10_000, 'campaign.stopped');
    expect(hooks('campaign.stopped')[0].body).toEqual({
      event: 'campaign.stopped',
      campaign: { id: campaign.id, name: 'Ends', status: 'stopped' },
      stopped_reason: 'user',
    });

    // A campaign whose only lead is completed by hand, on a day it does not dial: the dialer completes it.
    const days = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
    const closed = days[(new Date().getUTCDay() + 3) % 7];
    const body = { name: 'Done', assistant_id: a, calling_days: [closed] };
    const done = (await t.request('POST', '/api/user/campaigns', { token: user.token, body })).body.data;
    const last = (await t.request('POST', '/api/user/lead', { token: user.token, body: { campaign_id: done.id, phone_number: '+12015550178' } })).body.data;
    await t.request('POST', '/api/user/campaigns/update-status', { token: user.token, body: { campaign_id: done.id, action: 'start' } });
    await t.request('PUT', `/api/user/leads/${last.id}`, { token: user.token, body: { status: 'completed' } });
    await eventually(() => hooks('campaign.completed').some((r) => r.body.campaign.id === done.id), 10_000, 'campaign.completed');
    expect(hooks('campaign.completed')[0].body).toEqual({ event: 'campaign.completed', campaign: { id: done.id, name: 'Done', status: 'completed' } });
    const deliveries = (await t.request('GET', '/api/user/webhook-deliveries?per_page=100', { token: user.token })).body.data;
    expect(deliveries.filter((d: { event: string }) => d.event.startsWith('campaign.')).map((d: { call_id: null }) => d.call_id)).toEqual([null, null]);
  });

  it('resumes a pending delivery after a restart', async () => {
    await t.stop();
    const slow = await startTestApp({ ...env, WEBHOOK_RETRY_DELAYS: '1,1,1,1' }, { dataDir });
    const a = (
      await slow.request('POST', '/api/user/assistant', {
        token: user.token,
        body: { ...requiredAssistantSettings, is_webhook_active: true, webhook_url: `${receiver.url}/later` },
      })
    ).body.data.id;
    const id = await openCall(slow.app, { user_id: user.id, assistant_id: a });
    const raw = JSON.stringify({ status: 'completed' });
    await slow.request('POST', `/api/telephony/calls/${id}/events`, { body: raw, headers: { 'x-signature': sign(raw, SECRET) } });
    await eventually(() => receiver.to('/later').length === 1, 10_000, 'first attempt');
    await slow.stop();
    expect(receiver.to('/later')).toHaveLength(1);

    t = await startTestApp(env, { dataDir });
    expect(await settledResponse(id, 2)).toMatchObject({ status_code: 200, body: { late: true }, attempts: 2 });
    expect(receiver.to('/later')).toHaveLength(2);
  });
});
