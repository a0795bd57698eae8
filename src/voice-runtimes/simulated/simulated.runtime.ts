import { VoiceRuntime } from '../voice-runtime';
import { SimulatedSettings, readSimulatedSettings } from './simulated-settings';
import { SimulatedDialer } from './simulated-dialer';

/** `DIALER=simulated`: no real call; outcomes drawn from seeded odds (docs/configuration.md). */
export const SIMULATED_RUNTIME: VoiceRuntime<'simulated', SimulatedSettings> = {
  kind: 'simulated',
  settings: readSimulatedSettings,
  dialer: (_config, settings, commands) => new SimulatedDialer(settings, commands),
  controllers: [],
};
