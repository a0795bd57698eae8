import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CallDetails, CallStatus } from '../../calls/call.events';
import { RecordCallOutcome } from '../../calls/commands/record-call-outcome';
import { SIMULATED_OUTCOMES, SimulatedOutcome, SimulatedSettings } from './simulated-settings';
import { yieldToIo } from '../../shared/yield-to-io';
import { DialAccepted, DialRequest, Dialer } from '../dialer.port';

type Step = [CallStatus, CallDetails?];

/** The statuses each simulated outcome moves through; `silence` never ends and is left to the stuck-call sweep. */
const SCRIPTS: Record<SimulatedOutcome, (seconds: number) => Step[]> = {
  human: (s) => [
    ['ringing'],
    ['in-progress', { answered_by: 'human' }],
    [
      'completed',
      { answered_by: 'human', duration: s, transcript: 'AI: Hello!\nCustomer: Hi, thanks for calling.', carrier_cost: 0.002 * s, total_cost: 0.01 * s },
    ],
  ],
  machine: (s) => [
    ['ringing'],
    ['in-progress', { answered_by: 'machine' }],
    ['completed', { answered_by: 'machine', duration: s, carrier_cost: 0.002 * s, total_cost: 0.01 * s }],
  ],
  busy: () => [['ringing'], ['busy']],
  'no-answer': () => [['ringing'], ['no-answer']],
  failed: () => [['failed']],
  silence: () => [['ringing']],
};

/** mulberry32: a small seeded generator, so a run with the same seed draws the same outcomes. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function drawOutcome(odds: Record<SimulatedOutcome, number>, random: () => number): SimulatedOutcome {
  const total = SIMULATED_OUTCOMES.reduce((sum, o) => sum + odds[o], 0);
  let pick = random() * total;
  for (const outcome of SIMULATED_OUTCOMES) {
    pick -= odds[outcome];
    if (pick < 0) return outcome;
  }
  return SIMULATED_OUTCOMES.filter((o) => odds[o] > 0).at(-1)!;
}

/**
 * `DIALER=simulated`: no real call. Each call moves through ringing, in-progress and a
 * terminal outcome drawn with the configured odds, reported through the same
 * record-call-outcome command as a provider's callbacks.
 */
@Injectable()
export class SimulatedDialer extends Dialer implements OnModuleDestroy {
  readonly provider = 'simulated' as const;
  private readonly logger = new Logger('SimulatedDialer');
  private readonly random: () => number;
  private readonly calls = new Set<Promise<void>>();
  private stopped = false;

  constructor(
    private readonly settings: SimulatedSettings,
    private readonly commands: CommandBus,
  ) {
    super();
    this.random = seededRandom(settings.seed);
  }

  async dial(request: DialRequest): Promise<DialAccepted> {
    const outcome = drawOutcome(this.settings.odds, this.random);
    // The conversation lasts one step; a call answered at once still reports a second.
    const call = this.play(request.call_id, SCRIPTS[outcome](Math.max(1, Math.round(this.settings.stepSeconds))));
    this.calls.add(call);
    void call.finally(() => this.calls.delete(call));
    return { providerCallId: null };
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.calls);
  }

  private async play(callId: number, steps: Step[]): Promise<void> {
    const stepMs = this.settings.stepSeconds * 1000;
    for (const [status, details] of steps) {
      if (stepMs > 0) await new Promise((resolve) => setTimeout(resolve, stepMs).unref());
      else await yieldToIo();
      if (this.stopped) return;
      try {
        await this.commands.execute(new RecordCallOutcome(callId, status, details));
      } catch (error) {
        // The call may have been ended meanwhile (the stuck-call sweep): the script stops there.
        this.logger.debug(`call ${callId}: ${(error as Error).message}`);
        return;
      }
    }
  }
}
