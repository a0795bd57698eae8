import { VoiceRuntime } from '../voice-runtime';
import { SimulatedDialer } from './simulated-dialer';

/** `DIALER=simulated`: no real call; outcomes drawn from seeded odds (docs/configuration.md). */
export const SIMULATED_RUNTIME: VoiceRuntime<'simulated'> = {
  kind: 'simulated',
  dialer: (config, commands) => new SimulatedDialer(config, commands),
  controllers: [],
};
