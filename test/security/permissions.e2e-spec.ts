import { ROLES, Role, SCOPES, Scope, roleAtLeast } from '../../src/access/permissions';
import { EVENT_STORE, EventStore } from '../../src/shared/ports/event-store.port';
import { TestApp, startTestApp } from '../support/test-app';

type Permission = { scope: Scope; role: Role };
type Caller = { name: string; token: string; role: Role; scopes?: readonly Scope[] };

const UNAUTHORIZED = 'This action is unauthorized.';
const METHODS = ['get', 'post', 'put', 'delete'] as const;

/**
 * docs/teams.md, in one place: every route of the user API in the OpenAPI document declares the
 * role and scope it needs, and every role and every single-scope API key gets exactly that answer.
 */
describe('route × role × scope', () => {
  let t: TestApp;
  let doc: any;
  let store: EventStore;
  const callers: Caller[] = [];

  beforeAll(async () => {
    t = await startTestApp();
    const owner = await t.createUser();
    callers.push({ name: 'owner', token: owner.token, role: 'owner' });
    for (const role of ROLES.filter((r) => r !== 'owner')) {
      const member = (await t.request('POST', '/api/user/members', { token: owner.token, body: { email: `${role}@example.com`, role } })).body.data;
      callers.push({ name: role, token: member.token, role });
    }
    for (const scope of SCOPES) {
      const key = (await t.request('POST', '/api/user/api-keys', { token: owner.token, body: { name: scope, scopes: [scope] } })).body.data;
      callers.push({ name: `key with ${scope}`, token: key.token, role: 'owner', scopes: [scope] });
    }
    doc = await (await fetch(`${t.url}/docs-json`)).json();
    store = t.app.get<EventStore>(EVENT_STORE);
  });
  afterAll(() => t.close());

  const userRoutes = () =>
    Object.entries(doc.paths as Record<string, Record<string, any>>)
      .filter(([path]) => path.startsWith('/api/user/'))
      .flatMap(([path, item]) => METHODS.filter((m) => item[m]).map((method) => ({ method, path, operation: item[method] })));

  it('documents a permission, 401 and 403 for every route of the user API, and every registered one is documented', () => {
    const routes = userRoutes();
    expect(routes.length).toBeGreaterThan(45);
    for (const { method, path, operation } of routes) {
      const permission = operation['x-permission'] as Permission | undefined;
      expect({ route: `${method} ${path}`, declared: permission && SCOPES.includes(permission.scope) && ROLES.includes(permission.role) }).toEqual({
        route: `${method} ${path}`,
        declared: true,
      });
      expect(operation.responses['401']).toBeDefined();
      expect(operation.responses['403']).toBeDefined();
      expect(operation.description).toContain(permission!.scope);
    }
    const documented = new Set(routes.map(({ method, path }) => `${method.toUpperCase()} ${path}`));
    const registered = t.routes
      .filter((r) => r.url.startsWith('/api/user/') && r.method !== 'HEAD')
      .map((r) => `${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`);
    expect(registered.filter((route) => !documented.has(route))).toEqual([]);
  });

  it('answers each caller 403 exactly where its role or scope falls short, and writes nothing then', async () => {
    const wrong: string[] = [];
    for (const { method, path, operation } of userRoutes()) {
      const needed = operation['x-permission'] as Permission;
      const url = path.replace('{phone_number}', encodeURIComponent('+12015559999')).replace(/\{\w+\}/g, '999999');
      for (const caller of callers) {
        const allowed = roleAtLeast(caller.role, needed.role) && (!caller.scopes || caller.scopes.includes(needed.scope));
        const before = await store.headPosition();
        const answer = await t.request(method.toUpperCase(), url, { token: caller.token, body: method === 'get' || method === 'delete' ? undefined : {} });
        if (answer.status === 403 && (await store.headPosition()) !== before)
          wrong.push(`${method.toUpperCase()} ${path} as ${caller.name}: refused, yet written`);
        const expected = allowed
          ? 'not refused'
          : JSON.stringify({ message: UNAUTHORIZED, ...(caller.scopes && roleAtLeast(caller.role, needed.role) ? { required_scope: needed.scope } : {}) });
        const got = answer.status === 403 || answer.status === 401 ? JSON.stringify(answer.body) : 'not refused';
        if (got !== expected) wrong.push(`${method.toUpperCase()} ${path} as ${caller.name}: ${answer.status} ${got}, expected ${expected}`);
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);
});
