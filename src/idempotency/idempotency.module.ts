import { Global, Module } from '@nestjs/common';
import { IdempotentRequests } from './idempotent-requests';

/** `Idempotency-Key` on creates: a retry is answered with the first answer and writes nothing (docs/api.md). */
@Global()
@Module({ providers: [IdempotentRequests], exports: [IdempotentRequests] })
export class IdempotencyModule {}
