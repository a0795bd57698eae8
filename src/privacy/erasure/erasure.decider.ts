import { Decider } from '../../shared/event-sourcing/decider';
import { SubjectErased } from '../../shared/sealing/subject-erased.event';
import { ErasureEvent, SubjectHoldingsFound } from './erasure.events';

export type ErasureCommand =
  | { type: 'RequestErasure'; erasureId: number; organisationId: number; phoneNumber: string }
  | ({ type: 'RecordHoldings' } & SubjectHoldingsFound['data'])
  | { type: 'CompleteErasure'; requestedBy: SubjectErased['data']['requested_by'] }
  | { type: 'FinishErasure' };

export interface ErasureState {
  requested: boolean;
  holdings: SubjectHoldingsFound['data'] | null;
  /** The key is destroyed and SubjectErased recorded. */
  erased: boolean;
  done: boolean;
}

/** docs/privacy.md: requested, its holdings found, erased, then finished once the read models are; each step once. */
export const erasureDecider: Decider<ErasureCommand, ErasureState, ErasureEvent> = {
  initialState: { requested: false, holdings: null, erased: false, done: false },

  decide(command, state, now) {
    switch (command.type) {
      case 'RequestErasure':
        if (state.requested) return [];
        return [
          {
            type: 'SubjectErasureRequested',
            data: { erasure_id: command.erasureId, user_id: command.organisationId, phone_number: command.phoneNumber, requested_at: now.toISOString() },
          },
        ];
      case 'RecordHoldings': {
        if (!state.requested || state.holdings) return [];
        const { type: _type, ...holdings } = command;
        return [{ type: 'SubjectHoldingsFound', data: holdings }];
      }
      case 'CompleteErasure': {
        if (!state.holdings || state.erased) return [];
        const erased: SubjectErased = {
          type: 'SubjectErased',
          data: { ...state.holdings, requested_by: command.requestedBy, completed_at: now.toISOString() },
        };
        return [erased];
      }
      case 'FinishErasure':
        if (!state.erased || state.done) return [];
        return [{ type: 'SubjectErasureFinished', data: { erasure_id: state.holdings!.erasure_id, finished_at: now.toISOString() } }];
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'SubjectErasureRequested':
        return { ...state, requested: true };
      case 'SubjectHoldingsFound':
        return { ...state, holdings: event.data };
      case 'SubjectErased':
        return { ...state, erased: true };
      case 'SubjectErasureFinished':
        return { ...state, done: true };
    }
  },
};
