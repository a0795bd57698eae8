import { DomainEvent } from '../event-sourcing/decider';
import { RetainedKind, declareFields } from '../event-sourcing/event-fields';

/**
 * docs/privacy.md: an organisation's retained values of a kind written from `from` until `until`
 * fell due: their keys are destroyed (the log reads `[erased]` there already), and each read model
 * holding such values puts `[erased]` in their place.
 */
export type RetainedValuesErased = DomainEvent<'RetainedValuesErased', { user_id: number; kind: RetainedKind; from: string; until: string }>;

export const RETAINED_VALUES_ERASED_TYPES = declareFields<RetainedValuesErased>({
  RetainedValuesErased: { user_id: 'plain', kind: 'plain', from: 'plain', until: 'plain' },
});
