'use strict';
/**
 * A walk through every route of the API on a running service, answering each exchange (method,
 * route, path, request body, status, answer). The OpenAPI test checks every answer against the
 * documented schemas; run as a script, it starts the built service and writes the documented
 * examples (`src/api-docs/examples.json`) from real answers.
 */
const { createHmac } = require('node:crypto');
const { createServer } = require('node:http');

const sign = (raw, secret) => `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;

/**
 * A loopback server standing for the user's webhook receiver, a tool's endpoint and the telephony
 * provider of `DIALER=http` (its `DIALER_URL` is `<url>/dial`): a dial is accepted, then its call
 * rings, is answered and completes through the signed callbacks, as the simulated dialer would.
 * Webhooks are held unanswered until `releaseHooks`: the walk lists a delivery still pending (no
 * status code, no delivery time yet) before it lists one delivered, so the documents show both.
 */
async function startTarget(secret) {
  const held = [];
  let holding = true;
  const report = async (callbackUrl, body) => {
    const raw = JSON.stringify(body);
    await fetch(callbackUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'x-signature': sign(raw, secret) }, body: raw });
  };
  const placeCall = async ({ callback_url: callbackUrl }) => {
    await report(callbackUrl, { status: 'ringing' });
    await report(callbackUrl, { status: 'in-progress', answered_by: 'human' });
    await report(callbackUrl, { status: 'completed', duration: 31, transcript: 'AI: Hello!\nCustomer: Hi, thanks for calling.', total_cost: 0.01 });
  };
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    const answer = () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, slots: ['10:00', '14:30'] }));
    req.on('end', () => {
      if (req.url === '/dial') {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        return void setTimeout(() => placeCall(JSON.parse(Buffer.concat(chunks).toString())).catch(() => undefined), 20);
      }
      return holding && req.url.startsWith('/hooks') ? held.push(answer) : answer();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    releaseHooks: () => {
      holding = false;
      for (const answer of held.splice(0)) answer();
    },
    stop() {
      this.releaseHooks();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

async function until(check, what, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`api tour: timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * `baseUrl`: the service; `token`: a fresh user's; `secret`: its TELEPHONY_SECRET; `target`: a
 * started `startTarget(secret)`, whose `/dial` is the service's `DIALER_URL` (`DIALER=http`, the
 * mode the generic telephony routes exist in). The service must allow loopback targets
 * (`ALLOW_PRIVATE_TARGETS=true`). The walk stops the target.
 */
async function apiTour(baseUrl, token, secret, target) {
  const exchanges = [];
  const send = async (
    method,
    route,
    { params = {}, query = '', body, upload, auth = 'token', bearer = token, accept = 'application/json', record = true } = {},
  ) => {
    const path = route.replace(/:(\w+)/g, (_, name) => String(params[name])) + query;
    const raw = upload ? upload.text : body === undefined ? undefined : JSON.stringify(body);
    const headers = { accept };
    if (upload) headers['content-type'] = upload.contentType;
    else if (raw !== undefined || auth === 'token') headers['content-type'] = 'application/json';
    if (auth === 'token') headers.authorization = `Bearer ${bearer}`;
    if (auth === 'signed') headers['x-signature'] = sign(raw ?? '', secret);
    const response = await fetch(`${baseUrl}${path}`, { method, headers, body: raw });
    const text = await response.text();
    const isJson = (response.headers.get('content-type') ?? '').includes('application/json');
    const exchange = {
      method,
      route,
      path,
      body: upload ? { [upload.contentType]: upload.text } : accept !== 'application/json' ? { accept } : body,
      status: response.status,
      answer: isJson ? JSON.parse(text) : text,
    };
    if (record) exchanges.push(exchange);
    return exchange;
  };
  try {
    await send('GET', '/health/live', { auth: 'none' });
    await send('GET', '/health', { auth: 'none' });
    await send('GET', '/health/ready', { auth: 'none' });
    await send('GET', '/metrics', { auth: 'none' });
    await send('GET', '/api/user/me', { auth: 'none' });
    await send('GET', '/api/user/me');
    await send('GET', '/api/user/voices');
    await send('GET', '/api/user/languages');

    const tool = (
      await send('POST', '/api/user/tools', {
        body: {
          name: 'check_availability',
          description: 'Looks up free appointment slots for a day.',
          endpoint: `${target.url}/slots`,
          method: 'POST',
          timeout: 5,
          headers: [{ name: 'X-Api-Key', value: 'key-123' }],
          schema: [{ name: 'day', type: 'string', description: 'The day asked for, YYYY-MM-DD.' }],
        },
      })
    ).answer.data;
    await send('POST', '/api/user/tools', { body: { name: 'Bad Name', endpoint: 'not a url' } });
    await send('GET', '/api/user/tools');
    await send('GET', '/api/user/tools/:id', { params: { id: tool.id } });
    await send('GET', '/api/user/tools/:id', { params: { id: 999999 } });
    await send('PUT', '/api/user/tools/:id', { params: { id: tool.id }, body: { timeout: 8 } });
    await send('POST', '/api/user/tools/:id/test', { params: { id: tool.id }, body: { arguments: { day: '2026-12-01' } } });

    const number = (await send('POST', '/api/user/phone-numbers', { body: { phone_number: '+12025550188', label: 'Front desk' } })).answer.data;
    const spare = (await send('POST', '/api/user/phone-numbers', { body: { phone_number: '+12025550199' }, record: false })).answer.data;
    await send('GET', '/api/user/phone-numbers');
    await send('DELETE', '/api/user/phone-numbers/:id', { params: { id: spare.id } });

    const required = {
      voice_id: 1,
      language: 'English',
      llm_model: 'gpt-4o',
      engine_type: 'pipeline',
      timezone: 'America/New_York',
      initial_message: 'Hello! This is Ada from Acme Dental.',
      system_prompt: 'You remind patients of their appointments.',
    };
    const caller = (
      await send('POST', '/api/user/assistant', {
        body: { ...required, assistant_name: 'Ada', calls_direction: 'make', is_webhook_active: true, webhook_url: `${target.url}/hooks`, tool_ids: [tool.id] },
      })
    ).answer.data;
    await send('POST', '/api/user/assistant', { body: { assistant_name: '', voice_id: 'one', calls_direction: 'sideways' } });
    const receiver = (
      await send('POST', '/api/user/assistant', {
        body: { ...required, assistant_name: 'Reception', calls_direction: 'receive', phone_number_id: number.id, tool_ids: [tool.id] },
        record: false,
      })
    ).answer.data;
    const doomed = (await send('POST', '/api/user/assistant', { body: { ...required, assistant_name: 'Old', calls_direction: 'make' }, record: false })).answer
      .data;
    await send('PUT', '/api/user/assistant/:id', { params: { id: caller.id }, body: { llm_temperature: 0.4 } });
    await send('DELETE', '/api/user/assistant/:id', { params: { id: doomed.id } });
    await send('GET', '/api/user/assistants/get', { query: '?per_page=2&page=1' });
    await send('GET', '/api/user/assistants/:id', { params: { id: caller.id } });

    const campaign = (
      await send('POST', '/api/user/campaigns', {
        body: {
          name: 'December reminders',
          assistant_id: caller.id,
          max_retries: 2,
          retry_delay_seconds: 3600,
          calling_hours: { start: '00:00', end: '24:00' },
          calling_days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
          max_concurrent_calls: 5,
        },
      })
    ).answer.data;
    await send('PUT', '/api/user/campaigns/:id', { params: { id: campaign.id }, body: { name: 'December reminders (East)' } });

    const lead = (
      await send('POST', '/api/user/lead', {
        body: {
          campaign_id: campaign.id,
          phone_number: '+12025550101',
          variables: { customer_name: 'Ann', appointment: '2026-12-02 10:00' },
          secondary_contacts: [{ phone_number: '+12025550102', variables: { relation: 'spouse' } }],
        },
      })
    ).answer.data;
    await send('POST', '/api/user/lead', { body: { campaign_id: campaign.id, phone_number: '+12025550101' } });
    const dropped = (await send('POST', '/api/user/lead', { body: { campaign_id: campaign.id, phone_number: '+12025550109' }, record: false })).answer.data;
    await send('PUT', '/api/user/leads/:id', { params: { id: lead.id }, body: { variables: { customer_name: 'Ann Lee', appointment: '2026-12-02 10:00' } } });
    await send('DELETE', '/api/user/leads/:id', { params: { id: dropped.id } });
    await send('GET', '/api/user/leads', { query: `?campaign_id=${campaign.id}&per_page=10` });

    await send('POST', '/api/user/campaigns/update-status', { body: { campaign_id: campaign.id, action: 'start' } });
    await until(
      async () => (await send('GET', '/api/user/campaigns/:id', { params: { id: campaign.id }, record: false })).answer.status === 'completed',
      'the campaign',
    );
    await send('GET', '/api/user/campaigns');
    await send('GET', '/api/user/campaigns/:id', { params: { id: campaign.id } });
    await send('POST', '/api/user/campaigns/update-status', { body: { campaign_id: campaign.id, action: 'start' } });
    const importRoute = '/api/user/campaigns/:id/leads/import';
    const csv = 'phone_number,first_name,secondary_phone_number_1\n+12025550160,Ada,+12025550161\n+12025550162,Bob,\nnot a number,Cy,\n';
    const started = (await send('POST', importRoute, { params: { id: campaign.id }, upload: { contentType: 'text/csv', text: csv } })).answer.data;
    const ndjson = `${JSON.stringify({ phone_number: '+12025550163', variables: { first_name: 'Dee' } })}\n`;
    await send('POST', importRoute, {
      params: { id: campaign.id },
      query: '?allow_dupplicate=true',
      upload: { contentType: 'application/x-ndjson', text: ndjson },
    });
    await send('POST', importRoute, { params: { id: campaign.id }, body: { phone_number: '+12025550164' } });
    await until(async () => (await send('GET', '/api/user/lead-imports', { record: false })).answer.data.every((i) => i.status !== 'running'), 'the imports');
    await send('GET', '/api/user/lead-imports/:id', { params: { id: started.id } });
    await send('GET', '/api/user/lead-imports', { query: '?per_page=5' });
    await send('GET', '/api/user/campaigns/:id/history', { params: { id: campaign.id }, query: '?limit=3' });
    await send('GET', '/api/user/campaigns/:id/history', {
      params: { id: campaign.id },
      query: `?as_of=${encodeURIComponent(new Date().toISOString())}&limit=2`,
    });
    const calls = (await send('GET', '/api/user/calls', { query: `?campaign_id=${campaign.id}` })).answer.data;
    await send('GET', '/api/user/calls/:id', { params: { id: calls[0].id } });

    const pending = await until(async () => {
      const listed = await send('GET', '/api/user/webhook-deliveries', { record: false });
      return listed.answer.data.some((d) => d.status === 'pending') && listed;
    }, 'a pending webhook');
    exchanges.push(pending);
    target.releaseHooks();
    const deliveries = await until(async () => {
      const listed = await send('GET', '/api/user/webhook-deliveries', { record: false });
      return listed.answer.data.some((d) => d.status === 'delivered' && d.call_id !== null) && listed;
    }, 'a delivered webhook');
    exchanges.push(deliveries);
    // The calls again once their webhook answered: the documents show webhook_response both null and filled.
    const answered = await until(async () => {
      const listed = await send('GET', '/api/user/calls', { query: `?campaign_id=${campaign.id}`, record: false });
      return listed.answer.data.some((c) => c.webhook_response !== null) && listed;
    }, 'a call with its webhook answered');
    exchanges.push(answered);
    await send('GET', '/api/user/calls/:id', { params: { id: answered.answer.data.find((c) => c.webhook_response !== null).id } });
    // docs/reports.md: how the campaign went, and its calls and leads as files.
    const today = new Date().toISOString().slice(0, 10);
    await send('GET', '/api/user/campaigns/:id/forecast', { params: { id: campaign.id } });
    await send('GET', '/api/user/campaigns/:id/forecast/leads', { params: { id: campaign.id }, query: '?per_page=2' });
    await send('GET', '/api/user/campaigns/:id/forecast/leads', { params: { id: campaign.id }, query: '?never_callable=true' });
    await send('GET', '/api/user/campaigns/:id/forecast', { params: { id: campaign.id }, query: '?from=not-a-date' });
    await send('GET', '/api/user/campaigns/:id/report', { params: { id: campaign.id } });
    await send('GET', '/api/user/campaigns/:id/report', { params: { id: campaign.id }, query: `?date_from=${today}&date_to=${today}` });
    for (const accept of ['text/csv', 'application/x-ndjson']) {
      await send('GET', '/api/user/calls/export', { query: `?campaign_id=${campaign.id}`, accept });
      await send('GET', '/api/user/leads/export', { query: `?campaign_id=${campaign.id}`, accept });
    }
    // A call's (a lead's or a campaign's, also delivered by then or not, has no call_id): the same one every run.
    const delivered = deliveries.answer.data.find((d) => d.status === 'delivered' && d.call_id !== null);
    await send('GET', '/api/user/webhook-deliveries/:id', { params: { id: delivered.id } });
    await send('POST', '/api/user/webhook-deliveries/:id/redeliver', { params: { id: delivered.id } });

    const inbound = (
      await send('POST', '/api/telephony/inbound', { auth: 'signed', body: { call_id: 'CA-1001', from: '+12025550177', to: number.phone_number } })
    ).answer;
    await send('POST', '/api/telephony/inbound', { auth: 'none', body: { from: '+12025550177', to: number.phone_number } });
    const callId = inbound.call_id;
    await send('POST', '/api/telephony/calls/:call_id/events', {
      auth: 'signed',
      params: { call_id: callId },
      body: { status: 'in-progress', answered_by: 'human' },
    });
    await send('POST', '/api/telephony/calls/:call_id/tools/:tool_name', {
      auth: 'signed',
      params: { call_id: callId, tool_name: tool.name },
      body: { arguments: { day: '2026-12-01' } },
    });
    await send('POST', '/api/telephony/calls/:call_id/events', {
      auth: 'signed',
      params: { call_id: callId },
      body: { status: 'completed', duration: 42, transcript: 'Caller: Is Tuesday free?\nAI: Yes, 10:00 or 14:30.', total_cost: 0.06 },
    });
    await send('POST', '/api/telephony/calls/:call_id/events', { auth: 'signed', params: { call_id: callId }, body: { status: 'ringing' } });

    // After the dialing: narrower quiet hours would hold the campaign's calls until their hour.
    await send('GET', '/api/user/settings');
    await send('PUT', '/api/user/settings', { body: { quiet_hours: { start: '09:00', end: '20:00' } } });
    await send('PUT', '/api/user/settings', { body: { quiet_hours: { start: '07:00', end: '22:00' } } });
    await send('POST', '/api/user/dnc', { body: { phone_numbers: ['+12025550150', '+12025550151'], reason: 'asked not to be called' } });
    await send('POST', '/api/user/dnc', { body: { phone_numbers: ['not a number'] } });
    const dncFile = 'phone_number,name\n+12025550152,Eve\n+12025550153,Finn\n12345,Gus\n';
    const dncImport = (await send('POST', '/api/user/dnc/import', { upload: { contentType: 'text/csv', text: dncFile } })).answer.data;
    await send('POST', '/api/user/dnc/import', { upload: { contentType: 'text/plain', text: '+12025550154\n+12025550155\n' } });
    await until(
      async () => (await send('GET', '/api/user/dnc-imports', { record: false })).answer.data.every((i) => i.status !== 'running'),
      'the dnc imports',
    );
    await send('GET', '/api/user/dnc-imports/:id', { params: { id: dncImport.id } });
    await send('GET', '/api/user/dnc-imports', { query: '?per_page=5' });
    await send('GET', '/api/user/dnc', { query: '?per_page=10' });
    await send('DELETE', '/api/user/dnc/:phone_number', { params: { phone_number: encodeURIComponent('+12025550151') } });
    await send('DELETE', '/api/user/dnc/:phone_number', { params: { phone_number: encodeURIComponent('+12025550151') } });

    // docs/privacy.md: what is held on one number, and a number that is none.
    await send('GET', '/api/user/privacy/subjects/:phone_number', { params: { phone_number: encodeURIComponent('+12025550101') } });
    await send('GET', '/api/user/privacy/subjects/:phone_number', { params: { phone_number: 'not-a-number' } });
    // docs/privacy.md: an erasure requested, then read back; a number that is none.
    const erasure = await send('POST', '/api/user/privacy/erasures', { body: { phone_number: '+12025550199' } });
    await send('GET', '/api/user/privacy/erasures/:id', { params: { id: erasure.answer.data.id } });
    await send('POST', '/api/user/privacy/erasures', { body: { phone_number: 'not-a-number' } });

    // docs/teams.md: a teammate, an API key within its scopes, and who did what.
    const mate = (await send('POST', '/api/user/members', { body: { email: 'teammate@example.com', role: 'viewer' } })).answer.data;
    await send('POST', '/api/user/members', { body: { email: 'teammate@example.com', role: 'viewer' } });
    await send('POST', '/api/user/members', { bearer: mate.token, body: { email: 'another@example.com', role: 'viewer' } });
    await send('PUT', '/api/user/members/:id', { params: { id: mate.id }, body: { role: 'editor' } });
    await send('GET', '/api/user/members');
    const expiresAt = new Date(Date.now() + 365 * 86_400_000).toISOString();
    const key = (await send('POST', '/api/user/api-keys', { body: { name: 'CRM sync', scopes: ['read', 'leads:write'], expires_at: expiresAt } })).answer.data;
    await send('POST', '/api/user/api-keys', { body: { name: 'everything', scopes: ['all'] } });
    await send('GET', '/api/user/campaigns', { bearer: key.token, query: '?per_page=1' });
    await send('DELETE', '/api/user/tools/:id', { bearer: key.token, params: { id: tool.id } });
    await send('GET', '/api/user/api-keys');
    await send('GET', '/api/user/audit', { query: '?per_page=3' });
    await send('GET', '/api/user/audit', { query: '?actor_type=user&type=MemberRoleChanged' });
    await send('DELETE', '/api/user/api-keys/:id', { params: { id: key.id } });
    await send('DELETE', '/api/user/members/:id', { params: { id: mate.id } });

    await send('DELETE', '/api/user/tools/:id', { params: { id: tool.id } });
    void receiver;
    return exchanges;
  } finally {
    await target.stop();
  }
}

module.exports = { apiTour, startTarget };

if (require.main === module) {
  require('./write-api-examples').main(apiTour, startTarget);
}
