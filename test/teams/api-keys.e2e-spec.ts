import { hashToken } from '../../src/access/access-token-verifier';
import { EVENT_STORE, EventStore } from '../../src/shared/ports/event-store.port';
import { requiredAssistantSettings } from '../../src/testing/assistant.fixture';
import { racing } from '../support/racing-requests';
import { TestApp, startTestApp } from '../support/test-app';

/** docs/teams.md: API keys with scopes and expiry, acting as their creator. */
describe('API keys', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const createKey = async (token: string, body: object) => {
    const answer = await t.request('POST', '/api/user/api-keys', { token, body });
    expect(answer.status).toBe(201);
    return answer.body.data;
  };

  it('shows the token once, keeps only its hash, and lists keys with their prefix and last use', async () => {
    const owner = await t.createUser();
    const created = await t.request('POST', '/api/user/api-keys', { token: owner.token, body: { name: 'CRM sync', scopes: ['read', 'leads:write'] } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      message: 'API key created successfully.',
      data: {
        id: expect.any(Number),
        name: 'CRM sync',
        scopes: ['read', 'leads:write'],
        prefix: expect.stringMatching(/^ak_.{8}$/),
        token: expect.stringMatching(/^ak_/),
        created_by: owner.id,
        created_at: expect.any(String),
        expires_at: null,
        last_used_at: null,
      },
    });
    const { token, prefix, id } = created.body.data;
    expect(token.startsWith(prefix)).toBe(true);
    expect((await t.request('GET', '/api/user/me', { token })).body).toMatchObject({
      id: owner.id,
      role: 'owner',
      api_key: { id, scopes: ['read', 'leads:write'] },
    });
    const listed = (await t.request('GET', '/api/user/api-keys', { token: owner.token })).body;
    expect(listed).toEqual([{ ...created.body.data, token: undefined, last_used_at: expect.any(String) }].map(({ token: _t, ...key }) => key));
    // Nothing in the store or the read models holds the token itself.
    const everything = JSON.stringify(await t.app.get<EventStore>(EVENT_STORE).readAll(0, 100_000));
    expect(everything).not.toContain(token);
    expect(everything).toContain(hashToken(token));
  });

  it('refuses a request outside the scopes with 403 naming the scope, and never goes beyond its creator’s role', async () => {
    const owner = await t.createUser();
    const admin = (await t.request('POST', '/api/user/members', { token: owner.token, body: { email: `a-${owner.id}@example.com`, role: 'admin' } })).body.data;
    const reader = await createKey(owner.token, { name: 'reader', scopes: ['read'] });
    expect((await t.request('GET', '/api/user/campaigns', { token: reader.token })).status).toBe(200);
    const refused = await t.request('POST', '/api/user/assistant', { token: reader.token, body: requiredAssistantSettings });
    expect([refused.status, refused.body]).toEqual([403, { message: 'This action is unauthorized.', required_scope: 'assistants:write' }]);
    const writer = await createKey(owner.token, { name: 'writer', scopes: ['assistants:write'] });
    expect((await t.request('POST', '/api/user/assistant', { token: writer.token, body: requiredAssistantSettings })).status).toBe(201);
    expect((await t.request('GET', '/api/user/assistants/get', { token: writer.token })).body).toEqual({
      message: 'This action is unauthorized.',
      required_scope: 'read',
    });
    // The admin's key can manage members while the admin is an admin; demoted, the key is an editor's.
    const adminKey = await createKey(admin.token, { name: 'people', scopes: ['read', 'members:write'] });
    expect((await t.request('GET', '/api/user/audit', { token: adminKey.token })).status).toBe(200);
    expect((await t.request('PUT', `/api/user/members/${admin.id}`, { token: owner.token, body: { role: 'editor' } })).status).toBe(200);
    const beyond = await t.request('GET', '/api/user/audit', { token: adminKey.token });
    expect([beyond.status, beyond.body]).toEqual([403, { message: 'This action is unauthorized.' }]);
    // Removed, its creator's keys stop too.
    expect((await t.request('DELETE', `/api/user/members/${admin.id}`, { token: owner.token })).status).toBe(200);
    expect((await t.request('GET', '/api/user/campaigns', { token: adminKey.token })).status).toBe(401);
  });

  it('refuses an expired key with 401, and a date not in the future with 422', async () => {
    const owner = await t.createUser();
    const past = await t.request('POST', '/api/user/api-keys', {
      token: owner.token,
      body: { name: 'old', scopes: ['read'], expires_at: '2020-01-01T00:00:00Z' },
    });
    expect([past.status, past.body.errors]).toEqual([422, { expires_at: ['The expires at field must be a date after now.'] }]);
    const soon = await createKey(owner.token, { name: 'soon', scopes: ['read'], expires_at: new Date(Date.now() + 1500).toISOString() });
    expect((await t.request('GET', '/api/user/campaigns', { token: soon.token })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1600));
    const expired = await t.request('GET', '/api/user/campaigns', { token: soon.token });
    expect([expired.status, expired.body]).toEqual([401, { message: 'Unauthenticated.' }]);
  });

  it('refuses bad keys bodies with 422 on the field', async () => {
    const owner = await t.createUser();
    const cases: Array<[object, Record<string, string[]>]> = [
      [{ scopes: ['read'] }, { name: ['The name field is required.'] }],
      [{ name: 'k' }, { scopes: ['The scopes field is required.'] }],
      [{ name: 'k', scopes: [] }, { scopes: ['The scopes field must have at least 1 items.'] }],
      [{ name: 'k', scopes: ['everything'] }, { scopes: ['The selected scopes is invalid.'] }],
      [{ name: 'k', scopes: ['read'], expires_at: 'tomorrow' }, { expires_at: ['The expires at field must be a valid ISO 8601 date.'] }],
    ];
    for (const [body, errors] of cases) {
      const answer = await t.request('POST', '/api/user/api-keys', { token: owner.token, body });
      expect([answer.status, answer.body.errors]).toEqual([422, errors]);
    }
  });

  it('revokes a key from the next request on, under concurrent use', async () => {
    const owner = await t.createUser();
    const key = await createKey(owner.token, { name: 'busy', scopes: ['read'] });
    const { acted, late, refusals } = await racing(t, key.token, '/api/user/leads', () =>
      t.request('DELETE', `/api/user/api-keys/${key.id}`, { token: owner.token }),
    );
    expect([acted.status, acted.body]).toEqual([200, { message: 'API key deleted successfully' }]);
    expect(late).toEqual([]);
    expect(new Set(refusals)).toEqual(new Set([401]));
    expect((await t.request('GET', '/api/user/api-keys', { token: owner.token })).body).toEqual([]);
    expect((await t.request('DELETE', `/api/user/api-keys/${key.id}`, { token: owner.token })).status).toBe(404);
  });
});
