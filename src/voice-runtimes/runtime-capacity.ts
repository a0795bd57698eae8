import { RuntimeCap } from './configured-runtime';

/** The configured runtime's cap on calls in flight (across campaigns and instances), for the dialer and the forecast. */
export class RuntimeCapacity {
  constructor(readonly cap: RuntimeCap | null) {}
}
