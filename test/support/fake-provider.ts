import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { hasValidSignature, sign } from '../../src/shared/signature';

/** How the fake provider answers a dial to a number. */
export type Script = 'human' | 'machine' | 'busy' | 'no-answer' | 'failed' | 'silence' | 'refuse' | 'hang';

const STEPS: Record<Exclude<Script, 'refuse' | 'hang'>, object[]> = {
  human: [{ status: 'ringing' }, { status: 'in-progress', answered_by: 'human' }, { status: 'completed', answered_by: 'human', duration: 30 }],
  machine: [{ status: 'ringing' }, { status: 'in-progress', answered_by: 'machine' }, { status: 'completed', answered_by: 'machine', duration: 5 }],
  busy: [{ status: 'ringing' }, { status: 'busy' }],
  'no-answer': [{ status: 'ringing' }, { status: 'no-answer' }],
  failed: [{ status: 'failed' }],
  silence: [{ status: 'ringing' }],
};

export interface Dial {
  request: any;
  script: Script;
  receivedAt: number;
  /** Set when the provider reported the call's last status. */
  endedAt?: number;
}

/**
 * A telephony provider on loopback: checks the dial request's signature, answers it, and
 * reports each call's statuses to its callback URL, signed, as a real provider would.
 */
export class FakeProvider {
  readonly dials: Dial[] = [];
  readonly badSignatures: string[] = [];
  private server!: Server;
  private pending = new Set<Promise<void>>();
  /** Open calls per campaign right now, and the most ever seen at once. */
  private open = new Map<number, number>();
  readonly maxOpen = new Map<number, number>();
  /** Leads that had a second dial while one was open. */
  readonly overlaps: number[] = [];
  private openLeads = new Set<number>();
  private hung: Array<import('node:http').ServerResponse> = [];
  /** Dial requests not answered yet, and the most ever open at once (with when that was first reached). */
  openRequests = 0;
  maxOpenRequests = 0;
  maxOpenRequestsAt = 0;
  /** The numbers whose dial requests are open now. */
  readonly openTo = new Set<string>();
  /** More the last status of a call reports (its variables, cost…), by the dial it ends. */
  lastDetails: (dial: Dial) => object = () => ({});

  constructor(
    private readonly secret: string,
    private readonly scriptFor: (to: string, attempt: number) => Script,
    private readonly stepDelayMs = 5,
    /** How long the provider takes to accept a dial (real runtimes take 0.3–1 s). */
    readonly acceptDelayMs = 0,
  ) {}

  async start(): Promise<string> {
    this.server = createServer(async (req, res) => {
      const raw = await body(req);
      if (!hasValidSignature(raw, this.secret, req.headers['x-signature'] as string)) {
        this.badSignatures.push(raw);
        res.writeHead(401).end();
        return;
      }
      const request = JSON.parse(raw);
      if (this.acceptDelayMs) await this.holdOpen(request.to);
      const attempt = this.dials.filter((d) => d.request.to === request.to).length + 1;
      const script = this.scriptFor(request.to, attempt);
      const dial: Dial = { request, script, receivedAt: Date.now() };
      this.dials.push(dial);
      if (script === 'hang') {
        // Never answered: the service dies waiting, as a crash mid-dial would leave it.
        this.hung.push(res);
        return;
      }
      if (script === 'refuse') {
        dial.endedAt = Date.now();
        res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"no capacity"}');
        return;
      }
      if (this.openLeads.has(request.lead_id)) this.overlaps.push(request.lead_id);
      // A silent call is never ended by the provider: the service fails it, so it is not tracked here.
      if (script !== 'silence') {
        this.openLeads.add(request.lead_id);
        const open = (this.open.get(request.campaign_id) ?? 0) + 1;
        this.open.set(request.campaign_id, open);
        this.maxOpen.set(request.campaign_id, Math.max(open, this.maxOpen.get(request.campaign_id) ?? 0));
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"accepted":true}');
      const run = this.report(dial, STEPS[script], script !== 'silence');
      this.pending.add(run);
      void run.finally(() => this.pending.delete(run));
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/dial`;
  }

  private async holdOpen(to: string): Promise<void> {
    this.openTo.add(to);
    this.openRequests++;
    if (this.openRequests > this.maxOpenRequests) {
      this.maxOpenRequests = this.openRequests;
      this.maxOpenRequestsAt = Date.now();
    }
    await new Promise((r) => setTimeout(r, this.acceptDelayMs));
    this.openRequests--;
    this.openTo.delete(to);
  }

  private async report(dial: Dial, steps: object[], ends: boolean): Promise<void> {
    for (const step of steps) {
      await new Promise((r) => setTimeout(r, this.stepDelayMs));
      const isLast = ends && step === steps[steps.length - 1];
      if (isLast) this.close(dial);
      const raw = JSON.stringify(isLast ? { ...step, ...this.lastDetails(dial) } : step);
      await fetch(dial.request.callback_url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-signature': sign(raw, this.secret) },
        body: raw,
      }).catch(() => undefined);
    }
  }

  private close(dial: Dial): void {
    dial.endedAt = Date.now();
    this.open.set(dial.request.campaign_id, (this.open.get(dial.request.campaign_id) ?? 1) - 1);
    this.openLeads.delete(dial.request.lead_id);
  }

  async stop(): Promise<void> {
    for (const res of this.hung.splice(0)) res.destroy();
    await Promise.all(this.pending);
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function body(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let data = '';
    req.on('data', (chunk) => (data += chunk));
    req.on('end', () => resolve(data));
  });
}

/** Polls until `check` holds or the time runs out. */
export async function eventually<T>(check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 15_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
