import { Decider } from '../shared/event-sourcing/decider';
import { DomainError } from '../shared/domain-error';
import { DoNotCallEvent, ListingSource } from './do-not-call.events';

/**
 * One number of one user's do-not-call list, in a stream of its own (docs/imports.md: a list of
 * millions costs each add, each removal and each check the same as the first). `listedBefore`:
 * whether the list showed the number before it had a stream (a store from before them); the
 * stream's own events decide from its first on.
 */
export type DoNotCallCommand =
  | { type: 'AddToDoNotCall'; organisationId: number; phoneNumber: string; reason: string | null; source: ListingSource; listedBefore: boolean }
  | { type: 'RemoveFromDoNotCall'; organisationId: number; phoneNumber: string; listedBefore: boolean };

export interface DoNotCallState {
  /** Whether the stream has any event; until then the list's answer stands. */
  known: boolean;
  listed: boolean;
  /** Listed when its person was erased (docs/privacy.md): it stays listed. */
  erased?: boolean;
}

export const ERASED_STAYS = 'This number was erased at its owner’s request: it stays on the do-not-call list.';

export const doNotCallDecider: Decider<DoNotCallCommand, DoNotCallState, DoNotCallEvent> = {
  initialState: { known: false, listed: false },

  decide(command, state) {
    const listed = state.known ? state.listed : command.listedBefore;
    switch (command.type) {
      case 'AddToDoNotCall':
        // Listed already: listed again only to say its person was erased.
        if (listed && (command.source !== 'erasure' || state.erased)) return [];
        return [
          {
            type: 'NumbersAddedToDoNotCall',
            data: { user_id: command.organisationId, phone_numbers: [command.phoneNumber], reason: command.reason, source: command.source },
          },
        ];
      case 'RemoveFromDoNotCall':
        if (!listed) throw DomainError.notFound('Number');
        if (state.erased) throw new DomainError('conflict', ERASED_STAYS);
        return [{ type: 'NumberRemovedFromDoNotCall', data: { user_id: command.organisationId, phone_number: command.phoneNumber } }];
    }
  },

  evolve(state, event) {
    if (event.type === 'NumbersAddedToDoNotCall') return { known: true, listed: true, erased: state.erased || event.data.source === 'erasure' };
    return { known: true, listed: false };
  },
};
