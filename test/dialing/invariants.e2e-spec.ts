import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requiredAssistantSettings } from '../../src/testing/assistant.fixture';
import { cli, startService } from '../support/processes';
import { TestApp, startTestApp } from '../support/test-app';
import { CommandRunner } from '../../src/infrastructure/event-sourcing/command-runner';

const DUPLICATE = 'The phone number has already been taken for this campaign.';
const json = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' });

async function post(url: string, token: string, path: string, body: unknown) {
  const res = await fetch(`${url}${path}`, { method: 'POST', headers: json(token), body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
}

async function campaignOf(url: string, token: string): Promise<number> {
  const assistant = (await post(url, token, '/api/user/assistant', requiredAssistantSettings)).body.data.id;
  return (await post(url, token, '/api/user/campaigns', { name: 'Race', assistant_id: assistant })).body.data.id;
}

describe('invariants under concurrency (docs/api.md)', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp();
    token = (await t.createUser()).token;
  });
  afterAll(() => t.close());

  it('stores exactly one of many simultaneous creates of one number in one campaign', async () => {
    const campaign = await campaignOf(t.url, token);
    for (const round of [0, 1, 2]) {
      const phone_number = `+1201555${3000 + round}`;
      const answers = await Promise.all(Array.from({ length: 50 }, () => post(t.url, token, '/api/user/lead', { campaign_id: campaign, phone_number })));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      expect(answers.filter((a) => a.status === 422).map((a) => a.body.message)).toEqual(Array(49).fill(DUPLICATE));
      const stored = await t.request('GET', `/api/user/leads?campaign_id=${campaign}&phone_number=${encodeURIComponent(phone_number)}`, { token });
      expect(stored.body).toHaveLength(1);
    }
  });

  it('frees a number when its lead is deleted or moves to another number, and keeps allowed duplicates counted', async () => {
    const campaign = await campaignOf(t.url, token);
    const lead = (phone_number: string, more: object = {}) => post(t.url, token, '/api/user/lead', { campaign_id: campaign, phone_number, ...more });
    const first = await lead('+12015554000');
    expect(first.status).toBe(200);
    expect((await lead('+12015554000')).status).toBe(422);
    expect((await t.request('DELETE', `/api/user/leads/${first.body.data.id}`, { token })).status).toBe(200);
    const second = await lead('+12015554000');
    expect(second.status).toBe(200);
    expect((await t.request('PUT', `/api/user/leads/${second.body.data.id}`, { token, body: { phone_number: '+12015554001' } })).status).toBe(200);
    expect((await lead('+12015554001')).body.message).toBe(DUPLICATE);
    const allowed = await lead('+12015554000', { allow_dupplicate: true });
    expect(allowed.status).toBe(200);
    expect((await lead('+12015554000')).body.message).toBe(DUPLICATE);
  });

  it('stores one of many simultaneous adds of one phone number by one user', async () => {
    const answers = await Promise.all(Array.from({ length: 30 }, () => post(t.url, token, '/api/user/phone-numbers', { phone_number: '+12015554500' })));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 422).map((a) => a.body.errors.phone_number[0])).toEqual(
      Array(29).fill('The phone number has already been taken.'),
    );
    const id = answers.find((a) => a.status === 201)!.body.data.id;
    expect((await t.request('DELETE', `/api/user/phone-numbers/${id}`, { token })).status).toBe(200);
    expect((await post(t.url, token, '/api/user/phone-numbers', { phone_number: '+12015554500' })).status).toBe(201);
  });

  /** The next append that opens a stream of `kind` fails, as a store failing after the reservation was taken would. */
  const failNextCreation = (kind: string) => {
    const runner = t.app.get(CommandRunner);
    const run = runner.run.bind(runner);
    const spy = jest.spyOn(runner, 'run').mockImplementation((stream, ...rest) => {
      if (!stream.startsWith(`${kind}-`)) return run(stream, ...rest);
      spy.mockRestore();
      return Promise.reject(new Error('the store failed'));
    });
  };

  it('gives back what a create took when it fails after its reservation: the same request made valid succeeds at once', async () => {
    const campaign = await campaignOf(t.url, token);
    failNextCreation('lead');
    expect((await post(t.url, token, '/api/user/lead', { campaign_id: campaign, phone_number: '+12015554802' })).status).toBe(500);
    expect((await post(t.url, token, '/api/user/lead', { campaign_id: campaign, phone_number: '+12015554802' })).status).toBe(200);
    // A nested value of the wrong type never reaches the reservation: a 422, and the number is still free for a valid body.
    const garbage = await post(t.url, token, '/api/user/lead', { campaign_id: campaign, phone_number: '+12015554803', secondary_contacts: [[]] });
    expect([garbage.status, garbage.body.errors]).toEqual([422, { 'secondary_contacts.0': ['The secondary contacts.0 field must be an object.'] }]);
    expect((await post(t.url, token, '/api/user/lead', { campaign_id: campaign, phone_number: '+12015554803' })).status).toBe(200);

    const user = await t.createUser(undefined, 1);
    const tool = { name: 'only_tool', description: 'd', endpoint: 'https://example.com/t', method: 'GET' };
    failNextCreation('tool');
    expect((await post(t.url, user.token, '/api/user/tools', tool)).status).toBe(500);
    expect((await post(t.url, user.token, '/api/user/tools', tool)).status).toBe(201);
  });

  it('never lets parallel tool creates pass the plan limit', async () => {
    const user = await t.createUser(undefined, 3);
    const tool = (i: number) => ({ name: `tool_${String.fromCharCode(97 + i)}`, description: 'd', endpoint: 'https://example.com/t', method: 'GET' });
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => post(t.url, user.token, '/api/user/tools', tool(i))));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(3);
    expect(answers.filter((a) => a.status === 422).map((a) => a.body.message)).toEqual(
      Array(7).fill('You have reached your plan limit of 3 mid call tools. Please upgrade your plan to add more.'),
    );
    expect((await t.request('GET', '/api/user/tools', { token: user.token })).body).toHaveLength(3);
    const one = answers.find((a) => a.status === 201)!.body.data.id;
    expect((await t.request('DELETE', `/api/user/tools/${one}`, { token: user.token })).status).toBe(200);
    expect((await post(t.url, user.token, '/api/user/tools', tool(20))).status).toBe(201);
    expect((await post(t.url, user.token, '/api/user/tools', tool(21))).status).toBe(422);
  });
});

describe('invariants across two service processes on one data directory', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'voice-race-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('stores exactly one of simultaneous same-number creates split across the processes', async () => {
    const env = { DATA_DIR: dataDir, ALLOW_PRIVATE_TARGETS: 'true', RATE_LIMIT_PER_MINUTE: '100000' };
    const { token } = (await cli(env, 'users:create', '--email', 'race@example.com')).json;
    const [a, b] = await Promise.all([startService(env), startService(env)]);
    try {
      const campaign = await campaignOf(a.url, token);
      for (const round of [0, 1]) {
        const phone_number = `+1201555${5000 + round}`;
        const answers = await Promise.all(
          Array.from({ length: 40 }, (_, i) => post(i % 2 ? a.url : b.url, token, '/api/user/lead', { campaign_id: campaign, phone_number })),
        );
        expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
        expect(answers.filter((r) => r.status === 422)).toHaveLength(39);
        const listed = await fetch(`${b.url}/api/user/leads?campaign_id=${campaign}`, { headers: json(token) }).then((r) => r.json() as Promise<any[]>);
        expect(listed.filter((l) => l.phone_number === phone_number)).toHaveLength(1);
      }
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});
