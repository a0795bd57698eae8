import { EVENT_STORE, EventStore } from '../../src/shared/ports/event-store.port';
import { ProjectionRunner } from '../../src/infrastructure/projections/projection-runner';
import { LeadsProjection } from '../../src/leads/leads.projection';
import { requiredAssistantSettings } from '../../src/testing/assistant.fixture';
import { startTestApp, TestApp } from '../support/test-app';

const SQL_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

describe('leads API', () => {
  let t: TestApp;
  let token: string;
  let otherToken: string;
  let campaignId: number;
  let secondCampaignId: number;
  let foreignCampaignId: number;

  const newCampaign = async (as: string, name = 'C') => {
    const assistant = (await t.request('POST', '/api/user/assistant', { token: as, body: requiredAssistantSettings })).body.data.id;
    return (await t.request('POST', '/api/user/campaigns', { token: as, body: { name, assistant_id: assistant } })).body.data.id as number;
  };

  beforeAll(async () => {
    t = await startTestApp();
    token = (await t.createUser()).token;
    otherToken = (await t.createUser()).token;
    campaignId = await newCampaign(token, 'Spring');
    secondCampaignId = await newCampaign(token, 'Summer');
    foreignCampaignId = await newCampaign(otherToken, 'Theirs');
  });
  afterAll(() => t.close());

  const create = (body: object, as = token) => t.request('POST', '/api/user/lead', { token: as, body });
  const update = (id: number, body: unknown, as = token) => t.request('PUT', `/api/user/leads/${id}`, { token: as, body });
  const list = (query = '', as = token) => t.request('GET', `/api/user/leads${query}`, { token: as });
  let phone = 5550100;
  const nextPhone = () => `+1201${phone++}`;

  describe('create', () => {
    it('answers 200 with the lead, its campaign and its secondary contacts, numbers in E.164', async () => {
      const res = await create({
        phone_number: '+1 (201) 555-0123',
        campaign_id: campaignId,
        variables: { customer_name: 'Ann', email: 'ann@example.com' },
        secondary_contacts: [{ phone_number: '+44 20 7946 0958', variables: { role: 'office' } }, { phone_number: '+12015550124' }],
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        message: 'Lead created successfully',
        data: {
          id: expect.any(Number),
          campaign_id: campaignId,
          phone_number: '+12015550123',
          variables: { customer_name: 'Ann', email: 'ann@example.com' },
          status: 'created',
          timezone: 'America/New_York',
          stopped_reason: null,
          attempts: 0,
          next_attempt_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
          last_call_status: null,
          last_called_at: null,
          created_at: expect.stringMatching(SQL_TIME),
          updated_at: expect.stringMatching(SQL_TIME),
          campaign: { id: campaignId, name: 'Spring' },
          secondary_contacts: [
            {
              id: expect.any(Number),
              phone_number: '+442079460958',
              variables: { role: 'office' },
              status: 'created',
              created_at: expect.stringMatching(SQL_TIME),
              updated_at: expect.stringMatching(SQL_TIME),
            },
            {
              id: expect.any(Number),
              phone_number: '+12015550124',
              variables: {},
              status: 'created',
              created_at: expect.stringMatching(SQL_TIME),
              updated_at: expect.stringMatching(SQL_TIME),
            },
          ],
        },
      });
      const [a, b] = res.body.data.secondary_contacts;
      expect(b.id).toBeGreaterThan(a.id);
      // Read your writes: once answered, both lists show the lead exactly as the answer did.
      expect((await list(`?campaign_id=${campaignId}&per_page=100`)).body).toContainEqual(res.body.data);
      expect((await list('?per_page=100')).body).toContainEqual(res.body.data);
    });

    it('refuses a second lead with the same number in the campaign unless duplicates are allowed', async () => {
      const number = nextPhone();
      expect((await create({ phone_number: number, campaign_id: campaignId })).status).toBe(200);
      expect(await create({ phone_number: number, campaign_id: campaignId })).toMatchObject({
        status: 422,
        body: {
          message: 'The phone number has already been taken for this campaign.',
          errors: { phone_number: ['The phone number has already been taken for this campaign.'] },
        },
      });
      expect(await create({ phone_number: number, campaign_id: campaignId, allow_dupplicate: false })).toMatchObject({ status: 422 });
      expect(await create({ phone_number: number, campaign_id: campaignId, allow_dupplicate: true })).toMatchObject({ status: 200 });
      // Another campaign is another list.
      expect(await create({ phone_number: number, campaign_id: secondCampaignId })).toMatchObject({ status: 200 });
    });

    it.each([
      [{ phone_number: undefined }, 'phone_number', 'The phone number field is required.'],
      [{ phone_number: '2015550123' }, 'phone_number', 'The phone number field must be a valid phone number in E.164 format.'],
      [{ phone_number: '+1555' }, 'phone_number', 'The phone number field must be a valid phone number in E.164 format.'],
      [{ campaign_id: undefined }, 'campaign_id', 'The campaign id field is required.'],
      [{ campaign_id: 'x' }, 'campaign_id', 'The campaign id field must be an integer.'],
      [{ variables: 'x' }, 'variables', 'The variables field must be an array.'],
      [{ variables: { nested: { a: 1 } } }, 'variables', 'The variables field values must be strings, numbers, booleans or null.'],
      [
        { variables: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, i])) },
        'variables',
        'The variables field must not have more than 100 items.',
      ],
      [{ allow_dupplicate: 'yes' }, 'allow_dupplicate', 'The allow dupplicate field must be true or false.'],
      [
        { secondary_contacts: [{ phone_number: 'nope' }] },
        'secondary_contacts.0.phone_number',
        'The secondary contacts.0.phone number field must be a valid phone number in E.164 format.',
      ],
      [{ secondary_contacts: [{}] }, 'secondary_contacts.0.phone_number', 'The secondary contacts.0.phone number field is required.'],
      [{ secondary_contacts: 'x' }, 'secondary_contacts', 'The secondary contacts field must be an array.'],
      [{ secondary_contacts: [1] }, 'secondary_contacts.0', 'The secondary contacts.0 field must be an object.'],
      [{ secondary_contacts: [[]] }, 'secondary_contacts.0', 'The secondary contacts.0 field must be an object.'],
      [{ secondary_contacts: [[[]]] }, 'secondary_contacts.0', 'The secondary contacts.0 field must be an object.'],
      [{ secondary_contacts: [['+12015554802']] }, 'secondary_contacts.0', 'The secondary contacts.0 field must be an object.'],
    ])('refuses %j: the first field message is the message', async (body, field, message) => {
      const res = await create({ phone_number: '+12015550123', campaign_id: campaignId, ...body });
      expect(res.status).toBe(422);
      expect(res.body.message).toBe(message);
      expect(res.body.errors[field]).toEqual([message]);
    });

    it("accepts 100 variables, and refuses a campaign that is not the user's", async () => {
      const variables = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, i % 2 ? `v${i}` : i]));
      expect((await create({ phone_number: nextPhone(), campaign_id: campaignId, variables })).status).toBe(200);
      for (const id of [foreignCampaignId, 999999]) {
        expect((await create({ phone_number: nextPhone(), campaign_id: id })).body).toEqual({
          message: 'The selected campaign id is invalid.',
          errors: { campaign_id: ['The selected campaign id is invalid.'] },
        });
      }
    });

    it('answers every failed rule at once, the first message on top, and writes nothing', async () => {
      const before = (await list('?per_page=1000')).body.length;
      const bad = 'The phone number field must be a valid phone number in E.164 format.';
      expect(await create({ phone_number: '2015550123', campaign_id: foreignCampaignId, variables: 'x' })).toMatchObject({
        status: 422,
        body: {
          message: bad,
          errors: { phone_number: [bad], variables: ['The variables field must be an array.'], campaign_id: ['The selected campaign id is invalid.'] },
        },
      });
      const taken = nextPhone();
      const accepted = await create({ phone_number: taken, campaign_id: campaignId });
      expect(accepted.status).toBe(200);
      expect((await create({ phone_number: taken, campaign_id: campaignId, allow_dupplicate: 'yes' })).body).toEqual({
        message: 'The allow dupplicate field must be true or false.',
        errors: {
          allow_dupplicate: ['The allow dupplicate field must be true or false.'],
          phone_number: ['The phone number has already been taken for this campaign.'],
        },
      });
      expect((await list('?per_page=1000')).body.length).toBe(before + 1);
      expect((await create([{ phone_number: nextPhone(), campaign_id: campaignId }] as unknown as object)).body).toEqual({
        message: 'The request body must be a JSON object.',
        errors: { body: ['The request body must be a JSON object.'] },
      });
      expect((await create({ phone_number: nextPhone(), campaign_id: foreignCampaignId })).status).toBe(422);
      // Refused leads draw no ids: the next lead follows the last one accepted.
      expect((await create({ phone_number: nextPhone(), campaign_id: campaignId })).body.data.id).toBe(accepted.body.data.id + 1);
    });
  });

  describe('update', () => {
    let id: number;
    beforeEach(async () => {
      id = (
        await create({
          phone_number: nextPhone(),
          campaign_id: campaignId,
          variables: { customer_name: 'Ann', email: 'a@x.io' },
          secondary_contacts: [{ phone_number: nextPhone() }],
        })
      ).body.data.id;
    });
    const lead = async (leadId = id) => (await list(`?per_page=1000`)).body.find((l: { id: number }) => l.id === leadId);

    it('merges variables instead of replacing them', async () => {
      expect(await update(id, { variables: { email: 'b@x.io', score: 7 } })).toMatchObject({ status: 200, body: { message: 'Lead updated successfully' } });
      expect((await lead()).variables).toEqual({ customer_name: 'Ann', email: 'b@x.io', score: 7 });
    });

    it('lists every field that is not one of the four allowed', async () => {
      const res = await update(id, { status: 'completed', name: 'x', allow_dupplicate: true });
      expect(res).toMatchObject({ status: 422, body: { message: 'Invalid fields: name, allow_dupplicate' } });
      expect((await lead()).status).toBe('created');
    });

    it('refuses the status the dialer alone assigns, and statuses that do not exist', async () => {
      const reserved = await update(id, { status: 'reached-max-retries' });
      expect(reserved).toMatchObject({
        status: 422,
        body: { message: 'Validation failed', errors: { status: [expect.stringContaining('reached-max-retries')] } },
      });
      expect((await update(id, { status: 'paused' })).body).toEqual({ message: 'Validation failed', errors: { status: ['The selected status is invalid.'] } });
      expect((await update(id, { variables: 'x' })).body).toEqual({
        message: 'Validation failed',
        errors: { variables: ['The variables field must be an array.'] },
      });
    });

    it('completes a lead by hand and re-queues it with created', async () => {
      await update(id, { status: 'completed' });
      expect((await lead()).status).toBe('completed');
      await update(id, { status: 'created' });
      expect(await lead()).toMatchObject({ status: 'created', secondary_contacts: [{ status: 'created' }] });
    });

    it('changes the number in E.164 and refuses one that cannot be formatted', async () => {
      await update(id, { phone_number: '+1 201 555 0999' });
      expect((await lead()).phone_number).toBe('+12015550999');
      expect(await update(id, { phone_number: '12345' })).toMatchObject({ status: 422, body: { message: 'Invalid phone number' } });
    });

    it("moves the lead to another campaign of the user, never to another user's", async () => {
      await update(id, { campaign_id: secondCampaignId });
      expect(await lead()).toMatchObject({ campaign_id: secondCampaignId, campaign: { id: secondCampaignId, name: 'Summer' } });
      expect(await update(id, { campaign_id: foreignCampaignId })).toMatchObject({ status: 404, body: { message: 'Campaign not found' } });
      expect(await update(id, { campaign_id: 999999 })).toMatchObject({ status: 404, body: { message: 'Campaign not found' } });
      expect((await lead()).campaign_id).toBe(secondCampaignId);
    });

    it('answers a missing or foreign lead 404', async () => {
      expect(await update(id, { status: 'completed' }, otherToken)).toMatchObject({ status: 404, body: { message: 'Lead not found' } });
      expect(await update(999999, { status: 'completed' })).toMatchObject({ status: 404, body: { message: 'Lead not found' } });
    });
  });

  describe('delete', () => {
    it('removes the lead from lists, keeps its events, and then answers 404', async () => {
      const id = (await create({ phone_number: nextPhone(), campaign_id: campaignId })).body.data.id;
      expect(await t.request('DELETE', `/api/user/leads/${id}`, { token: otherToken })).toMatchObject({ status: 404, body: { message: 'Lead not found' } });
      expect(await t.request('DELETE', `/api/user/leads/${id}`, { token })).toMatchObject({ status: 200, body: { message: 'Lead deleted successfully' } });
      expect((await list('?per_page=1000')).body.some((l: { id: number }) => l.id === id)).toBe(false);
      expect(await t.request('DELETE', `/api/user/leads/${id}`, { token })).toMatchObject({ status: 404 });
      expect(await update(id, { status: 'completed' })).toMatchObject({ status: 404 });
      const events = await t.app.get<EventStore>(EVENT_STORE).readStream(`lead-${id}`);
      expect(events.map((e) => e.type)).toEqual(['LeadCreated', 'LeadDeleted']);
    });
  });

  describe('list', () => {
    it("is a plain array of the user's leads, oldest first, filtered by campaign, status and number", async () => {
      const mine = await list();
      expect(Array.isArray(mine.body)).toBe(true);
      const ids = mine.body.map((l: { id: number }) => l.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(mine.headers.get('x-total-count')).toBe(String(mine.body.length));
      expect((await list('', otherToken)).body).toEqual([]);
      const number = nextPhone();
      const target = (await create({ phone_number: number, campaign_id: secondCampaignId })).body.data;
      await update(target.id, { status: 'completed' });
      const filtered = await list(`?campaign_id=${secondCampaignId}&status=completed&phone_number=${encodeURIComponent(number)}`);
      expect(filtered.body.map((l: { id: number }) => l.id)).toEqual([target.id]);
      expect(filtered.body[0].campaign).toEqual({ id: secondCampaignId, name: 'Summer' });
      expect((await list('?status=bogus')).status).toBe(422);
      expect((await list('?per_page=1001')).status).toBe(422);
      expect((await list('?per_page=0')).status).toBe(422);
    });

    it("shows a campaign's page (sent from stored views) as the list across campaigns shows the same leads, after changes and a rename", async () => {
      const campaign = await newCampaign(token, 'Autumn');
      const first = (
        await create({ phone_number: nextPhone(), campaign_id: campaign, variables: { a: '1' }, secondary_contacts: [{ phone_number: nextPhone() }] })
      ).body.data;
      const second = (await create({ phone_number: nextPhone(), campaign_id: campaign })).body.data;
      await update(first.id, { variables: { b: '2' }, status: 'completed' });
      await update(second.id, { phone_number: nextPhone() });
      expect((await t.request('PUT', `/api/user/campaigns/${campaign}`, { token, body: { name: 'Fall' } })).status).toBe(200);

      const page = await list(`?campaign_id=${campaign}`);
      expect(page.headers.get('content-type')).toMatch(/^application\/json/);
      const across = (await list('?per_page=1000')).body.filter((l: { campaign_id: number }) => l.campaign_id === campaign);
      expect(page.body).toEqual(across);
      expect(page.body.map((l: { id: number }) => l.id)).toEqual([first.id, second.id]);
      expect(page.body[0]).toMatchObject({ variables: { a: '1', b: '2' }, status: 'completed', campaign: { id: campaign, name: 'Fall' } });
      expect(page.body[0].secondary_contacts).toHaveLength(1);
      expect((await list(`?campaign_id=${campaign}`, otherToken)).body).toEqual([]);
    });

    it('serves a filtered page of 10,000 leads through the index, with the total and the next page in headers', async () => {
      const campaign = await newCampaign(token, 'Big');
      const store = t.app.get<EventStore>(EVENT_STORE);
      const user = (await list()).body[0];
      const userId = (await t.app.get(LeadsProjection).leads.get(user.id))!.user_id;
      for (let i = 0; i < 10_000; i++) {
        const id = await store.nextId('lead');
        await store.append(
          `lead-${id}`,
          [
            {
              type: 'LeadCreated',
              data: { lead_id: id, user_id: userId, campaign_id: campaign, phone_number: `+1201${5000000 + i}`, variables: {}, secondary_contacts: [] },
            },
          ],
          'no_stream',
        );
      }
      await t.app.get(ProjectionRunner).catchUp();
      const find = jest.spyOn(t.app.get(LeadsProjection).leads, 'findViews');
      const page = await list(`?campaign_id=${campaign}&status=created&per_page=100&page=3`);
      expect(page.status).toBe(200);
      expect(page.body).toHaveLength(100);
      expect(page.body[0].phone_number).toBe('+12015000200');
      expect(page.headers.get('x-total-count')).toBe('10000');
      expect(page.headers.get('link')).toMatch(/[?&]page=4>; rel="next"$/);
      expect(find).toHaveBeenCalledWith(expect.objectContaining({ campaign_id: campaign }), expect.objectContaining({ limit: 100, skip: 200 }));
      const last = await list(`?campaign_id=${campaign}&per_page=100&page=100`);
      expect(last.body).toHaveLength(100);
      expect(last.headers.get('link')).toBeNull();
    }, 60_000);
  });
});
