import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { DomainError, DomainErrorKind } from '../../shared/domain-error';

const STATUS_OF: Record<DomainErrorKind, number> = { not_found: 404, validation: 422, conflict: 409, forbidden: 403 };

/** Messages for statuses raised by the framework rather than by our code. */
const FRAMEWORK_MESSAGES: Record<number, string> = {
  400: 'Malformed JSON body.',
  401: 'Unauthenticated.',
  404: 'Not found.',
  405: 'Method not allowed.',
  413: 'Payload too large.',
  415: 'Content-Type header must be application/json.',
  429: 'Too Many Attempts.',
};

/**
 * Every error leaves as JSON with a `message`: domain refusals, validation failures,
 * framework errors (unknown routes, unparsable or oversized bodies) and, for anything
 * unexpected, a bare "Server Error" with the details only in the log.
 */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpError');

  catch(error: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const { status, body } = errorAnswer(error);
    if (status >= 500) this.logger.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    reply.status(status).header('content-type', 'application/json; charset=utf-8').send(body);
  }
}

function isFrameworkResponse(response: unknown): boolean {
  return typeof response === 'object' && response !== null && 'statusCode' in response;
}

/** The status and JSON body an error is answered with. */
export function errorAnswer(error: unknown): { status: number; body: Record<string, unknown> } {
  if (error instanceof DomainError) {
    return {
      status: STATUS_OF[error.kind],
      body: { message: error.message, ...(error.errors ? { errors: error.errors } : {}), ...error.extra },
    };
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    const response = error.getResponse();
    // Nest's own exceptions answer `{statusCode, message, error}`, and Fastify's errors reach
    // us wrapped with a plain string: both get the wording docs/api.md gives their status.
    if (FRAMEWORK_MESSAGES[status] && (typeof response === 'string' || isFrameworkResponse(response))) {
      return { status, body: { message: FRAMEWORK_MESSAGES[status] } };
    }
    if (typeof response === 'object' && response !== null && typeof (response as { message?: unknown }).message === 'string') {
      return { status, body: response as Record<string, unknown> };
    }
    return { status, body: { message: status >= 500 ? 'Server Error' : 'Bad request.' } };
  }
  // Errors raised by Fastify itself (body parsing, size limits) carry a statusCode.
  const statusCode = (error as { statusCode?: unknown })?.statusCode;
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
    return { status: statusCode, body: { message: FRAMEWORK_MESSAGES[statusCode] ?? 'Bad request.' } };
  }
  return { status: 500, body: { message: 'Server Error' } };
}
