import { IncomingMessage, ServerResponse } from 'node:http';
import { SIGNATURE_SETTINGS_HEADER, getExpectedTwilioSignature } from 'twilio/lib/webhooks/webhooks';
import WebSocket from 'ws';
import { LoopbackServer } from './loopback-server';

/** How the fake Twilio plays a call to a number. */
export type TwilioScript =
  | { refuse: number; message?: string }
  /** Refused by the account's Geo Permissions (error 21215), Twilio's message naming the number called. */
  | { geoPermissions: true }
  /** The call is made (and listed), and nothing more is heard of it. */
  | { silent: true }
  | { busy: true }
  | { noAnswer: true }
  /** Answered (by a person, or a machine AMD reports), connected to the relay; the caller says each line in turn, then hangs up. */
  | { answer: 'human' | 'machine'; says: string[] };

export interface TwilioCallMade {
  sid: string;
  params: URLSearchParams;
  dateCreated: Date;
  /** What the relay sent, in order. */
  frames: any[];
  /** Callbacks posted, with the service's answer. */
  callbacks: Array<{ path: string; params: Record<string, string>; status: number }>;
  hungUpByService: boolean;
  done: Promise<void>;
  /** The TwiML the call runs: its `Twiml`, or what its `Url` answered. */
  twiml?: string;
  /** Twilio's status: `queued` until dialed (no `start_time` then), then `in-progress`. */
  status?: 'queued' | 'in-progress' | 'completed';
}

/** The most a `Twiml` parameter holds (twilio.com/docs/voice/api/call-resource: "max 4000 characters"). */
const TWIML_MAX = 4000;
/** Twilio's list pages: `PageSize` 50 unless given, 1000 at most (twilio.com/docs/usage/twilios-response#pagination). */
const PAGE_MAX = 1000;

const unescapeXml = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/**
 * Twilio's REST API and its side of a call on loopback, as Twilio documents them: `POST
 * .../Calls.json` (form-encoded, Basic auth) answers the call resource, then the status callbacks
 * (signed with `twilio`'s own signing) follow the call; an answered call connects to the
 * ConversationRelay URL of its TwiML with a signed upgrade and plays the caller's lines.
 */
export class FakeTwilio extends LoopbackServer {
  readonly calls: TwilioCallMade[] = [];
  readonly unauthorised: string[] = [];
  private seq = 0;

  constructor(
    readonly accountSid: string,
    private readonly authToken: string,
    private readonly scriptOf: (to: string, nth: number) => TwilioScript,
  ) {
    super();
  }

  /**
   * A SharedKey webhook setting (twilio-node 6.x `webhooks.v1.settings`): callbacks are then signed
   * with its secret and the algorithm it names, and carry `X-Twilio-Webhooks-Signature-Settings`.
   */
  sharedKey: { id: string; secret: string; algorithm: 'HMAC_SHA1' | 'HMAC_SHA256' } | null = null;

  /** How Twilio signs what it sends to `url` with `params`, with the headers that go with it. */
  private signed(url: string, params: Record<string, string>): Record<string, string> {
    if (!this.sharedKey) return { 'x-twilio-signature': getExpectedTwilioSignature(this.authToken, url, params) };
    const { id, secret, algorithm } = this.sharedKey;
    return {
      'x-twilio-signature': getExpectedTwilioSignature(secret, url, params, algorithm),
      [SIGNATURE_SETTINGS_HEADER.toLowerCase()]: `key=${id},algorithm=${algorithm}`,
    };
  }

  /** Posts a form callback signed as Twilio signs it (or with `signature` given). */
  async post(url: string, params: Record<string, string>, signature?: string): Promise<{ status: number; text: string }> {
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...this.signed(url, params),
        ...(signature !== undefined ? { 'x-twilio-signature': signature } : {}),
      },
      body: new URLSearchParams(params).toString(),
    });
    return { status: res.status, text: await res.text() };
  }

  /** Opens the relay WebSocket as Twilio does: the upgrade signed over the URL. */
  connect(url: string, signature?: string): WebSocket {
    return new WebSocket(url, { headers: { ...this.signed(url, {}), ...(signature !== undefined ? { 'x-twilio-signature': signature } : {}) } });
  }

  /** The most calls a list page holds here (tests make it small to walk pages). */
  pageSize = PAGE_MAX;
  /** Send the `initiated` callback before answering the create, as Twilio may. */
  callbackFirst = false;
  /** The queries of the call lists asked for. */
  readonly lists: string[] = [];

  protected async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const expected = `Basic ${Buffer.from(`${this.accountSid}:${this.authToken}`).toString('base64')}`;
    if (req.headers.authorization !== expected) {
      this.unauthorised.push(`${req.method} ${req.url}`);
      return json(401, { code: 20003, message: 'Authenticate', more_info: 'https://www.twilio.com/docs/errors/20003', status: 401 });
    }
    const url = new URL(req.url!, this.url);
    const base = `/2010-04-01/Accounts/${this.accountSid}/Calls`;
    const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    if (req.method === 'GET' && url.pathname === `${base}.json`) {
      // Newest first, filtered by To and From; a queued call is listed too, with no start_time yet.
      const [to, from] = [url.searchParams.get('To'), url.searchParams.get('From')];
      const size = Math.min(Number(url.searchParams.get('PageSize') ?? 50), PAGE_MAX, this.pageSize);
      const pageNo = Number(url.searchParams.get('Page') ?? 0);
      const listed = this.calls.filter((c) => (!to || c.params.get('To') === to) && (!from || c.params.get('From') === from)).reverse();
      const page = listed.slice(pageNo * size, (pageNo + 1) * size);
      const more = (pageNo + 1) * size < listed.length;
      const next = new URLSearchParams({ ...(to ? { To: to } : {}), ...(from ? { From: from } : {}), PageSize: String(size), Page: String(pageNo + 1) });
      this.lists.push(url.search);
      return json(200, {
        calls: page.map((c) => this.resource(c, c.status ?? 'in-progress')),
        page: pageNo,
        page_size: size,
        next_page_uri: more ? `${base}.json?${next}` : null,
      });
    }
    const hangUp = new RegExp(`^${base}/(CA[0-9a-f]+)\\.json$`).exec(url.pathname);
    if (req.method === 'POST' && hangUp) {
      const call = this.calls.find((c) => c.sid === hangUp[1]);
      if (!call) return json(404, { code: 20404, message: 'The requested resource was not found', status: 404 });
      if (form.get('Status') === 'completed') call.hungUpByService = true;
      return json(200, this.resource(call, 'completed'));
    }
    if (req.method === 'POST' && url.pathname === `${base}.json`) {
      const to = form.get('To') ?? '';
      const script = this.scriptOf(to, this.calls.filter((c) => c.params.get('To') === to).length + 1);
      if ('refuse' in script)
        return json(script.refuse, { code: 20500, message: script.message ?? 'An internal server error has occurred', status: script.refuse });
      // Twilio's answer as its users quote it (github.com/arachnys/cabot/issues/395, sloan58/twilio-autodialer#27):
      // "Account not authorized to call +36305830161. Perhaps you need to enable some international permissions: …".
      if ('geoPermissions' in script)
        return json(400, {
          code: 21215,
          message: `Account not authorized to call ${to}. Perhaps you need to enable some international permissions: https://www.twilio.com/console/voice/calls/geo-permissions/low-risk`,
          more_info: 'https://www.twilio.com/docs/errors/21215',
          status: 400,
        });
      // Twilio's own limits on a create (its error codes are not asserted here).
      const twiml = form.get('Twiml');
      if (twiml !== null && twiml.length > TWIML_MAX) return json(400, { code: 21000, message: `Twiml exceeds ${TWIML_MAX} characters`, status: 400 });
      if ((twiml === null) === (form.get('Url') === null)) return json(400, { code: 21000, message: 'Either Url or Twiml must be given', status: 400 });
      const call = {
        sid: `CA${(++this.seq).toString(16).padStart(32, '0')}`,
        params: form,
        dateCreated: new Date(),
        frames: [],
        callbacks: [],
        hungUpByService: false,
        status: 'queued',
      } as unknown as TwilioCallMade;
      this.calls.push(call);
      // Twilio may call back before its answer to the create arrives: the service must match the call by its URL.
      if (this.callbackFirst) await this.callback(call, form.get('StatusCallback'), { CallStatus: 'initiated' });
      json(201, this.resource(call, 'queued'));
      if ('silent' in script) return;
      call.done = this.play(call, script);
      this.track(call.done);
      return;
    }
    json(404, { code: 20404, message: 'The requested resource was not found', status: 404 });
  }

  private resource(call: TwilioCallMade, status: string) {
    return {
      sid: call.sid,
      account_sid: this.accountSid,
      to: call.params.get('To'),
      from: call.params.get('From'),
      status,
      date_created: call.dateCreated.toUTCString(),
      ...(status === 'queued' ? { start_time: null } : { start_time: call.dateCreated.toUTCString() }),
    };
  }

  /** A callback the service cannot take (it is down) is sent again, as Twilio's connection retries do, for up to 10 s. */
  private async callback(call: TwilioCallMade, url: string | null, params: Record<string, string>): Promise<void> {
    if (!url) return;
    const all = { CallSid: call.sid, AccountSid: this.accountSid, To: call.params.get('To')!, From: call.params.get('From')!, ...params };
    let answer: { status: number } | null = null;
    for (let tries = 0; !answer && tries < 100; tries++) {
      answer = await this.post(url, all).catch(() => null);
      if (!answer) await new Promise((r) => setTimeout(r, 100));
    }
    const status = answer?.status ?? 0;
    call.callbacks.push({ path: new URL(url).pathname, params: all, status });
  }

  private async play(call: TwilioCallMade, script: Exclude<TwilioScript, { refuse: number } | { geoPermissions: true } | { silent: true }>): Promise<void> {
    const status = call.params.get('StatusCallback');
    await new Promise((r) => setTimeout(r, 5));
    await this.callback(call, status, { CallStatus: 'ringing' });
    if ('busy' in script) return this.callback(call, status, { CallStatus: 'busy', CallDuration: '0' });
    if ('noAnswer' in script) return this.callback(call, status, { CallStatus: 'no-answer', CallDuration: '0' });
    call.status = 'in-progress';
    await this.callback(call, status, { CallStatus: 'in-progress' });
    const started = Date.now();
    const amd = call.params.get('MachineDetection') === 'Enable';
    const answeredBy = script.answer === 'machine' ? 'machine_end_beep' : 'human';
    await this.converse(call, script.says, amd ? () => this.callback(call, call.params.get('AsyncAmdStatusCallback'), { AnsweredBy: answeredBy }) : null);
    // With AsyncAmd the verdict goes to AsyncAmdStatusCallback alone: the completed callback does not repeat it.
    const end = { CallStatus: 'completed', CallDuration: String(Math.max(1, Math.round((Date.now() - started) / 1000))) };
    call.status = 'completed';
    await this.callback(call, status, end);
    if (call.params.get('Record') === 'true') {
      await this.callback(call, call.params.get('RecordingStatusCallback'), {
        RecordingSid: 'RE0001',
        RecordingStatus: 'completed',
        RecordingUrl: `https://api.twilio.com/2010-04-01/Accounts/${this.accountSid}/Recordings/RE0001`,
      });
    }
  }

  /** The relay: setup, then each line once the assistant's turn before it is over; ends when the service ends the call, hangs up, or the lines run out. */
  private async converse(call: TwilioCallMade, says: string[], afterSetup: (() => Promise<void>) | null): Promise<void> {
    const url = call.params.get('Url');
    if (url) {
      // Twilio fetches the TwiML from the call's Url, signed like a callback.
      const params = { CallSid: call.sid, AccountSid: this.accountSid, To: call.params.get('To')!, From: call.params.get('From')! };
      call.twiml = (await this.post(url, params)).text;
    }
    const twiml = call.twiml ?? call.params.get('Twiml') ?? '';
    const relayUrl = unescapeXml(/ConversationRelay url="([^"]+)"/.exec(twiml)?.[1] ?? '');
    const callId = /<Parameter name="call_id" value="(\d+)"\/>/.exec(twiml)?.[1];
    const ws = this.connect(relayUrl);
    let turnOver: () => void = () => undefined;
    let ended = false;
    const closed = new Promise<void>((resolve) => ws.on('close', () => resolve()).on('error', () => resolve()));
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data));
      call.frames.push(frame);
      if (frame.type === 'end') ended = true;
      if (frame.type === 'end' || (frame.type === 'text' && frame.last)) turnOver();
    });
    await new Promise<void>((resolve, reject) => ws.once('open', resolve).once('error', reject));
    ws.send(
      JSON.stringify({
        type: 'setup',
        sessionId: `VX${call.sid.slice(2)}`,
        callSid: call.sid,
        from: call.params.get('From'),
        to: call.params.get('To'),
        direction: 'outbound-api',
        customParameters: { call_id: callId },
      }),
    );
    await afterSetup?.();
    for (const line of says) {
      if (ended || call.hungUpByService || ws.readyState !== WebSocket.OPEN) break;
      const over = new Promise<void>((resolve) => (turnOver = resolve));
      ws.send(JSON.stringify({ type: 'prompt', voicePrompt: line, lang: 'en-US', last: true }));
      await Promise.race([over, closed]);
    }
    ws.close();
    await closed;
  }
}
