import fastifyWebsocket from '@fastify/websocket';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import { isTwilios } from '../twilio-signature';
import { AppConfig } from '../../../infrastructure/config/app-config';
import { TWILIO_RELAY_PATH, relayUrl } from '../twilio-twiml';
import { TwilioRelay } from './twilio-relay';
import { TwilioSettings } from '../twilio-settings';

/** A relay frame larger than this is not Twilio's. */
const MAX_FRAME_BYTES = 1024 * 1024;

/**
 * docs/real-calls.md: `GET /api/telephony/twilio/relay`, a WebSocket whose upgrade carries Twilio's
 * signature over the exact URL the TwiML gave (no params); anything else is refused 401 before
 * the upgrade. Installed with `DIALER=twilio` only.
 */
export async function installTwilioRelay(app: NestFastifyApplication, config: AppConfig, twilio: TwilioSettings): Promise<void> {
  const relay = app.get(TwilioRelay);
  const url = relayUrl(config.publicUrl);
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  await fastify.register(fastifyWebsocket, { options: { maxPayload: MAX_FRAME_BYTES } });
  await fastify.register(async (scope) => {
    scope.get(
      TWILIO_RELAY_PATH,
      {
        websocket: true,
        preValidation: async (request, reply) => {
          if (!isTwilios(twilio, request.headers, url, {})) {
            await reply.code(401).send({ message: 'Invalid signature.' });
          }
        },
      },
      (socket) => relay.open(socket),
    );
  });
}
