import { requiredAssistantSettings } from '../../src/testing/assistant.fixture';
import { startTestApp, TestApp } from '../support/test-app';

const required = requiredAssistantSettings;
const ISO_MICROS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

describe('assistants, voices and phone numbers API', () => {
  let t: TestApp;
  let token: string;
  let otherToken: string;

  beforeAll(async () => {
    t = await startTestApp();
    token = (await t.createUser(undefined, 100)).token;
    otherToken = (await t.createUser()).token;
  });
  afterAll(() => t.close());

  const create = (body: object, as = token) => t.request('POST', '/api/user/assistant', { token: as, body });
  const update = (id: number, body: object, as = token) => t.request('PUT', `/api/user/assistant/${id}`, { token: as, body });
  const getOne = (id: number, as = token) => t.request('GET', `/api/user/assistants/${id}`, { token: as });
  const newTool = async (as = token) =>
    (await t.request('POST', '/api/user/tools', { token: as, body: { name: 'lookup', description: 'd', endpoint: 'https://x.io', method: 'GET' } })).body.data;

  it('serves the voice and language catalogs', async () => {
    const voices = await t.request('GET', '/api/user/voices', { token });
    expect(voices.body.length).toBeGreaterThanOrEqual(5);
    expect(voices.body[0]).toEqual({
      id: expect.any(Number),
      name: expect.any(String),
      provider: expect.any(String),
      language: expect.any(String),
      runtime_voices: { vapi: { provider: '11labs', voiceId: expect.any(String) }, retell: expect.any(String), twilio: expect.any(Object) },
    });
    expect((await t.request('GET', '/api/user/languages', { token })).body[0]).toMatchObject({ id: 1, name: 'English' });
  });

  describe('phone numbers', () => {
    it('adds a number in E.164, lists and deletes it, refusing duplicates and bad numbers', async () => {
      const added = await t.request('POST', '/api/user/phone-numbers', { token, body: { phone_number: '+1 (201) 555-0123', label: 'Main' } });
      expect(added).toMatchObject({
        status: 201,
        body: { message: 'Phone number created successfully', data: { phone_number: '+12015550123', label: 'Main' } },
      });
      expect((await t.request('POST', '/api/user/phone-numbers', { token, body: { phone_number: '+12015550123' } })).body).toEqual({
        message: 'Validation failed',
        errors: { phone_number: ['The phone number has already been taken.'] },
      });
      expect((await t.request('POST', '/api/user/phone-numbers', { token, body: { phone_number: '2015550123' } })).status).toBe(422);
      // docs/teams.md: a number is one account's alone (its caller id, its inbound calls): another user is refused it.
      expect((await t.request('POST', '/api/user/phone-numbers', { token: otherToken, body: { phone_number: '+12015550123' } })).body).toEqual({
        message: 'Validation failed',
        errors: { phone_number: ['The phone number has already been taken.'] },
      });
      expect((await t.request('GET', '/api/user/phone-numbers', { token })).body).toEqual([added.body.data]);
      const id = added.body.data.id;
      expect(await t.request('DELETE', `/api/user/phone-numbers/${id}`, { token: otherToken })).toMatchObject({
        status: 404,
        body: { message: 'Phone number not found' },
      });
      expect(await t.request('DELETE', `/api/user/phone-numbers/${id}`, { token })).toMatchObject({
        status: 200,
        body: { message: 'Phone number deleted successfully' },
      });
      expect((await t.request('GET', '/api/user/phone-numbers', { token })).body).toEqual([]);
      // Released, it may be taken by another.
      expect((await t.request('POST', '/api/user/phone-numbers', { token: otherToken, body: { phone_number: '+12015550123' } })).status).toBe(201);
    });

    it('gives a number two users race to register to exactly one of them', async () => {
      const users = await Promise.all([1, 2, 3, 4].map(() => t.createUser()));
      const answers = await Promise.all(
        users.map((u) => t.request('POST', '/api/user/phone-numbers', { token: u.token, body: { phone_number: '+12015550177' } })),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([201, 422, 422, 422]);
    });
  });

  describe('create', () => {
    it('answers 201 with id, name, status, type and mode', async () => {
      const res = await create(required);
      expect(res).toMatchObject({ status: 201 });
      expect(res.body).toEqual({
        message: 'Assistant created successfully',
        data: { id: expect.any(Number), name: 'Ada', status: 'active', type: 'outbound', mode: 'pipeline' },
      });
      const inbound = await create({ ...required, calls_direction: 'receive', engine_type: 'multimodal' });
      expect(inbound.body.data).toMatchObject({ type: 'inbound', mode: 'multimodal' });
    });

    it.each(Object.keys(required))('requires %s', async (field) => {
      const res = await create({ ...required, [field]: undefined });
      expect(res.status).toBe(422);
      expect(res.body.message).toBe('Validation failed');
      expect(res.body.errors[field]).toEqual([`The ${field.replace(/_/g, ' ')} field is required.`]);
    });

    const ranges: Array<[string, number, number, boolean]> = [
      ['endpoint_sensitivity', 0, 5, false],
      ['interrupt_sensitivity', 0, 5, false],
      ['ambient_sound_volume', 0, 1, false],
      ['llm_temperature', 0, 1, false],
      ['voice_stability', 0, 1, false],
      ['voice_similarity', 0, 1, false],
      ['speech_speed', 0.7, 1.2, false],
      ['min_interrupt_words', 0, 10, true],
      ['re_engagement_interval', 7, 600, true],
      ['max_call_duration', 20, 1200, true],
      ['max_silence_duration', 1, 120, true],
    ];
    it.each(ranges)('keeps %s between %d and %d', async (field, min, max, integer) => {
      const step = integer ? 1 : 0.01;
      for (const ok of [min, max]) expect((await create({ ...required, [field]: ok })).status).toBe(201);
      for (const bad of [Number((min - step).toFixed(2)), Number((max + step).toFixed(2))]) {
        const res = await create({ ...required, [field]: bad });
        expect(res.status).toBe(422);
        expect(res.body.errors[field]).toEqual([`The ${field.replace(/_/g, ' ')} field must be between ${min} and ${max}.`]);
      }
    });

    it.each([
      ['assistant_name', 'a'.repeat(256), 'The assistant name field must not be greater than 255 characters.'],
      ['language', 'l'.repeat(101), 'The language field must not be greater than 100 characters.'],
      ['llm_model', 'm'.repeat(101), 'The llm model field must not be greater than 100 characters.'],
      ['end_call_tool.description', 'd'.repeat(501), 'The end call tool.description field must not be greater than 500 characters.'],
      ['calls_direction', 'both', 'The selected calls direction is invalid.'],
      ['engine_type', 'hybrid', 'The selected engine type is invalid.'],
      ['endpoint_type', 'timer', 'The selected endpoint type is invalid.'],
      ['who_speaks_first', 'Nobody', 'The selected who speaks first is invalid.'],
      ['timezone', 'Mars/Olympus', 'The timezone field must be a valid timezone.'],
      ['webhook_url', 'not-a-url', 'The webhook url field must be a valid URL.'],
      ['record_call', 'yes', 'The record call field must be true or false.'],
      ['variables', 'x', 'The variables field must be an array.'],
      ['voice_id', 999, 'The selected voice id is invalid.'],
      ['phone_number_id', 999, 'The selected phone number id is invalid.'],
      ['tool_ids', [999], 'The selected tool ids is invalid.'],
      ['post_call_schema', [{ name: 'bad name', type: 'string', description: 'd' }], undefined],
    ])('refuses %s = %j', async (field, value, message) => {
      const res = await create({ ...required, [field]: value });
      expect(res.status).toBe(422);
      expect(res.body.message).toBe('Validation failed');
      if (message) expect(res.body.errors[field]).toEqual([message]);
      else expect(Object.keys(res.body.errors)[0]).toMatch(/^post_call_schema\.0\./);
    });

    it('accepts the limits of the text fields exactly', async () => {
      const res = await create({ ...required, assistant_name: 'a'.repeat(255), language: 'l'.repeat(100), 'end_call_tool.description': 'd'.repeat(500) });
      expect(res.status).toBe(201);
      expect((await getOne(res.body.data.id)).body.end_call_tool).toEqual({ description: 'd'.repeat(500) });
    });

    it('requires the webhook URL when the webhook is active', async () => {
      const res = await create({ ...required, is_webhook_active: true });
      expect(res).toMatchObject({
        status: 422,
        body: { message: 'Validation failed', errors: { webhook_url: ['The webhook url field is required when is webhook active is true.'] } },
      });
      expect((await create({ ...required, is_webhook_active: true, webhook_url: 'https://hooks.example.com/x' })).status).toBe(201);
    });

    it('answers every failed rule at once, those over references and other fields too, and writes nothing', async () => {
      const foreign = await newTool(otherToken);
      const before = (await t.request('GET', '/api/user/assistants/get?per_page=100', { token })).body.total;
      const { assistant_name: _, ...unnamed } = required;
      const res = await create({ ...unnamed, voice_id: 999, speech_speed: 2, is_webhook_active: true, tool_ids: [foreign.id] });
      expect(res).toMatchObject({ status: 422, body: { message: 'Validation failed' } });
      expect(res.body.errors).toEqual({
        assistant_name: ['The assistant name field is required.'],
        speech_speed: ['The speech speed field must be between 0.7 and 1.2.'],
        voice_id: ['The selected voice id is invalid.'],
        tool_ids: ['The selected tool ids is invalid.'],
        webhook_url: ['The webhook url field is required when is webhook active is true.'],
      });
      // A field keeps its own rule's message: a bad URL is not also reported missing.
      expect((await create({ ...required, is_webhook_active: true, webhook_url: 'not a url' })).body.errors).toEqual({
        webhook_url: ['The webhook url field must be a valid URL.'],
      });
      expect((await t.request('GET', '/api/user/assistants/get?per_page=100', { token })).body.total).toBe(before);
    });

    it("refuses another user's tool and writes nothing", async () => {
      const foreign = await newTool(otherToken);
      const before = (await t.request('GET', '/api/user/assistants/get?per_page=100', { token })).body.total;
      expect((await create({ ...required, tool_ids: [foreign.id] })).body.errors).toEqual({ tool_ids: ['The selected tool ids is invalid.'] });
      expect((await t.request('GET', '/api/user/assistants/get?per_page=100', { token })).body.total).toBe(before);
    });
  });

  describe('list record', () => {
    it('renders every field of the list record with its renamed and re-typed values', async () => {
      const tool = await newTool();
      const phone = (await t.request('POST', '/api/user/phone-numbers', { token, body: { phone_number: '+442079460958' } })).body.data;
      const { body } = await create({
        ...required,
        tool_ids: [tool.id],
        phone_number_id: phone.id,
        filler_audios: true,
        end_call_on_voicemail: false,
        who_speaks_first: 'Customer',
        llm_temperature: 0.3,
        speech_speed: 1.1,
        max_call_duration: 300,
        re_engagement_interval: 45,
        noise_cancellation: false,
        record_call: false,
        variables: { company: 'Acme' },
        post_call_schema: [{ name: 'outcome', type: 'bool', description: 'Did it work' }],
      });
      const record = (await getOne(body.data.id)).body;
      expect(record).toMatchObject({
        id: body.data.id,
        user_id: expect.any(Number),
        phone_number_id: phone.id,
        voice_id: 1,
        name: 'Ada',
        variables: { company: 'Acme' },
        fillers: 1,
        post_call_schema: [{ name: 'outcome', type: 'bool', description: 'Did it work' }],
        is_webhook_active: false,
        webhook_url: null,
        inbound_webhook_url: null,
        language: 'English',
        language_id: 1,
        type: 'outbound',
        status: 'active',
        max_duration: 300,
        record: false,
        timezone: 'America/New_York',
        deleted_at: null,
        max_silence_duration: 30,
        reengagement_interval: 45,
        end_call_on_voicemail: 0,
        llm_temperature: '0.3',
        speech_speed: '1.1',
        voice_stability: '0.5',
        voice_similarity: '0.75',
        ambient_sound_volume: '0.5',
        allow_interruptions: true,
        enable_noise_cancellation: false,
        endpoint_sensitivity: 0.5,
        interrupt_sensitivity: 0.5,
        endpoint_type: 'vad',
        wait_for_customer: true,
        mode: 'pipeline',
        uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
        send_webhook_only_on_completed: false,
        include_recording_in_webhook: false,
        filler_config: { neutral: [], negative: [], positive: [], question: [] },
        min_interrupt_words: 2,
        widget_settings: {},
      });
      expect(record.created_at).toMatch(ISO_MICROS);
      expect(record.tools).toEqual([expect.objectContaining({ id: tool.id, name: 'lookup' })]);
      for (const key of ['engine_id', 'synthesizer_id', 'transcriber_id', 'instance_id', 'flows_platform_id', 'knowledgebase_id']) {
        expect(record).toHaveProperty(key, null);
      }
    });
  });

  describe('update', () => {
    let id: number;
    beforeAll(async () => {
      id = (await create(required)).body.data.id;
    });

    it('changes only given fields and answers the create shape', async () => {
      const res = await update(id, { assistant_name: 'Bea', speech_speed: 0.9 });
      expect(res).toMatchObject({ status: 200, body: { message: 'Assistant updated successfully', data: { id, name: 'Bea', type: 'outbound' } } });
      const record = (await getOne(id)).body;
      expect(record).toMatchObject({ name: 'Bea', speech_speed: '0.9', system_prompt: 'You are helpful.', timezone: 'America/New_York' });
    });

    it('attaches tools, replaces the list, empties it, and drops a deleted tool', async () => {
      const [a, b] = [await newTool(), await newTool()];
      await update(id, { tool_ids: [a.id, b.id] });
      expect((await getOne(id)).body.tools.map((x: { id: number }) => x.id)).toEqual([a.id, b.id]);
      await update(id, { tool_ids: [b.id] });
      expect((await getOne(id)).body.tools.map((x: { id: number }) => x.id)).toEqual([b.id]);
      await t.request('DELETE', `/api/user/tools/${b.id}`, { token });
      expect((await getOne(id)).body.tools).toEqual([]);
      await update(id, { tool_ids: [a.id] });
      await update(id, { tool_ids: [] });
      expect((await getOne(id)).body.tools).toEqual([]);
    });

    it('unassigns the phone number with null and removes the webhook with null', async () => {
      const phone = (await t.request('POST', '/api/user/phone-numbers', { token, body: { phone_number: '+4930901820' } })).body.data;
      await update(id, { phone_number_id: phone.id, is_webhook_active: true, webhook_url: 'https://hooks.example.com/a' });
      expect((await getOne(id)).body).toMatchObject({ phone_number_id: phone.id, is_webhook_active: true, webhook_url: 'https://hooks.example.com/a' });
      await update(id, { phone_number_id: null, webhook_url: null });
      expect((await getOne(id)).body).toMatchObject({ phone_number_id: null, is_webhook_active: false, webhook_url: null });
    });

    it('applies the create rules and answers Validation failed', async () => {
      expect(await update(id, { speech_speed: 1.3 })).toMatchObject({
        status: 422,
        body: { message: 'Validation failed', errors: { speech_speed: ['The speech speed field must be between 0.7 and 1.2.'] } },
      });
      expect((await update(id, { is_webhook_active: true })).body.errors).toEqual({
        webhook_url: ['The webhook url field is required when is webhook active is true.'],
      });
      expect((await update(id, { assistant_name: null })).body.errors).toEqual({ assistant_name: ['The assistant name field is required.'] });
      expect((await update(id, { speech_speed: 1.3, is_webhook_active: true, voice_id: 999 })).body.errors).toEqual({
        speech_speed: ['The speech speed field must be between 0.7 and 1.2.'],
        voice_id: ['The selected voice id is invalid.'],
        webhook_url: ['The webhook url field is required when is webhook active is true.'],
      });
      expect((await getOne(id)).body).toMatchObject({ is_webhook_active: false });
    });

    it('answers Assistant not found for a missing, foreign or deleted assistant', async () => {
      expect(await update(999999, { assistant_name: 'x' })).toMatchObject({ status: 404, body: { message: 'Assistant not found' } });
      expect(await update(999999, { speech_speed: 9 })).toMatchObject({ status: 404, body: { message: 'Assistant not found' } });
      expect(await update(id, { assistant_name: 'x' }, otherToken)).toMatchObject({ status: 404, body: { message: 'Assistant not found' } });
      expect(await getOne(id, otherToken)).toMatchObject({ status: 404, body: { message: 'Assistant not found' } });
      const doomed = (await create(required)).body.data.id;
      expect(await t.request('DELETE', `/api/user/assistant/${doomed}`, { token })).toMatchObject({
        status: 200,
        body: { message: 'Assistant deleted successfully' },
      });
      expect((await getOne(doomed)).status).toBe(404);
      expect((await update(doomed, { assistant_name: 'x' })).status).toBe(404);
    });
  });

  describe('list pagination', () => {
    let pager: string;
    beforeAll(async () => {
      pager = (await t.createUser()).token;
    });
    const page = (query: string) => t.request('GET', `/api/user/assistants/get${query}`, { token: pager });

    it('pages an empty list', async () => {
      const res = await page('');
      expect(res.body).toMatchObject({ current_page: 1, data: [], total: 0, per_page: 10, from: null, to: null, last_page: 1 });
    });

    it('pages with per_page 1, 10 (default) and 100, to the last page and past it', async () => {
      for (let i = 0; i < 12; i++) await create({ ...required, assistant_name: `A${i}` }, pager);
      const first = await page('');
      expect(first.body).toMatchObject({ per_page: 10, total: 12, last_page: 2, from: 1, to: 10 });
      expect(first.body.next_page_url).toMatch(/\/api\/user\/assistants\/get\?per_page=10&page=2$/);
      expect(first.body.links.map((l: { label: string }) => l.label)).toEqual(['« Previous', '1', '2', 'Next »']);
      const last = await page('?page=2');
      expect(last.body).toMatchObject({ current_page: 2, from: 11, to: 12, next_page_url: null });
      expect(last.body.data.map((a: { name: string }) => a.name)).toEqual(['A10', 'A11']);
      const single = await page('?per_page=1&page=12');
      expect(single.body).toMatchObject({ per_page: 1, last_page: 12, from: 12, to: 12 });
      expect((await page('?per_page=100')).body.data).toHaveLength(12);
      const past = await page('?page=5');
      expect(past.body).toMatchObject({ data: [], from: null, to: null, current_page: 5 });
    });

    it.each(['?per_page=0', '?per_page=101', '?per_page=abc', '?page=0'])('refuses %s with 422', async (query) => {
      expect((await page(query)).body).toMatchObject({ message: 'Validation failed', errors: expect.any(Object) });
    });
  });
});
