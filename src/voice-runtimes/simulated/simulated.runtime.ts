import { NO_SETTINGS, VoiceRuntime } from '../voice-runtime';
import { SimulatedDialer } from './simulated-dialer';

/** `DIALER=simulated`: no real call; outcomes drawn from seeded odds (docs/configuration.md). */
export const SIMULATED_RUNTIME: VoiceRuntime<'simulated'> = {
  kind: 'simulated',
  settings: NO_SETTINGS,
  dialer: (config, _settings, commands) => new SimulatedDialer(config, commands),
  controllers: [],
};
