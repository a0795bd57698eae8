import { SystemClock } from '../shared/clock';
import { AppConfig } from '../infrastructure/config/app-config';
import { ServiceInstances } from '../infrastructure/instances/service-instances';
import { WorkLeases } from '../infrastructure/leases/work-leases';
import { DocumentStore } from '../shared/ports/document-store.port';

/** The leases of an instance on `store`, which sees the other instances that beat there (none in a unit spec). */
export function workLeasesOn(store: DocumentStore, ttlMs = 10_000): WorkLeases {
  return new WorkLeases(store, new ServiceInstances(store, false, new SystemClock()), { workLeaseTtlMs: ttlMs } as AppConfig);
}
