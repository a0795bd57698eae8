import { INestApplicationContext } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CallSpec } from '../../src/calls/call.events';
import { InitiateCall } from '../../src/calls/commands/initiate-call';
import { EVENT_STORE, EventStore } from '../../src/shared/ports/event-store.port';
import { ProjectionRunner } from '../../src/infrastructure/projections/projection-runner';
import { callSpec } from '../../src/testing/call.fixture';

/** Opens a call as the dialer or an inbound call would, and waits until it is listed. */
export async function openCall(app: INestApplicationContext, overrides: Partial<CallSpec> & Pick<CallSpec, 'user_id' | 'assistant_id'>): Promise<number> {
  const id = await app.get<EventStore>(EVENT_STORE).nextId('call');
  const { position } = await app.get(CommandBus).execute(new InitiateCall(id, callSpec(overrides)));
  await app.get(ProjectionRunner).waitFor(position);
  return id;
}
