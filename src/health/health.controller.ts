import { Controller, Get, HttpCode, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { EVENT_STORE, EventStore } from '../shared/ports/event-store.port';
import { DocumentStore, READ_STORE } from '../shared/ports/document-store.port';

const within = (ms: number, work: Promise<void>) =>
  Promise.race([work, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms).unref())]);

/** Liveness (the process answers) and readiness (both stores answer). No token needed. */
@Controller('health')
export class HealthController {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: DocumentStore,
  ) {}

  @Get('live')
  @HttpCode(200)
  live() {
    return { status: 'ok' };
  }

  @Get(['', 'ready'])
  async ready(@Res({ passthrough: true }) reply: FastifyReply) {
    const check = (work: Promise<void>) =>
      within(2000, work).then(
        () => 'up' as const,
        () => 'down' as const,
      );
    const [eventStore, readStore] = await Promise.all([check(this.events.ping()), check(this.reads.ping())]);
    const ok = eventStore === 'up' && readStore === 'up';
    reply.status(ok ? 200 : 503);
    return { status: ok ? 'ok' : 'unavailable', checks: { event_store: eventStore, read_store: readStore } };
  }
}
