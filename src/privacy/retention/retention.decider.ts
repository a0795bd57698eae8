import { Decider } from '../../shared/event-sourcing/decider';
import { RetainedKind } from '../../shared/event-sourcing/event-fields';
import { RetainedValuesErased } from '../../shared/sealing/retained-values-erased.event';

/** One stream per organisation: how far each kind of its retained values has been erased. */
export const retentionStream = (organisationId: number) => `retention-${organisationId}`;

export type RetentionCommand = { type: 'RecordErased'; organisationId: number; kind: RetainedKind; from: string; until: string };

/** Per kind, the end (ISO) of the values erased so far. */
export type RetentionState = Partial<Record<RetainedKind, string>>;

/** docs/privacy.md: erasures of retained values only move forward, each span once. */
export const retentionDecider: Decider<RetentionCommand, RetentionState, RetainedValuesErased> = {
  initialState: {},

  decide(command, state) {
    const done = state[command.kind];
    if (done !== undefined && done >= command.until) return [];
    return [{ type: 'RetainedValuesErased', data: { user_id: command.organisationId, kind: command.kind, from: done ?? command.from, until: command.until } }];
  },

  evolve(state, event) {
    return { ...state, [event.data.kind]: event.data.until };
  },
};
