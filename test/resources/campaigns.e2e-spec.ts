import { requiredAssistantSettings } from '../../src/testing/assistant.fixture';
import { startTestApp, TestApp } from '../support/test-app';

describe('campaigns API', () => {
  let t: TestApp;
  let token: string;
  let otherToken: string;
  let assistantId: number;

  beforeAll(async () => {
    t = await startTestApp();
    token = (await t.createUser()).token;
    otherToken = (await t.createUser()).token;
    assistantId = (await t.request('POST', '/api/user/assistant', { token, body: requiredAssistantSettings })).body.data.id;
  });
  afterAll(() => t.close());

  const create = (body: object, as = token) => t.request('POST', '/api/user/campaigns', { token: as, body });
  const status = (campaign_id: unknown, action: unknown, as = token) =>
    t.request('POST', '/api/user/campaigns/update-status', { token: as, body: { campaign_id, action } });
  const addLead = (campaign_id: number, phone_number = '+12015550123') =>
    t.request('POST', '/api/user/lead', { token, body: { campaign_id, phone_number, allow_dupplicate: true } });

  it('creates a draft campaign with default scheduling settings, the assistant timezone and stats', async () => {
    const res = await create({ name: 'Spring', assistant_id: assistantId });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      message: 'Campaign created successfully',
      data: {
        id: expect.any(Number),
        name: 'Spring',
        assistant_id: assistantId,
        status: 'draft',
        max_retries: 3,
        retry_delay_seconds: 3600,
        calling_hours: { start: '09:00', end: '17:00' },
        calling_days: ['mon', 'tue', 'wed', 'thu', 'fri'],
        max_concurrent_calls: 5,
        window_timezone: 'assistant',
        holidays: [],
        retry_policy: {},
        max_calls_per_minute: null,
        failure_breaker: null,
        timezone: 'America/New_York',
        stats: { leads: { created: 0, completed: 0, 'reached-max-retries': 0 }, calls_in_flight: 0 },
        stopped_reason: null,
        last_error: null,
        next_window_at: null,
        created_at: expect.stringMatching(/Z$/),
        updated_at: expect.stringMatching(/Z$/),
      },
    });
    expect((await t.request('GET', `/api/user/campaigns/${res.body.data.id}`, { token })).body).toEqual(res.body.data);
  });

  it.each([
    [{ name: 'x', assistant_id: 1, max_retries: 21 }, 'max_retries', 'The max retries field must be between 0 and 20.'],
    [{ name: 'x', assistant_id: 1, max_retries: -1 }, 'max_retries', 'The max retries field must be between 0 and 20.'],
    [{ name: 'x', assistant_id: 1, retry_delay_seconds: 604801 }, 'retry_delay_seconds', 'The retry delay seconds field must be between 0 and 604800.'],
    [{ name: 'x', assistant_id: 1, max_concurrent_calls: 0 }, 'max_concurrent_calls', 'The max concurrent calls field must be between 1 and 100.'],
    [{ name: 'x', assistant_id: 1, max_concurrent_calls: 101 }, 'max_concurrent_calls', 'The max concurrent calls field must be between 1 and 100.'],
    [{ name: 'x', assistant_id: 1, calling_hours: { start: '9', end: '17:00' } }, 'calling_hours.start', 'The calling hours.start field format is invalid.'],
    [{ name: 'x', assistant_id: 1, calling_hours: { start: '09:00', end: '24:01' } }, 'calling_hours.end', 'The calling hours.end field format is invalid.'],
    [{ name: 'x', assistant_id: 1, calling_days: ['mon', 'holiday'] }, 'calling_days', 'The selected calling days is invalid.'],
    [{ name: 'x', assistant_id: 1, calling_days: [] }, 'calling_days', 'The calling days field must have at least 1 items.'],
    [{ name: 'x', assistant_id: 1, calling_days: 'mon' }, 'calling_days', 'The calling days field must be an array.'],
    [{ name: 'x', assistant_id: 1, calling_hours: 'x' }, 'calling_hours', 'The calling hours field must be an array.'],
    [{ assistant_id: 1 }, 'name', 'The name field is required.'],
    [{ name: 'x'.repeat(256), assistant_id: 1 }, 'name', 'The name field must not be greater than 255 characters.'],
  ])('refuses %j on %s', async (body, field, message) => {
    const res = await create(body);
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('Validation failed');
    expect(res.body.errors[field]).toEqual([message]);
  });

  it('accepts the bounds, a window ending at 24:00, and refuses hours that end before they start', async () => {
    const ok = await create({
      name: 'b',
      assistant_id: assistantId,
      max_retries: 20,
      retry_delay_seconds: 0,
      max_concurrent_calls: 100,
      calling_hours: { start: '00:00', end: '24:00' },
      calling_days: ['sat', 'sun'],
    });
    expect(ok.body).toMatchObject({ data: { calling_hours: { end: '24:00' } } });
    const bad = await create({ name: 'b', assistant_id: assistantId, calling_hours: { start: '17:00', end: '09:00' } });
    expect(bad.body).toEqual({
      message: 'Validation failed',
      errors: { 'calling_hours.end': ['The calling hours.end field must be a time after calling hours.start.'] },
    });
  });

  it('refuses an assistant of another user or one that only receives calls', async () => {
    const inbound = (await t.request('POST', '/api/user/assistant', { token, body: { ...requiredAssistantSettings, calls_direction: 'receive' } })).body.data
      .id;
    for (const id of [inbound, 999999]) {
      expect((await create({ name: 'x', assistant_id: id })).body).toEqual({
        message: 'Validation failed',
        errors: { assistant_id: ['The selected assistant id is invalid.'] },
      });
    }
    expect((await create({ name: 'x', assistant_id: assistantId }, otherToken)).status).toBe(422);
  });

  it("answers every failed rule at once, the assistant's too, and writes nothing", async () => {
    const before = (await t.request('GET', '/api/user/campaigns?per_page=100', { token })).body.total;
    const bad = await create({ name: 'x', assistant_id: 999999, calling_days: ['monday'], max_retries: 21 });
    expect(bad.body).toEqual({
      message: 'Validation failed',
      errors: {
        max_retries: ['The max retries field must be between 0 and 20.'],
        calling_days: ['The selected calling days is invalid.'],
        assistant_id: ['The selected assistant id is invalid.'],
      },
    });
    expect((await t.request('GET', '/api/user/campaigns?per_page=100', { token })).body.total).toBe(before);
  });

  it('updates only the given settings', async () => {
    const id = (await create({ name: 'Before', assistant_id: assistantId })).body.data.id;
    const res = await t.request('PUT', `/api/user/campaigns/${id}`, { token, body: { name: 'After', max_retries: 0 } });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Campaign updated successfully');
    expect(res.body.data).toMatchObject({ name: 'After', max_retries: 0, retry_delay_seconds: 3600 });
    expect((await t.request('PUT', `/api/user/campaigns/${id}`, { token: otherToken, body: { name: 'x' } })).body).toEqual({ message: 'Campaign not found' });
  });

  it('starts and stops with the exact answers, idempotently, and refuses a start with nothing to call', async () => {
    const id = (await create({ name: 'Go', assistant_id: assistantId })).body.data.id;
    expect(await status(id, 'start')).toMatchObject({ status: 422, body: { message: 'Campaign has no leads to call.', success: false } });
    expect((await t.request('GET', `/api/user/campaigns/${id}`, { token })).body.status).toBe('draft');
    await addLead(id);
    const started = { message: 'Campaign started successfully.', success: true, data: { campaign_id: id, status: 'in-progress' } };
    const stopped = { message: 'Campaign stopped successfully.', success: true, data: { campaign_id: id, status: 'stopped' } };
    expect(await status(id, 'start')).toMatchObject({ status: 200, body: started });
    expect(await status(id, 'start')).toMatchObject({ status: 200, body: started });
    expect(await status(id, 'stop')).toMatchObject({ status: 200, body: stopped });
    expect(await status(id, 'stop')).toMatchObject({ status: 200, body: stopped });
    expect((await t.request('GET', `/api/user/campaigns/${id}`, { token })).body).toMatchObject({ status: 'stopped', stopped_reason: 'user' });
    expect(await status(id, 'start')).toMatchObject({ status: 200, body: started });
    expect((await t.request('GET', `/api/user/campaigns/${id}`, { token })).body).toMatchObject({
      status: 'in-progress',
      stopped_reason: null,
      stats: { leads: { created: 1 } },
    });
  });

  it('answers an unknown or foreign campaign 404 with success false, and a bad action 422', async () => {
    const id = (await create({ name: 'Mine', assistant_id: assistantId })).body.data.id;
    expect(await status(id, 'start', otherToken)).toMatchObject({ status: 404, body: { message: 'Campaign not found', success: false } });
    expect(await status(999999, 'stop')).toMatchObject({ status: 404, body: { message: 'Campaign not found', success: false } });
    expect((await status(id, 'pause')).body).toEqual({ message: 'Validation failed', errors: { action: ['The selected action is invalid.'] } });
    expect((await status('x', 'start')).body.errors.campaign_id).toEqual(['The campaign id field must be an integer.']);
    expect(await t.request('GET', `/api/user/campaigns/${id}`, { token: otherToken })).toMatchObject({ status: 404, body: { message: 'Campaign not found' } });
  });

  it("lists the user's campaigns in a page envelope", async () => {
    const mine = await t.request('GET', '/api/user/campaigns?per_page=2', { token });
    expect(mine.body).toMatchObject({ current_page: 1, per_page: 2, data: [expect.any(Object), expect.any(Object)] });
    expect(mine.body.total).toBeGreaterThan(2);
    expect((await t.request('GET', '/api/user/campaigns', { token: otherToken })).body).toMatchObject({ total: 0, data: [] });
    expect((await t.request('GET', '/api/user/campaigns?per_page=101', { token })).status).toBe(422);
  });
});
