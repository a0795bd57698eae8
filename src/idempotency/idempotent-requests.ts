import { ExecutionContext, HttpException, Inject, Injectable, Logger, createParamDecorator } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { Readable, Transform, pipeline } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Clock } from '../shared/clock';
import { DomainError } from '../shared/domain-error';
import { ValidationFailed } from '../shared/validation/validation.pipe';
import { AuthenticatedRequest } from '../access/bearer-auth.guard';
import { CommandRunner } from '../infrastructure/event-sourcing/command-runner';
import { ConcurrencyError } from '../shared/ports/event-store.errors';
import { EVENT_STORE, EventStore } from '../shared/ports/event-store.port';
import { errorAnswer } from '../infrastructure/http/http-error.filter';
import { RawBodyRequest } from '../infrastructure/http/json-body-parser';
import { ReadModelBehind } from '../infrastructure/projections/read-model-behind';
import { ProjectionRunner } from '../infrastructure/projections/projection-runner';
import { IdempotencyCommand, KEY_REUSED, RUNNING_ABANDONED_MS, idempotencyDecider, idempotencyStream } from './idempotency.decider';

/** 1 to 255 printable ASCII characters (docs/api.md). */
const KEY = /^[\x20-\x7e]{1,255}$/;
export const KEY_FORMAT = 'The Idempotency-Key header must be 1 to 255 printable characters.';

/** How often a streamed body still arriving says so under its key: well within the time a running request is given. */
const PROGRESS_EVERY_MS = RUNNING_ABANDONED_MS / 4;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * `Idempotency-Key` on a create (docs/api.md): the first request under a key runs and its
 * answer is stored in the key's stream; a repeat with the same body gets that answer again
 * (`Idempotent-Replayed: true`) and writes nothing; another body is refused, and so is a
 * repeat while the first still runs. Who runs is decided by an append with the expected
 * revision, so it holds across requests racing in any number of processes. A create route
 * wraps its work in `answer`, which costs a request without the header nothing.
 */
@Injectable()
export class IdempotentRequests {
  private readonly logger = new Logger('Idempotency');

  constructor(
    private readonly runner: CommandRunner,
    private readonly clock: Clock,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly projections: ProjectionRunner,
  ) {}

  /**
   * Runs `create` (whose success answers `status`) once per key, or answers as the first run did.
   * With `resource`, the id of what it creates is chosen and kept under the key before it is
   * created: a retry after a failure (a 5xx, or a 503 while the read models caught up) creates
   * under that id again, or answers from what was created, never a second one.
   */
  async answer<T>(exchange: HttpExchange, status: number, create: (id?: number) => Promise<T>, resource?: CreatedResource<T>): Promise<T> {
    const { request } = exchange;
    if (request.headers['idempotency-key'] === undefined) return create();
    return this.once(
      exchange,
      status,
      `${request.method} ${request.url}\n${request.rawBody ?? ''}`,
      async (stream, chosen) => {
        if (!resource) return { body: await create() };
        if (chosen !== null) {
          // What the earlier run wrote is read once the read models show every write made so far.
          await this.projections.waitFor(await this.events.headPosition());
          const found = await resource.find(chosen);
          if (found) return { body: found };
        }
        const id = chosen ?? (await this.events.nextId(resource.sequence));
        if (chosen === null) await this.runner.run(stream, idempotencyDecider, { type: 'Choose', resourceId: id }, { retries: 3 });
        try {
          return { body: await create(id) };
        } catch (error) {
          // Made under that id by the earlier run, but not readable yet: answered once it is.
          if (chosen !== null && error instanceof ConcurrencyError) throw new ReadModelBehind(0);
          throw error;
        }
      },
      async () => true,
    );
  }

  /**
   * As `answer`, for a body `create` reads as a stream (an import's file): its bytes are known
   * only once read, so the key holds their hash from the first run's answer, and a repeat reads
   * its own body to its end before it is answered again or refused as another request.
   */
  async answerStreamed<T>(exchange: HttpExchange, status: number, body: Readable, create: (body: Readable) => Promise<T>): Promise<T> {
    if (exchange.request.headers['idempotency-key'] === undefined) return create(body);
    const { request } = exchange;
    const hash = createHash('sha256');
    // Made only when the body is read: a request refused before that leaves its body for the caller to drain.
    const hashed = (progressed: () => Promise<void> = async () => undefined) =>
      pipeline(
        body,
        new Transform({
          transform: (chunk: Buffer, _encoding, done) => {
            hash.update(chunk);
            progressed().then(() => done(null, chunk), done);
          },
        }),
        () => undefined,
      );
    const fingerprint = `${request.method} ${request.url}\n${request.headers['content-type'] ?? ''}`;
    return this.once(
      exchange,
      status,
      fingerprint,
      async (stream) => {
        // A large file over a slow link arrives for longer than a request is given to run: while
        // its bytes keep coming, the key says so, and a repeat meanwhile is still told it runs.
        let said = this.clock.now().getTime();
        const progressed = async () => {
          if (this.clock.now().getTime() - said < PROGRESS_EVERY_MS) return;
          said = this.clock.now().getTime();
          await this.record(stream, { type: 'Progress' });
        };
        return { body: await create(hashed(progressed)), bodyHash: hash.digest('hex') };
      },
      async (stored) => {
        if (stored === null) return true;
        for await (const chunk of hashed() as AsyncIterable<Buffer>) void chunk;
        return hash.digest('hex') === stored;
      },
    );
  }

  /**
   * `create` once per key; a repeat is answered as the first run was when `sameBody` (told the
   * body hash its answer kept) says so, else refused as another request.
   */
  private async once<T>(
    { request, reply }: HttpExchange,
    status: number,
    fingerprint: string,
    create: (stream: string, chosen: number | null) => Promise<{ body: T; bodyHash?: string }>,
    sameBody: (storedHash: string | null) => Promise<boolean>,
  ): Promise<T> {
    const key = request.headers['idempotency-key'];
    if (typeof key !== 'string' || !KEY.test(key)) throw new ValidationFailed({ 'Idempotency-Key': [KEY_FORMAT] });
    const stream = idempotencyStream(request.user!.id, sha256(key));
    const { repeated, chosen } = await this.begin(stream, sha256(fingerprint));
    if (repeated) {
      if (!(await sameBody(repeated.bodyHash))) throw new DomainError('validation', KEY_REUSED);
      reply.header('Idempotent-Replayed', 'true');
      // The same route answers with the same status on success; a refusal is answered as stored.
      if (repeated.status >= 400) throw new HttpException(repeated.body as Record<string, unknown>, repeated.status);
      return repeated.body as T;
    }
    let made: { body: T; bodyHash?: string };
    try {
      made = await create(stream, chosen);
    } catch (error) {
      const answer = errorAnswer(error);
      // A server error may be retried: the key is freed, keeping the id its run chose. A write
      // saved but not yet readable frees it too when that id is kept (the retry answers from what
      // was made, once readable); else its key stays running until it is deemed abandoned.
      if (error instanceof ReadModelBehind) {
        if (await this.choseResource(stream)) await this.record(stream, { type: 'Abandon' });
      } else await this.record(stream, answer.status >= 500 ? { type: 'Abandon' } : { type: 'Answer', status: answer.status, body: answer.body });
      throw error;
    }
    await this.record(stream, { type: 'Answer', status, body: JSON.parse(JSON.stringify(made.body)), bodyHash: made.bodyHash });
    return made.body;
  }

  /** Starts the request under its key: the answer to repeat when it ran already, else the id an earlier run of it chose. */
  private async begin(
    stream: string,
    fingerprint: string,
  ): Promise<{ repeated: { status: number; body: unknown; bodyHash: string | null } | null; chosen: number | null }> {
    for (;;) {
      try {
        const { events, state } = await this.runner.run(stream, idempotencyDecider, { type: 'Begin', fingerprint }, { retries: 0 });
        if (events.length) return { repeated: null, chosen: state.status === 'running' ? state.resourceId : null };
        if (state.status === 'answered') return { repeated: { ...state.answer, bodyHash: state.bodyHash }, chosen: null };
      } catch (error) {
        if (!(error instanceof ConcurrencyError)) throw error;
      }
    }
  }

  private async choseResource(stream: string): Promise<boolean> {
    const { state } = await this.runner.load(stream, idempotencyDecider);
    return state.status === 'running' && state.resourceId !== null;
  }

  /** Stores how the request went on or ended. The request's own write stands either way: a failure here is logged, not answered. */
  private async record(stream: string, command: IdempotencyCommand): Promise<void> {
    try {
      await this.runner.run(stream, idempotencyDecider, command, { retries: 3 });
    } catch (error) {
      this.logger.error(`${stream}: the request's end could not be stored: ${(error as Error).message}`);
    }
  }
}

/** What an idempotent create makes, for its retries: how its id is drawn, and its answer once it is readable (null before). */
export interface CreatedResource<T> {
  /** The id sequence it is numbered from (`campaign`, `lead`...). */
  sequence: string;
  find(id: number): Promise<T | null>;
}

/** The request and reply an idempotent create answers through (see IdempotentRequests.answer). */
export interface HttpExchange {
  request: FastifyRequest & AuthenticatedRequest & RawBodyRequest;
  reply: FastifyReply;
}

export const Exchange = createParamDecorator((_: unknown, context: ExecutionContext): HttpExchange => ({
  request: context.switchToHttp().getRequest(),
  reply: context.switchToHttp().getResponse(),
}));
