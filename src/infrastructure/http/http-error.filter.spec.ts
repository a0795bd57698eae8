import { ArgumentsHost, BadRequestException, HttpException, Logger, NotFoundException } from '@nestjs/common';
import { DomainError } from '../../shared/domain-error';
import { ValidationFailed } from '../../shared/validation/validation.pipe';
import { HttpErrorFilter } from './http-error.filter';

function answer(error: unknown) {
  const sent: { status?: number; body?: unknown } = {};
  const reply = {
    status(code: number) {
      sent.status = code;
      return reply;
    },
    header: () => reply,
    send(body: unknown) {
      sent.body = body;
    },
  };
  const host = { switchToHttp: () => ({ getResponse: () => reply }) } as unknown as ArgumentsHost;
  new HttpErrorFilter().catch(error, host);
  return sent;
}

describe('HttpErrorFilter', () => {
  beforeAll(() => jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined));

  it('hides an unexpected error behind Server Error, with no stack or path', () => {
    const sent = answer(new TypeError("Cannot read properties of undefined (reading 'x') at /work/src/a.ts:1"));
    expect(sent).toEqual({ status: 500, body: { message: 'Server Error' } });
  });

  it('maps domain refusals to their status with message, errors and extra fields', () => {
    expect(answer(DomainError.notFound('Lead'))).toEqual({ status: 404, body: { message: 'Lead not found' } });
    expect(answer(DomainError.notFound('Campaign', { success: false }))).toEqual({ status: 404, body: { message: 'Campaign not found', success: false } });
    expect(answer(DomainError.validation('status', 'bad'))).toEqual({ status: 422, body: { message: 'Validation failed', errors: { status: ['bad'] } } });
    expect(answer(new DomainError('conflict', 'Invalid call status transition.'))).toEqual({
      status: 409,
      body: { message: 'Invalid call status transition.' },
    });
  });

  it("passes our own HTTP answers through and words the framework's own", () => {
    expect(answer(new ValidationFailed({ a: ['x'] }))).toEqual({ status: 422, body: { message: 'Validation failed', errors: { a: ['x'] } } });
    expect(answer(new HttpException({ message: 'Assistant creation failed' }, 500))).toEqual({ status: 500, body: { message: 'Assistant creation failed' } });
    expect(answer(new NotFoundException('Cannot GET /x'))).toEqual({ status: 404, body: { message: 'Not found.' } });
    expect(answer(new BadRequestException())).toEqual({ status: 400, body: { message: 'Malformed JSON body.' } });
    expect(answer(new HttpException('Request body is too large', 413))).toEqual({ status: 413, body: { message: 'Payload too large.' } });
  });

  it('words raw client errors from the HTTP layer by their status', () => {
    expect(answer(Object.assign(new Error('Unsupported Media Type'), { statusCode: 415 }))).toEqual({
      status: 415,
      body: { message: 'Content-Type header must be application/json.' },
    });
  });
});
