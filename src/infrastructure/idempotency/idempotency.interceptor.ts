import { CallHandler, ExecutionContext, HttpException, Injectable, Logger, NestInterceptor, UseInterceptors, applyDecorators } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Observable, from, mergeMap, of, throwError, catchError } from 'rxjs';
import { ValidationFailed } from '../../shared/validation/validation.pipe';
import { AuthenticatedRequest } from '../auth/bearer-auth.guard';
import { CommandRunner } from '../event-sourcing/command-runner';
import { ConcurrencyError } from '../event-store/event-store.errors';
import { errorAnswer } from '../http/http-error.filter';
import { RawBodyRequest } from '../http/json-body-parser';
import { ReadModelBehind } from '../projections/read-model-behind';
import { IdempotencyCommand, idempotencyDecider, idempotencyStream } from './idempotency.decider';

/** 1 to 255 printable ASCII characters (contract §12). */
const KEY = /^[\x20-\x7e]{1,255}$/;
export const KEY_FORMAT = 'The Idempotency-Key header must be 1 to 255 printable characters.';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * `Idempotency-Key` on a create (contract §12): the first request under a key runs and its
 * answer is stored in the key's stream; a repeat with the same body gets that answer again
 * (`Idempotent-Replayed: true`) and writes nothing; another body is refused, and so is a
 * repeat while the first still runs. Who runs is decided by an append with the expected
 * revision, so it holds across requests racing in any number of processes.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Idempotency');

  constructor(
    private readonly runner: CommandRunner,
    private readonly reflector: Reflector,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const request = context.switchToHttp().getRequest<FastifyRequest & AuthenticatedRequest & RawBodyRequest>();
    const key = request.headers['idempotency-key'];
    if (key === undefined) return next.handle();
    if (typeof key !== 'string' || !KEY.test(key)) throw new ValidationFailed({ 'Idempotency-Key': [KEY_FORMAT] });
    const stream = idempotencyStream(request.user!.id, sha256(key));
    const fingerprint = sha256(`${request.method} ${request.url}\n${request.rawBody ?? ''}`);
    const repeated = await this.begin(stream, fingerprint);
    if (repeated) {
      context.switchToHttp().getResponse<FastifyReply>().header('Idempotent-Replayed', 'true');
      // The same route answers with the same status on success; a refusal is answered as stored.
      if (repeated.status >= 400) throw new HttpException(repeated.body as Record<string, unknown>, repeated.status);
      return of(repeated.body);
    }
    const status = this.reflector.get<number | undefined>(HTTP_CODE_METADATA, context.getHandler()) ?? 201;
    return next.handle().pipe(
      mergeMap((body) => from(this.finish(stream, { type: 'Answer', status, body: JSON.parse(JSON.stringify(body)) }).then(() => body))),
      catchError((error: unknown) => {
        const answer = errorAnswer(error);
        // A server error may be retried: the key is freed. A write saved but not yet readable
        // is not repeatable either way, so its key stays running until it is deemed abandoned.
        const outcome: IdempotencyCommand | null =
          error instanceof ReadModelBehind ? null : answer.status >= 500 ? { type: 'Abandon' } : { type: 'Answer', status: answer.status, body: answer.body };
        return from(outcome ? this.finish(stream, outcome) : Promise.resolve()).pipe(mergeMap(() => throwError(() => error)));
      }),
    );
  }

  /** Starts the request under its key; the answer to repeat when it ran already. */
  private async begin(stream: string, fingerprint: string): Promise<{ status: number; body: unknown } | null> {
    for (;;) {
      try {
        const { events, state } = await this.runner.run(stream, idempotencyDecider, { type: 'Begin', fingerprint }, { retries: 0 });
        if (events.length) return null;
        if (state.status === 'answered') return state.answer;
      } catch (error) {
        if (!(error instanceof ConcurrencyError)) throw error;
      }
    }
  }

  /** Stores how the request ended. The request's own write stands either way: a failure here is logged, not answered. */
  private async finish(stream: string, command: IdempotencyCommand): Promise<void> {
    try {
      await this.runner.run(stream, idempotencyDecider, command, { retries: 3 });
    } catch (error) {
      this.logger.error(`${stream}: the request's end could not be stored: ${(error as Error).message}`);
    }
  }
}

/** Marks a create route as accepting `Idempotency-Key`. */
export const Idempotent = () => applyDecorators(UseInterceptors(IdempotencyInterceptor));
