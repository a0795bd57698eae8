const { startAdapterApp } = require('./service');

// The adapter comparison is only fair if both adapters do the same work: same answers, same bytes.
describe('bench adapter app', () => {
  const apps = {};
  beforeAll(async () => {
    for (const adapter of ['fastify', 'express']) {
      apps[adapter] = await startAdapterApp(adapter);
    }
  }, 30_000);
  afterAll(() => Promise.all(Object.values(apps).map((app) => app.stop())));

  const answers = async (app, path, init) => {
    const res = await fetch(`${app.url}${path}`, init);
    return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
  };

  it('runs each on the adapter it is named by', async () => {
    const poweredBy = async (app) => (await fetch(`${app.url}/constant`)).headers.get('x-powered-by');
    expect(await poweredBy(apps.express)).toBe('Express');
    expect(await poweredBy(apps.fastify)).toBeNull();
  });

  it('answers the constant alike on Fastify and Express', async () => {
    const [fastify, express] = await Promise.all([answers(apps.fastify, '/constant'), answers(apps.express, '/constant')]);
    expect(fastify).toEqual({ status: 200, type: expect.stringMatching(/^application\/json/), body: '{"status":"ok"}' });
    expect(express).toEqual(fastify);
  });

  it('parses a JSON body and sends it back alike on Fastify and Express', async () => {
    const body = JSON.stringify({ campaign_id: 1, phone_number: '+12125550100', variables: { customer_name: 'Ann' } });
    const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body };
    const [fastify, express] = await Promise.all([answers(apps.fastify, '/echo', init), answers(apps.express, '/echo', init)]);
    expect(fastify).toEqual({ status: 200, type: expect.stringMatching(/^application\/json/), body: `{"message":"Received","data":${body}}` });
    expect(express).toEqual(fastify);
  });
});
