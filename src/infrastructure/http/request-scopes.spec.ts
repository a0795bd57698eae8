import Fastify, { FastifyInstance } from 'fastify';
import { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { RequestContext, actFor, asSystem, currentContext } from '../../shared/event-sourcing/actor';
import { openRequestScopes } from './request-scopes';

const caller = (id: number) => ({ organisationId: 100 + id, actor: { type: 'user' as const, id } });

/** A server with the service's scopes, whose routes name a caller as a guard does, then wait and answer what they see. */
async function givenServer(): Promise<FastifyInstance> {
  const app = Fastify();
  openRequestScopes(app);
  app.post<{ Body: { id: number; before: number; after: number } }>('/named', async (request) => {
    const { id, before, after } = request.body;
    await sleep(before);
    actFor(caller(id));
    await sleep(after);
    return { seen: currentContext(), bySystem: asSystem(() => currentContext()) };
  });
  app.get('/anonymous', async () => {
    await sleep(1);
    return currentContext();
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return app;
}

describe('request scopes (the caller each event is stamped with, docs/teams.md)', () => {
  let app: FastifyInstance;
  beforeAll(async () => (app = await givenServer()));
  afterAll(() => app.close());

  // Over a socket, as clients send, not injected.
  const url = (path: string) => `http://127.0.0.1:${(app.server.address() as AddressInfo).port}${path}`;
  const named = async (id: number, before: number, after: number) =>
    (await (
      await fetch(url('/named'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id, before, after }) })
    ).json()) as { seen: RequestContext; bySystem: RequestContext };

  it('keeps each request its own caller across awaits, requests overlapping in any order', async () => {
    const answers = await Promise.all([named(1, 1, 30), named(2, 15, 1), named(3, 5, 10), named(4, 0, 20)]);
    answers.forEach((answer, i) => expect(answer.seen).toEqual(caller(i + 1)));
  });

  it('acts as the system, with no organisation, inside `asSystem` and where no caller was named', async () => {
    expect((await named(5, 0, 0)).bySystem).toEqual({ organisationId: null, actor: { type: 'system', id: null } });
    expect(await (await fetch(url('/anonymous'))).json()).toEqual({ organisationId: null, actor: { type: 'system', id: null } });
  });

  it('refuses to name a caller outside any request rather than record their actions as nobody’s', () => {
    expect(() => actFor(caller(6))).toThrow('No request is being handled here');
  });
});
