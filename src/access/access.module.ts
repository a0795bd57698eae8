import { Global, Module } from '@nestjs/common';
import { ServiceInstances } from '../infrastructure/instances/service-instances';
import { DocumentStore, READ_STORE } from '../shared/ports/document-store.port';
import { SharedRateLimitStorage } from './shared-rate-limit-storage';

/** Who may call: bearer tokens, roles and scopes, and the per-token rate limit shared by every instance. */
@Global()
@Module({
  providers: [
    {
      provide: SharedRateLimitStorage,
      inject: [READ_STORE, ServiceInstances],
      useFactory: (store: DocumentStore, instances: ServiceInstances) => new SharedRateLimitStorage(store, instances),
    },
  ],
  exports: [SharedRateLimitStorage],
})
export class AccessModule {}
