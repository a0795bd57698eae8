import { EnvReader } from '../../infrastructure/config/env-reader';

/** The simulated dialer's outcomes and their odds; each is drawn from a seeded generator. */
export type SimulatedOutcome = 'human' | 'machine' | 'busy' | 'no-answer' | 'failed' | 'silence';
export const SIMULATED_OUTCOMES: readonly SimulatedOutcome[] = ['human', 'machine', 'busy', 'no-answer', 'failed', 'silence'];

/** docs/configuration.md: what `DIALER=simulated` plays. */
export interface SimulatedSettings {
  seed: number;
  odds: Record<SimulatedOutcome, number>;
  /** Seconds each simulated step (ringing, talking) takes; 0 answers at once. */
  stepSeconds: number;
}

export const DEFAULT_SIMULATED_SETTINGS: SimulatedSettings = {
  seed: 1,
  odds: { human: 0.5, machine: 0.1, busy: 0.1, 'no-answer': 0.25, failed: 0.05, silence: 0 },
  stepSeconds: 2,
};

export function readSimulatedSettings(read: EnvReader): SimulatedSettings {
  const oddsRaw = read.text('SIMULATED_DIALER_ODDS');
  const odds = Object.fromEntries(SIMULATED_OUTCOMES.map((o) => [o, 0])) as Record<SimulatedOutcome, number>;
  if (oddsRaw) {
    for (const part of oddsRaw.split(',')) {
      const [name, weight] = part.split(':').map((s) => s.trim());
      if (!SIMULATED_OUTCOMES.includes(name as SimulatedOutcome) || !(Number(weight) >= 0)) {
        read.problems.push(`SIMULATED_DIALER_ODDS must list ${SIMULATED_OUTCOMES.join(', ')} as name:weight pairs (got "${oddsRaw}")`);
        break;
      }
      odds[name as SimulatedOutcome] = Number(weight);
    }
    if (!Object.values(odds).some((w) => w > 0)) read.problems.push('SIMULATED_DIALER_ODDS must give some outcome a weight above 0');
  }
  const stepRaw = read.text('SIMULATED_CALL_STEP_SECONDS');
  const stepSeconds = stepRaw === undefined ? DEFAULT_SIMULATED_SETTINGS.stepSeconds : Number(stepRaw);
  if (!(stepSeconds >= 0 && stepSeconds <= 3600))
    read.problems.push(`SIMULATED_CALL_STEP_SECONDS must be a number of seconds from 0 to 3600 (got "${stepRaw}")`);
  return {
    seed: read.int('SIMULATED_DIALER_SEED', DEFAULT_SIMULATED_SETTINGS.seed, 0, 2 ** 31 - 1),
    odds: oddsRaw ? odds : DEFAULT_SIMULATED_SETTINGS.odds,
    stepSeconds,
  };
}
