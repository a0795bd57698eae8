import { TelephonySignatureGuard } from './telephony-signature.guard';
import { HttpRuntimeSettings, readHttpRuntimeSettings } from './http-settings';
import { VoiceRuntime } from '../voice-runtime';
import { HttpDialer } from './http-dialer';
import { TelephonyController } from './telephony.controller';

/** `DIALER=http`: the user's own telephony provider, signed requests both ways (docs/api.md). */
export const HTTP_RUNTIME: VoiceRuntime<'http', HttpRuntimeSettings> = {
  kind: 'http',
  settings: readHttpRuntimeSettings,
  dialer: (_config, settings) => new HttpDialer(settings),
  controllers: [TelephonyController],
  providers: [TelephonySignatureGuard],
};
