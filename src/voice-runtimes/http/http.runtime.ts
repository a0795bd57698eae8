import { TelephonySignatureGuard } from '../../infrastructure/auth/telephony-signature.guard';
import { NO_SETTINGS, VoiceRuntime } from '../voice-runtime';
import { HttpDialer } from './http-dialer';
import { TelephonyController } from './telephony.controller';

/** `DIALER=http`: the user's own telephony provider, signed requests both ways (docs/api.md). */
export const HTTP_RUNTIME: VoiceRuntime<'http'> = {
  kind: 'http',
  settings: NO_SETTINGS,
  dialer: (config) => new HttpDialer(config),
  controllers: [TelephonyController],
  providers: [TelephonySignatureGuard],
};
