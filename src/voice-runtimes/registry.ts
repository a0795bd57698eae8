import { EnvReader } from '../infrastructure/config/env-reader';
import { ConfiguredRuntime, configureRuntime } from './configured-runtime';
import { HTTP_RUNTIME } from './http/http.runtime';
import { RETELL_RUNTIME } from './retell/retell.runtime';
import { SIMULATED_RUNTIME } from './simulated/simulated.runtime';
import { TWILIO_RUNTIME } from './twilio/twilio.runtime';
import { VAPI_RUNTIME } from './vapi/vapi.runtime';
import { DialerKind, VoiceRuntime } from './voice-runtime';

/**
 * Every voice runtime, by the `DIALER` value that chooses it: a new runtime is a folder and a line
 * here. (Each has settings of its own type: `any` lets one map hold them; each descriptor is typed.)
 */
export const VOICE_RUNTIMES: { readonly [K in DialerKind]: VoiceRuntime<K, any> } = {
  simulated: SIMULATED_RUNTIME,
  http: HTTP_RUNTIME,
  vapi: VAPI_RUNTIME,
  retell: RETELL_RUNTIME,
  twilio: TWILIO_RUNTIME,
};

/** The runtime `DIALER` chose (the simulated one by default), its settings read (problems go to the reader). */
export function runtimeFor(read: EnvReader): ConfiguredRuntime {
  const kind = read.oneOf('DIALER', 'simulated', Object.keys(VOICE_RUNTIMES) as DialerKind[]);
  return configureRuntime(VOICE_RUNTIMES[kind], read);
}
