import { allDayCampaign } from '../support/all-day-campaign';
import { eventually } from '../support/fake-provider';
import { Receiver } from '../support/receiver';
import { startTestApp, TestApp } from '../support/test-app';

/** docs/privacy.md: what an organisation holds on one number, on request. */
describe('GET /api/user/privacy/subjects/{phone_number}', () => {
  let t: TestApp;
  let token: string;
  let organisationId: number;
  const subject = '+12015550142';
  const hooks = new Receiver(() => ({ status: 200, body: { ok: true } }));

  beforeAll(async () => {
    t = await startTestApp({ DIAL_INTERVAL_MS: '20', SIMULATED_CALL_STEP_SECONDS: '0', SIMULATED_DIALER_ODDS: 'human:1' });
    await hooks.start();
    ({ token, organisation_id: organisationId } = await t.createUser());
    const campaign = await allDayCampaign(t, token, { name: 'Subjects', max_retries: 0 }, { is_webhook_active: true, webhook_url: `${hooks.url}/hook` });
    await t.request('POST', '/api/user/lead', { token, body: { campaign_id: campaign, phone_number: subject, variables: { first_name: 'Ada' } } });
    await t.request('POST', '/api/user/lead', {
      token,
      body: { campaign_id: campaign, phone_number: '+12015550143', secondary_contacts: [{ phone_number: subject, variables: { relation: 'daughter' } }] },
    });
    await t.request('POST', '/api/user/lead', { token, body: { campaign_id: campaign, phone_number: '+12015550144' } });
    await t.request('POST', '/api/user/campaigns/update-status', { token, body: { campaign_id: campaign, action: 'start' } });
    await eventually(
      async () => (await t.request('GET', `/api/user/campaigns/${campaign}`, { token })).body.status === 'completed',
      20_000,
      'campaign to complete',
    );
    // Each lead's call.ended and lead.completed, and the campaign's completion.
    await eventually(async () => hooks.received.length >= 7, 20_000, 'the webhooks');
    expect((await t.request('POST', '/api/user/dnc', { token, body: { phone_numbers: [subject] } })).status).toBe(200);
  });
  afterAll(async () => {
    await t.close();
    await hooks.stop();
  });

  it('answers its leads as primary and as secondary contact, its calls, its listing, with nothing of another number', async () => {
    const res = await t.request('GET', `/api/user/privacy/subjects/${encodeURIComponent(subject)}`, { token });
    expect(res.status).toBe(200);
    const held = res.body;
    expect(held.phone_number).toBe(subject);
    expect(held.leads.map((lead: { phone_number: string; held_as: string }) => [lead.phone_number, lead.held_as])).toEqual([
      [subject, 'primary'],
      ['+12015550143', 'secondary'],
    ]);
    expect(held.leads[0].variables).toEqual({ first_name: 'Ada' });
    expect(held.do_not_call).toBe(true);
    expect(held.calls.length).toBeGreaterThan(0);
    expect(held.calls.every((call: { client_phone_number: string }) => call.client_phone_number === subject)).toBe(true);
    expect(JSON.stringify(held)).not.toContain('+12015550144');
    expect(Date.parse(held.generated_at)).not.toBeNaN();
    expect(held).toHaveProperty('import_rows');
  });

  it('answers the webhook deliveries whose body names it: its call, its lead, and another lead listing it as a contact', async () => {
    const held = (await t.request('GET', `/api/user/privacy/subjects/${encodeURIComponent(subject)}`, { token })).body;
    const shown = (held.webhook_deliveries as Array<{ id: string; event: string }>).map((d) => d.event).sort();
    // Each of the two leads holding the number: its call's end and its completion; not the third lead's, nor the campaign's.
    expect(shown).toEqual(['call.ended', 'call.ended', 'lead.completed', 'lead.completed']);
    const bodies = hooks.received.filter((hook) => JSON.stringify(hook.body).includes(subject));
    expect(bodies.map((hook) => hook.body.event).sort()).toEqual(shown);
  });

  it('takes the number in any spelling a lead takes, refuses one that is none (422), and holds nothing for another organisation', async () => {
    expect((await t.request('GET', `/api/user/privacy/subjects/12015550142x`, { token })).status).toBe(422);
    const other = await t.createUser();
    const theirs = await t.request('GET', `/api/user/privacy/subjects/${encodeURIComponent(subject)}`, { token: other.token });
    expect(theirs.status).toBe(200);
    expect(theirs.body).toMatchObject({ leads: [], calls: [], do_not_call: false, webhook_deliveries: [], import_rows: [] });
    expect(organisationId).not.toBe(other.organisation_id);
  });

  it('is for admins and owners: an editor is refused 403', async () => {
    const editor = await t.request('POST', '/api/user/members', { token, body: { email: 'editor-privacy@example.com', role: 'editor' } });
    const refused = await t.request('GET', `/api/user/privacy/subjects/${encodeURIComponent(subject)}`, { token: editor.body.data.token });
    expect(refused.status).toBe(403);
  });
});
