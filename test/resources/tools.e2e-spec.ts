import { startTestApp, TestApp } from '../support/test-app';

const valid = { name: 'check_order', description: 'Checks an order', endpoint: 'https://api.example.com/orders', method: 'POST' };
const json = { 'content-type': 'application/json', accept: 'application/json' };
const ISO_MICROS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

describe('mid call tools API', () => {
  let t: TestApp;
  let token: string;
  let other: string;

  beforeAll(async () => {
    t = await startTestApp();
    token = (await t.createUser(undefined, 1000)).token;
    other = (await t.createUser()).token;
  });
  afterAll(() => t.close());

  const create = (body: unknown, as = token) => t.request('POST', '/api/user/tools', { token: as, body });

  it('creates a tool with defaults and answers 201 with the message and the tool', async () => {
    const res = await create(valid);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      message: 'Tool created successfully',
      data: {
        id: expect.any(Number),
        ...valid,
        timeout: 10,
        headers: [],
        schema: [],
        created_at: expect.stringMatching(ISO_MICROS),
        updated_at: expect.stringMatching(ISO_MICROS),
      },
    });
  });

  it('gets a tool unwrapped, only with JSON Accept and Content-Type', async () => {
    const { body } = await create({
      ...valid,
      headers: [{ name: 'X-Key', value: 'k' }],
      schema: [{ name: 'order_id', type: 'string', description: 'The order' }],
    });
    const id = body.data.id;
    const got = await t.request('GET', `/api/user/tools/${id}`, { token, headers: { ...json, 'content-type': 'application/json; charset=utf-8' } });
    expect(got).toMatchObject({ status: 200, body: body.data });
    expect(await t.request('GET', `/api/user/tools/${id}`, { token, headers: { accept: 'text/html', 'content-type': 'application/json' } })).toMatchObject({
      status: 406,
      body: { message: 'Accept header must be application/json.' },
    });
    expect(await t.request('GET', `/api/user/tools/${id}`, { token, headers: { accept: 'application/json' } })).toMatchObject({
      status: 415,
      body: { message: 'Content-Type header must be application/json.' },
    });
  });

  it("answers Tool not found for a missing id, a non-numeric id and another user's tool", async () => {
    const id = (await create(valid)).body.data.id;
    for (const [path, as] of [
      [`/api/user/tools/999999`, token],
      [`/api/user/tools/abc`, token],
      [`/api/user/tools/${id}`, other],
    ]) {
      expect(await t.request('GET', path, { token: as, headers: json })).toMatchObject({ status: 404, body: { message: 'Tool not found' } });
      expect(await t.request('PUT', path, { token: as, body: { timeout: 5 } })).toMatchObject({ status: 404, body: { message: 'Tool not found' } });
      expect(await t.request('DELETE', path, { token: as })).toMatchObject({ status: 404, body: { message: 'Tool not found' } });
    }
  });

  describe('create validation: the first field message on top, errors per field', () => {
    const cases: Array<[string, Record<string, unknown>, string, string]> = [
      ['name missing', { name: undefined }, 'name', 'The name field is required.'],
      ['name with a capital', { name: 'Check' }, 'name', 'The name field format is invalid.'],
      ['name with a digit', { name: 'check2' }, 'name', 'The name field format is invalid.'],
      ['name starting with _', { name: '_check' }, 'name', 'The name field format is invalid.'],
      ['description missing', { description: undefined }, 'description', 'The description field is required.'],
      ['description of 256', { description: 'd'.repeat(256) }, 'description', 'The description field must not be greater than 255 characters.'],
      ['endpoint missing', { endpoint: undefined }, 'endpoint', 'The endpoint field is required.'],
      ['endpoint not a URL', { endpoint: 'orders' }, 'endpoint', 'The endpoint field must be a valid URL.'],
      ['method missing', { method: undefined }, 'method', 'The method field is required.'],
      ['method unknown', { method: 'TRACE' }, 'method', 'The selected method is invalid.'],
      ['timeout 0', { timeout: 0 }, 'timeout', 'The timeout field must be between 1 and 30.'],
      ['timeout 31', { timeout: 31 }, 'timeout', 'The timeout field must be between 1 and 30.'],
      ['timeout not whole', { timeout: 2.5 }, 'timeout', 'The timeout field must be an integer.'],
      ['headers not a list', { headers: { a: 1 } }, 'headers', 'The headers field must be an array.'],
      ['header without value', { headers: [{ name: 'X' }] }, 'headers.0.value', 'The headers.0.value field is required.'],
      ['header without name', { headers: [{ value: 'v' }] }, 'headers.0.name', 'The headers.0.name field is required.'],
      [
        'schema name of 1',
        { schema: [{ name: 'a', type: 'string', description: 'abc' }] },
        'schema.0.name',
        'The schema.0.name field must be between 2 and 32 characters.',
      ],
      [
        'schema name of 33',
        { schema: [{ name: 'a'.repeat(33), type: 'string', description: 'abc' }] },
        'schema.0.name',
        'The schema.0.name field must be between 2 and 32 characters.',
      ],
      [
        'schema name with digit',
        { schema: [{ name: 'a1', type: 'string', description: 'abc' }] },
        'schema.0.name',
        'The schema.0.name field format is invalid.',
      ],
      [
        'schema name starting with _',
        { schema: [{ name: '_ab', type: 'string', description: 'abc' }] },
        'schema.0.name',
        'The schema.0.name field format is invalid.',
      ],
      ['schema type unknown', { schema: [{ name: 'ab', type: 'date', description: 'abc' }] }, 'schema.0.type', 'The selected schema.0.type is invalid.'],
      [
        'schema description of 2',
        { schema: [{ name: 'ab', type: 'string', description: 'ab' }] },
        'schema.0.description',
        'The schema.0.description field must be between 3 and 255 characters.',
      ],
      [
        'schema description of 256',
        { schema: [{ name: 'ab', type: 'string', description: 'd'.repeat(256) }] },
        'schema.0.description',
        'The schema.0.description field must be between 3 and 255 characters.',
      ],
    ];
    it.each(cases)('refuses %s', async (_, change, field, message) => {
      const res = await create({ ...valid, ...change });
      expect(res.status).toBe(422);
      expect(res.body.message).toBe(message);
      expect(res.body.errors[field]).toEqual([message]);
    });

    it('accepts every bound exactly', async () => {
      const res = await create({
        ...valid,
        name: 'a',
        description: 'd'.repeat(255),
        timeout: 30,
        schema: [
          { name: 'ab', type: 'number', description: 'abc' },
          { name: 'A'.repeat(32), type: 'boolean', description: 'd'.repeat(255) },
        ],
      });
      expect(res.status).toBe(201);
      expect((await create({ ...valid, timeout: 1 })).status).toBe(201);
    });

    it('writes nothing when refused', async () => {
      const before = (await t.request('GET', '/api/user/tools', { token })).body.length;
      await create({ ...valid, timeout: 99 });
      expect((await t.request('GET', '/api/user/tools', { token })).body).toHaveLength(before);
    });
  });

  describe('update', () => {
    it('changes only the given fields and replaces headers and schema whole', async () => {
      const { body } = await create({
        ...valid,
        headers: [
          { name: 'A', value: '1' },
          { name: 'B', value: '2' },
        ],
        schema: [{ name: 'ab', type: 'string', description: 'abc' }],
      });
      const res = await t.request('PUT', `/api/user/tools/${body.data.id}`, { token, body: { timeout: 20, headers: [{ name: 'C', value: '3' }] } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        message: 'Tool updated successfully',
        // Header values are secrets: shown as [secret] once set (docs/teams.md).
        data: { ...body.data, timeout: 20, headers: [{ name: 'C', value: '[secret]' }], updated_at: expect.stringMatching(ISO_MICROS) },
      });
      const cleared = await t.request('PUT', `/api/user/tools/${body.data.id}`, { token, body: { schema: [] } });
      expect(cleared.body.data).toMatchObject({ schema: [], headers: [{ name: 'C', value: '[secret]' }], timeout: 20 });
    });

    it('answers Validation failed with the field errors', async () => {
      const id = (await create(valid)).body.data.id;
      const res = await t.request('PUT', `/api/user/tools/${id}`, { token, body: { timeout: 0, name: 'Bad' } });
      expect(res).toMatchObject({
        status: 422,
        body: {
          message: 'Validation failed',
          errors: { timeout: ['The timeout field must be between 1 and 30.'], name: ['The name field format is invalid.'] },
        },
      });
    });
  });

  it("lists the user's own tools as an array and deletes them", async () => {
    const mine = await t.request('GET', '/api/user/tools', { token });
    expect(Array.isArray(mine.body)).toBe(true);
    expect((await t.request('GET', '/api/user/tools', { token: other })).body).toEqual([]);
    const id = mine.body[0].id;
    expect(await t.request('DELETE', `/api/user/tools/${id}`, { token })).toMatchObject({ status: 200, body: { message: 'Tool deleted successfully' } });
    expect((await t.request('GET', `/api/user/tools/${id}`, { token, headers: json })).status).toBe(404);
    expect((await t.request('GET', '/api/user/tools', { token })).body.map((x: { id: number }) => x.id)).not.toContain(id);
  });

  it('refuses a tool past the plan limit with the plan message and no errors key, and counts deleted tools out', async () => {
    const limited = await t.createUser(undefined, 2);
    expect((await create(valid, limited.token)).status).toBe(201);
    const second = await create(valid, limited.token);
    expect(second.status).toBe(201);
    const refused = await create(valid, limited.token);
    expect(refused).toMatchObject({
      status: 422,
      body: { message: 'You have reached your plan limit of 2 mid call tools. Please upgrade your plan to add more.' },
    });
    expect(refused.body).not.toHaveProperty('errors');
    await t.request('DELETE', `/api/user/tools/${second.body.data.id}`, { token: limited.token });
    expect((await create(valid, limited.token)).status).toBe(201);
  });
});
