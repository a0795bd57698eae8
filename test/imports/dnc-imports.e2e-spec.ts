import { EVERY_DAY, World, campaign, lead, leadsOf, setStatus, settled, world } from '../support/dialing-world';
import { eventually } from '../support/fake-provider';

/** The do-not-call import once it is no longer running. */
const ended = (w: World, id: number) =>
  eventually(
    async () => {
      const found = (await w.t.request('GET', `/api/user/dnc-imports/${id}`, { token: w.token })).body;
      return found.status !== 'running' && found;
    },
    15_000,
    `dnc import ${id} to end`,
  );

/** docs/imports.md: do-not-call lists in bulk, CSV or plain text, streamed like a lead import. */
describe('do-not-call import', () => {
  let w: World;
  beforeAll(async () => (w = await world('2026-06-01T14:00:00Z', {}, { DEFAULT_QUIET_HOURS: 'none' })));
  afterAll(async () => {
    await w.t.close();
    await w.provider.stop();
  });

  const upload = (body: string, contentType: string, token = w.token, path = '/api/user/dnc/import') =>
    fetch(`${w.t.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': contentType }, body });
  const started = async (body: string, contentType: string) => {
    const answer = await upload(body, contentType);
    const json = (await answer.json()) as { data: { id: number } };
    expect([answer.status, json]).toEqual([202, { message: 'Import started.', data: { id: expect.any(Number), status: 'running' } }]);
    return json.data.id as number;
  };
  const listed = async (number: string) => (await w.t.request('GET', `/api/user/dnc?phone_number=${encodeURIComponent(number)}`, { token: w.token })).body.data;

  it('lists every valid number of a CSV, counts rows listed already as accepted, and names each refused row', async () => {
    await w.t.request('POST', '/api/user/dnc', { token: w.token, body: { phone_numbers: ['+12015550803'] } });
    const csv =
      'name,phone_number,city\r\nAnn,+1 201-555-0801,Paris\r\n\r\nBo,+12015550802,\r\nCy,not a number,\r\nDee,,Rome\r\nEd,+12015550803,\r\nFay,+12015550801,\r\n';
    const report = await ended(w, await started(csv, 'text/csv'));
    expect(report).toEqual({
      id: expect.any(Number),
      status: 'completed',
      rows: 6,
      accepted: 4,
      invalid: 2,
      errors: [
        { row: 3, message: 'The phone number field must be a valid phone number in E.164 format.' },
        { row: 4, message: 'The phone number field is required.' },
      ],
      started_at: expect.any(String),
      finished_at: expect.any(String),
    });
    expect(await listed('+12015550801')).toEqual([{ phone_number: '+12015550801', reason: null, source: 'import', created_at: expect.any(String) }]);
    expect((await listed('+12015550802'))[0].source).toBe('import');
    // Listed before by the user: kept as it was.
    expect((await listed('+12015550803'))[0].source).toBe('user');
  });

  it('reads plain text one number a line, blank lines passed over and numbered as lines', async () => {
    const report = await ended(w, await started('\uFEFF+12015550811\r\n\n  +12015550812  \nnope\n', 'text/plain; charset=utf-8'));
    expect(report).toMatchObject({
      status: 'completed',
      rows: 3,
      accepted: 2,
      invalid: 1,
      errors: [{ row: 4, message: 'The phone number field must be a valid phone number in E.164 format.' }],
    });
    expect(await listed('+12015550812')).toHaveLength(1);
  });

  it('never dials a number the import listed', async () => {
    const id = await campaign(w, { calling_hours: { start: '00:00', end: '24:00' }, calling_days: EVERY_DAY });
    await lead(w, id, '+12015550821');
    await lead(w, id, '+12015550822');
    await ended(w, await started('+12015550821\n', 'text/plain'));
    await setStatus(w, id, 'start');
    await settled(w);
    expect(w.provider.dials.map((d) => d.request.to)).toEqual(['+12015550822']);
    const leads = await leadsOf(w, id);
    expect(leads.find((l: { phone_number: string }) => l.phone_number === '+12015550821')).toMatchObject({ stopped_reason: 'do-not-call', attempts: 0 });
  });

  it('refuses a CSV without a phone_number column before anything is made, and other types', async () => {
    const before = (await w.t.request('GET', '/api/user/dnc-imports', { token: w.token })).body.total;
    const headless = await upload('number,name\n+12015550831,Ann\n', 'text/csv');
    const message = 'The phone_number column is required.';
    expect([headless.status, await headless.json()]).toEqual([422, { message, errors: { phone_number: [message] } }]);
    for (const type of ['application/x-ndjson', 'application/json', 'application/xml']) {
      const answer = await upload('{"phone_number":"+12015550832"}\n', type);
      expect([type, answer.status, await answer.json()]).toEqual([type, 415, { message: 'Content-Type header must be text/csv or text/plain.' }]);
    }
    expect((await w.t.request('GET', '/api/user/dnc-imports', { token: w.token })).body.total).toBe(before);
    expect(await listed('+12015550831')).toEqual([]);
  });

  it("keeps do-not-call and lead imports apart, and each user's to that user", async () => {
    const mine = await started('+12015550841\n', 'text/plain');
    await ended(w, mine);
    expect((await w.t.request('GET', `/api/user/lead-imports/${mine}`, { token: w.token })).status).toBe(404);
    const listedImports = (await w.t.request('GET', '/api/user/dnc-imports?per_page=100', { token: w.token })).body;
    expect(listedImports.data[0]).toMatchObject({ id: mine, status: 'completed' });
    expect((await w.t.request('GET', '/api/user/lead-imports', { token: w.token })).body.data.map((i: { id: number }) => i.id)).not.toContain(mine);
    const other = await w.t.createUser();
    expect((await w.t.request('GET', `/api/user/dnc-imports/${mine}`, { token: other.token })).status).toBe(404);
    expect((await w.t.request('GET', '/api/user/dnc-imports', { token: other.token })).body.total).toBe(0);
  });
});
