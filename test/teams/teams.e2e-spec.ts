import { hashToken } from '../../src/access/access-token-verifier';
import { EVENT_STORE, EventStore } from '../../src/shared/ports/event-store.port';
import { ProjectionRunner } from '../../src/infrastructure/projections/projection-runner';
import { requiredAssistantSettings } from '../../src/testing/assistant.fixture';
import { racing } from '../support/racing-requests';
import { TestApp, startTestApp } from '../support/test-app';

const UNAUTHORIZED = { message: 'This action is unauthorized.' };
const LAST_OWNER = 'An organisation must keep at least one owner.';

/** docs/teams.md: organisations, members and their roles, API keys. */
describe('teams', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const team = async () => {
    const owner = await t.createUser();
    const add = async (role: string) => {
      const answer = await t.request('POST', '/api/user/members', { token: owner.token, body: { email: `${role}-${owner.id}@example.com`, role } });
      expect(answer.status).toBe(201);
      return answer.body.data as { id: number; email: string; role: string; token: string };
    };
    return { owner, admin: await add('admin'), editor: await add('editor'), viewer: await add('viewer') };
  };

  it('adds members who share every resource of the organisation; another organisation sees none of it', async () => {
    const { owner, admin, editor, viewer } = await team();
    expect(admin).toEqual({ id: expect.any(Number), email: `admin-${owner.id}@example.com`, role: 'admin', token: expect.any(String) });
    const assistant = await t.request('POST', '/api/user/assistant', { token: editor.token, body: requiredAssistantSettings });
    expect(assistant.status).toBe(201);
    const id = assistant.body.data.id;
    for (const member of [owner, admin, viewer]) expect((await t.request('GET', `/api/user/assistants/${id}`, { token: member.token })).status).toBe(200);
    expect((await t.request('GET', '/api/user/me', { token: viewer.token })).body).toMatchObject({ id: viewer.id, organisation_id: owner.id, role: 'viewer' });
    const members = (await t.request('GET', '/api/user/members', { token: viewer.token })).body;
    expect(members.map((m: { id: number; role: string }) => [m.id, m.role])).toEqual([
      [owner.id, 'owner'],
      [admin.id, 'admin'],
      [editor.id, 'editor'],
      [viewer.id, 'viewer'],
    ]);
    const stranger = await t.createUser();
    expect((await t.request('GET', `/api/user/assistants/${id}`, { token: stranger.token })).status).toBe(404);
    expect((await t.request('GET', '/api/user/members', { token: stranger.token })).body).toHaveLength(1);
    expect((await t.request('PUT', `/api/user/members/${viewer.id}`, { token: stranger.token, body: { role: 'editor' } })).status).toBe(404);
    expect((await t.request('DELETE', `/api/user/members/${viewer.id}`, { token: stranger.token })).status).toBe(404);
  });

  it('refuses beyond the role with 403 and writes nothing', async () => {
    const { owner, admin, editor, viewer } = await team();
    const store = t.app.get<EventStore>(EVENT_STORE);
    const before = await store.headPosition();
    const refused = [
      await t.request('POST', '/api/user/assistant', { token: viewer.token, body: requiredAssistantSettings }),
      await t.request('POST', '/api/user/members', { token: editor.token, body: { email: 'x@example.com', role: 'viewer' } }),
      await t.request('POST', '/api/user/api-keys', { token: editor.token, body: { name: 'k', scopes: ['read'] } }),
      await t.request('GET', '/api/user/audit', { token: editor.token }),
      await t.request('POST', '/api/user/members', { token: admin.token, body: { email: 'o2@example.com', role: 'owner' } }),
      await t.request('PUT', `/api/user/members/${owner.id}`, { token: admin.token, body: { role: 'viewer' } }),
      await t.request('DELETE', `/api/user/members/${owner.id}`, { token: admin.token }),
    ];
    for (const answer of refused) expect([answer.status, answer.body]).toEqual([403, UNAUTHORIZED]);
    expect(await store.headPosition()).toBe(before);
  });

  it('changes roles, refuses a taken email, and keeps the last owner', async () => {
    const { owner, admin, viewer } = await team();
    const changed = await t.request('PUT', `/api/user/members/${viewer.id}`, { token: admin.token, body: { role: 'editor' } });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ id: viewer.id, role: 'editor' });
    expect((await t.request('POST', '/api/user/assistant', { token: viewer.token, body: requiredAssistantSettings })).status).toBe(201);
    const taken = await t.request('POST', '/api/user/members', { token: admin.token, body: { email: viewer.email, role: 'viewer' } });
    expect([taken.status, taken.body.errors]).toEqual([422, { email: ['The email has already been taken.'] }]);
    const badRole = await t.request('POST', '/api/user/members', { token: admin.token, body: { email: 'n@example.com', role: 'boss' } });
    expect([badRole.status, badRole.body.errors]).toEqual([422, { role: ['The selected role is invalid.'] }]);
    const demoted = await t.request('PUT', `/api/user/members/${owner.id}`, { token: owner.token, body: { role: 'admin' } });
    expect([demoted.status, demoted.body]).toEqual([422, { message: LAST_OWNER, errors: { role: [LAST_OWNER] } }]);
    expect((await t.request('DELETE', `/api/user/members/${owner.id}`, { token: owner.token })).status).toBe(422);
    // With a second owner, the first may go.
    expect((await t.request('PUT', `/api/user/members/${admin.id}`, { token: owner.token, body: { role: 'owner' } })).status).toBe(200);
    expect((await t.request('DELETE', `/api/user/members/${owner.id}`, { token: admin.token })).status).toBe(200);
    expect((await t.request('GET', '/api/user/me', { token: owner.token })).status).toBe(401);
  });

  it('gives an email to one user however many registrations race for it, and a refused one holds nothing', async () => {
    const { owner, admin, viewer } = await team();
    const email = `racing-${owner.id}@example.com`;
    expect((await t.request('POST', '/api/user/members', { token: viewer.token, body: { email, role: 'viewer' } })).status).toBe(403);
    const answers = await Promise.all(
      [owner, admin, owner, admin].map((m) => t.request('POST', '/api/user/members', { token: m.token, body: { email, role: 'viewer' } })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 422, 422, 422]);
    for (const refused of answers.filter((a) => a.status === 422)) expect(refused.body.errors).toEqual({ email: ['The email has already been taken.'] });
    const members = (await t.request('GET', '/api/user/members', { token: owner.token })).body as Array<{ email: string }>;
    expect(members.filter((m) => m.email === email)).toHaveLength(1);
  });

  it('keeps at least one owner when two owners demote each other at once', async () => {
    const owner = await t.createUser();
    const second = (await t.request('POST', '/api/user/members', { token: owner.token, body: { email: `o2-${owner.id}@example.com`, role: 'owner' } })).body
      .data;
    const answers = await Promise.all([
      t.request('PUT', `/api/user/members/${second.id}`, { token: owner.token, body: { role: 'viewer' } }),
      t.request('PUT', `/api/user/members/${owner.id}`, { token: second.token, body: { role: 'viewer' } }),
    ]);
    // The loser is refused as an owner no longer (403) or as the last owner's demotion (422), as the race falls.
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect([[403], [422]]).toContainEqual(answers.filter((a) => a.status !== 200).map((a) => a.status));
    const roles = (await t.request('GET', '/api/user/members', { token: owner.token })).body.map((m: { role: string }) => m.role);
    expect(roles.sort()).toEqual(['owner', 'viewer']);
  });

  it('counts the tool plan limit per organisation, whichever members race for it', async () => {
    const owner = await t.createUser(undefined, 3);
    const editors = [];
    for (let i = 0; i < 4; i++)
      editors.push(
        (await t.request('POST', '/api/user/members', { token: owner.token, body: { email: `e${i}-${owner.id}@example.com`, role: 'editor' } })).body.data,
      );
    const tool = (i: number) => ({ name: `tool_${'abcdefghij'[i]}`, description: 'd', endpoint: 'http://127.0.0.1:9/x', method: 'POST' });
    const answers = await Promise.all([owner, ...editors, ...editors].map((m, i) => t.request('POST', '/api/user/tools', { token: m.token, body: tool(i) })));
    expect(answers.filter((a) => a.status !== 201 && a.status !== 422)).toEqual([]);
    expect(answers.filter((a) => a.status === 201).length).toBe(3);
    for (const refused of answers.filter((a) => a.status === 422))
      expect(refused.body.message).toBe('You have reached your plan limit of 3 mid call tools. Please upgrade your plan to add more.');
    expect((await t.request('GET', '/api/user/tools', { token: editors[0].token })).body).toHaveLength(3);
  });

  it('stops a removed member at once: requests racing the removal are let through or refused, never after its answer', async () => {
    const { owner, editor } = await team();
    const { acted, late, refusals } = await racing(t, editor.token, '/api/user/campaigns', () =>
      t.request('DELETE', `/api/user/members/${editor.id}`, { token: owner.token }),
    );
    expect([acted.status, acted.body]).toEqual([200, { message: 'Member deleted successfully' }]);
    expect(late).toEqual([]);
    expect(new Set(refusals)).toEqual(new Set([401]));
    expect((await t.request('GET', '/api/user/me', { token: editor.token })).status).toBe(401);
  });
});

/** docs/teams.md: a store from before organisations is upgraded without an event lost or rewritten. */
describe('a store from before organisations', () => {
  it('gives each user its own organisation, founded on its first change, and keeps every old event as it was', async () => {
    const first = await startTestApp();
    const store = first.app.get<EventStore>(EVENT_STORE);
    const id = await store.nextId('user');
    const token = 'legacy-token-from-an-older-build';
    // What an older build wrote: no organisation, no actor.
    await store.append(
      `user-${id}`,
      [
        { type: 'UserRegistered', data: { user_id: id, email: 'old@example.com', tool_limit: 10, webhook_secret: 'old-secret' } },
        { type: 'AccessTokenIssued', data: { user_id: id, token_hash: hashToken(token) } },
      ],
      'no_stream',
    );
    await first.app.get(ProjectionRunner).catchUp();
    const assistant = (await first.request('POST', '/api/user/assistant', { token, body: requiredAssistantSettings })).body.data.id;
    const oldEvents = await store.readStream(`user-${id}`);
    await first.stop();

    const t = await startTestApp({}, { dataDir: first.dataDir });
    try {
      expect((await t.request('GET', '/api/user/me', { token })).body).toMatchObject({ id, organisation_id: id, role: 'owner' });
      const member = await t.request('POST', '/api/user/members', { token, body: { email: 'new@example.com', role: 'viewer' } });
      expect(member.status).toBe(201);
      expect((await t.request('GET', `/api/user/assistants/${assistant}`, { token: member.body.data.token })).status).toBe(200);
      const events = t.app.get<EventStore>(EVENT_STORE);
      expect(await events.readStream(`user-${id}`)).toEqual(oldEvents);
      const founded = (await events.readStream(`organisation-${id}`))[0];
      expect([founded.type, founded.data]).toEqual([
        'OrganisationFounded',
        { organisation_id: id, owner_user_id: id, email: 'old@example.com', upgraded: true },
      ]);
      const audit = (await t.request('GET', '/api/user/audit?type=UserRegistered', { token })).body.data;
      expect(audit.map((e: { actor: object }) => e.actor)).toEqual([
        { type: 'user', id },
        { type: 'system', id: null },
      ]);
    } finally {
      await t.close();
    }
  });
});
