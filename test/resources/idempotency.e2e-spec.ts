import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../src/shared/clock';
import { requiredAssistantSettings } from '../../src/testing/assistant.fixture';
import { eventually } from '../support/fake-provider';
import { cli, startService } from '../support/processes';
import { TestApp, startTestApp } from '../support/test-app';
import { ProjectionRunner } from '../../src/infrastructure/projections/projection-runner';
import { ReadModelBehind } from '../../src/infrastructure/projections/read-model-behind';

interface Answer {
  status: number;
  replayed: string | null;
  text: string;
}

async function post(url: string, token: string, path: string, body: unknown, key?: string): Promise<Answer> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' };
  if (key !== undefined) headers['idempotency-key'] = key;
  const res = await fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: res.status, replayed: res.headers.get('idempotent-replayed'), text: await res.text() };
}

/** docs/api.md: `Idempotency-Key` on every create. */
describe('idempotency keys', () => {
  let t: TestApp;
  let token: string;
  let campaign: number;
  let assistant: number;
  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await t.createUser(undefined, 50));
    assistant = JSON.parse((await post(t.url, token, '/api/user/assistant', requiredAssistantSettings)).text).data.id;
    campaign = JSON.parse((await post(t.url, token, '/api/user/campaigns', { name: 'Keys', assistant_id: assistant })).text).data.id;
  });
  afterAll(() => t.close());

  it.each([
    ['lead', '/api/user/lead', () => ({ campaign_id: campaign, phone_number: '+12015557001', allow_dupplicate: true })],
    ['tool', '/api/user/tools', () => ({ name: 'keyed_tool', description: 'd', endpoint: 'https://example.com/t', method: 'GET' })],
    ['assistant', '/api/user/assistant', () => requiredAssistantSettings],
    ['campaign', '/api/user/campaigns', () => ({ name: 'Keyed', assistant_id: assistant })],
    ['phone number', '/api/user/phone-numbers', () => ({ phone_number: '+12015557002' })],
  ])('answers a repeated %s create with the first answer and writes it once', async (_kind, path, body) => {
    const key = `key-${path}-${Date.now()}`;
    const first = await post(t.url, token, path, body(), key);
    const again = await post(t.url, token, path, body(), key);
    expect(again).toEqual({ status: first.status, replayed: 'true', text: first.text });
    expect(first.replayed).toBeNull();
    const other = await post(t.url, token, path, { ...body(), extra: 1 }, key);
    expect(other).toMatchObject({ status: 422, text: JSON.stringify({ message: 'Idempotency key reused with another request.' }) });
    // Without a key, the same body is a new request.
    expect((await post(t.url, token, path, body())).text).not.toEqual(first.text);
  });

  it('runs one of many parallel retries with one key: one write, identical answers', async () => {
    const body = { campaign_id: campaign, phone_number: '+12015557100', allow_dupplicate: true };
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(t.url, token, '/api/user/lead', body, 'parallel-1')));
    const done = answers.filter((a) => a.status === 200);
    // The others arrived while the first was still running.
    expect(
      answers
        .filter((a) => a.status !== 200)
        .every((a) => a.status === 409 && JSON.parse(a.text).message === 'A request with this idempotency key is in progress.'),
    ).toBe(true);
    expect(new Set(done.map((a) => a.text)).size).toBe(1);
    const settled = await post(t.url, token, '/api/user/lead', body, 'parallel-1');
    expect(settled).toEqual({ status: 200, replayed: 'true', text: done[0].text });
    const stored = (await t.request('GET', `/api/user/leads?campaign_id=${campaign}&phone_number=%2B12015557100`, { token })).body;
    expect(stored).toHaveLength(1);
  });

  /** The next wait for the projections after a write fails, as a create whose events were stored but whose answer failed. */
  const failNextAnswer = (error: Error) => {
    const projections = t.app.get(ProjectionRunner);
    const spy = jest.spyOn(projections, 'settle').mockImplementationOnce(async () => {
      spy.mockRestore();
      throw error;
    });
  };

  it.each([
    [
      'lead (duplicates allowed)',
      '/api/user/lead',
      () => `/api/user/leads?campaign_id=${campaign}`,
      (n: number) => ({ campaign_id: campaign, phone_number: '+12015557300', allow_dupplicate: true, n }),
      200,
    ],
    [
      'tool',
      '/api/user/tools',
      () => '/api/user/tools',
      (n: number) => ({ name: `failed_answer_${'ab'[n]}`, description: 'd', endpoint: 'https://example.com/t', method: 'GET' }),
      201,
    ],
    [
      'assistant',
      '/api/user/assistant',
      () => '/api/user/assistants/get?per_page=100',
      (n: number) => ({ ...requiredAssistantSettings, assistant_name: `Failed answer ${n}` }),
      201,
    ],
    [
      'campaign',
      '/api/user/campaigns',
      () => '/api/user/campaigns?per_page=100',
      (n: number) => ({ name: `Failed answer ${n}`, assistant_id: assistant }),
      201,
    ],
    ['phone number', '/api/user/phone-numbers', () => '/api/user/phone-numbers', (n: number) => ({ phone_number: `+1201555731${n}` }), 201],
  ])(
    'answers a retry of a %s create whose answer failed after its write from what the write made, never making a second',
    async (_kind, path, listPath, body, ok) => {
      const count = async () => {
        const listed = (await t.request('GET', listPath(), { token })).body;
        return (Array.isArray(listed) ? listed : listed.data).length;
      };
      for (const [n, failure] of [new Error('the answer failed'), new ReadModelBehind(1)].entries()) {
        const key = `failed-answer-${path}-${n}`;
        const before = await count();
        failNextAnswer(failure);
        const failed = await post(t.url, token, path, body(n), key);
        expect(failed.status).toBe(n === 0 ? 500 : 503);
        const retried = await post(t.url, token, path, body(n), key);
        expect(retried.status).toBe(ok);
        expect(await count()).toBe(before + 1);
        // Answered now, the key repeats that answer.
        expect(await post(t.url, token, path, body(n), key)).toEqual({ ...retried, replayed: 'true' });
      }
    },
  );

  it('repeats a refusal as it was answered, and refuses a malformed key', async () => {
    const bad = { campaign_id: campaign, phone_number: 'nope' };
    const first = await post(t.url, token, '/api/user/lead', bad, 'refused-1');
    expect(first.status).toBe(422);
    expect(await post(t.url, token, '/api/user/lead', bad, 'refused-1')).toEqual({ ...first, replayed: 'true' });
    expect((await post(t.url, token, '/api/user/lead', bad, '')).status).toBe(422);
    expect(JSON.parse((await post(t.url, token, '/api/user/lead', bad, 'x'.repeat(256))).text).errors).toEqual({
      'Idempotency-Key': ['The Idempotency-Key header must be 1 to 255 printable characters.'],
    });
  });

  it('keeps keys per user', async () => {
    const other = await t.createUser();
    const mine = await post(t.url, token, '/api/user/phone-numbers', { phone_number: '+12015557200' }, 'shared-key');
    const theirs = await post(t.url, other.token, '/api/user/phone-numbers', { phone_number: '+12015557201' }, 'shared-key');
    expect(theirs.replayed).toBeNull();
    expect(JSON.parse(theirs.text).data.id).not.toBe(JSON.parse(mine.text).data.id);
  });
});

describe('idempotency keys across processes and restarts', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'voice-keys-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('writes once for parallel retries split across two processes, and answers the same after a restart', async () => {
    const env = { DATA_DIR: dataDir, RATE_LIMIT_PER_MINUTE: '100000' };
    const { token } = (await cli(env, 'users:create', '--email', 'keys@example.com')).json;
    const [a, b] = await Promise.all([startService(env), startService(env)]);
    let first: Answer;
    try {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => post(i % 2 ? a.url : b.url, token, '/api/user/phone-numbers', { phone_number: '+12015557300' }, 'two-processes')),
      );
      const done = answers.filter((x) => x.status === 201);
      expect(new Set(done.map((x) => x.text)).size).toBe(1);
      expect(answers.every((x) => x.status === 201 || x.status === 409)).toBe(true);
      first = done[0];
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
    const again = await startService(env);
    try {
      expect(await post(again.url, token, '/api/user/phone-numbers', { phone_number: '+12015557300' }, 'two-processes')).toEqual({
        ...first,
        status: 201,
        replayed: 'true',
      });
      const listed = await fetch(`${again.url}/api/user/phone-numbers`, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } }).then(
        (r) => r.json() as Promise<any>,
      );
      expect((Array.isArray(listed) ? listed : listed.data).filter((n: { phone_number: string }) => n.phone_number === '+12015557300')).toHaveLength(1);
    } finally {
      await again.stop();
    }
  });
});

describe('an import’s key while its file still arrives', () => {
  it('stays running past two minutes while the bytes keep coming, so a repeat meanwhile is told it runs', async () => {
    const clock = new ManualClock(new Date('2025-03-01T10:00:00Z'));
    const t = await startTestApp({}, { clock });
    let open = true;
    let send!: (text: string | null) => void;
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => (send = (text) => (text === null ? ((open = false), controller.close()) : controller.enqueue(new TextEncoder().encode(text)))),
    });
    try {
      const { token } = await t.createUser();
      const assistant = JSON.parse((await post(t.url, token, '/api/user/assistant', requiredAssistantSettings)).text).data.id;
      const campaign = JSON.parse((await post(t.url, token, '/api/user/campaigns', { name: 'Slow file', assistant_id: assistant })).text).data.id;
      const url = `${t.url}/api/user/campaigns/${campaign}/leads/import`;
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'text/csv', accept: 'application/json', 'idempotency-key': 'slow-file' };
      const answered = fetch(url, { method: 'POST', headers, body, duplex: 'half' } as RequestInit);
      const rows = (from: number, count: number) => Array.from({ length: count }, (_, i) => `+1201${String(6_100_000 + from + i)}\n`).join('');
      // Rows are made as they arrive: once made, their bytes have passed the key.
      const made = (count: number) =>
        eventually(async () => (await t.request('GET', '/api/user/lead-imports', { token })).body.data[0]?.rows >= count, 15_000, `${count} rows made`);
      send(`phone_number\n${rows(0, 600)}`);
      await made(500);
      clock.advance(100_000);
      send(rows(600, 600));
      await made(1000);
      // 200 s since the upload began, 100 s since its bytes last came.
      clock.advance(100_000);
      const repeat = await fetch(url, { method: 'POST', headers, body: 'phone_number\n+12015550001\n' });
      expect([repeat.status, await repeat.json()]).toEqual([409, { message: 'A request with this idempotency key is in progress.' }]);
      send(null);
      expect((await answered).status).toBe(202);
    } finally {
      // An upload left open would hold the service's close.
      if (open) send(null);
      await t.close();
    }
  });
});
