import { VoiceRuntime } from '../voice-runtime';
import { TwilioSettings, readTwilioSettings } from './twilio-settings';
import { ModelClient } from './relay/model-client';
import { installTwilioRelay } from './relay/relay-route';
import { TwilioRelay } from './relay/twilio-relay';
import { TwilioCallbacksController } from './twilio-callbacks.controller';
import { TwilioDialer } from './twilio-dialer';
import { TWILIO_CALLBACK_ROUTES } from './twilio-twiml';

/** `DIALER=twilio`: Twilio carries the call, the service runs the conversation over ConversationRelay (docs/real-calls.md). */
export const TWILIO_RUNTIME: VoiceRuntime<'twilio', TwilioSettings> = {
  kind: 'twilio',
  settings: readTwilioSettings,
  capacity: (settings) => settings.maxConcurrentCalls,
  dialer: (config, settings) => new TwilioDialer(config, settings),
  controllers: [TwilioCallbacksController],
  providers: [ModelClient, TwilioRelay],
  formRoutes: TWILIO_CALLBACK_ROUTES,
  install: installTwilioRelay,
};
