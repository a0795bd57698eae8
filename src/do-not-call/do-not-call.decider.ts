import { Decider } from '../infrastructure/event-sourcing/decider';
import { DomainError } from '../shared/domain-error';
import { DoNotCallEvent, ListingSource } from './do-not-call.events';

export type DoNotCallCommand =
  | { type: 'AddToDoNotCall'; userId: number; phoneNumbers: readonly string[]; reason: string | null; source: ListingSource }
  | { type: 'RemoveFromDoNotCall'; userId: number; phoneNumber: string };

export interface DoNotCallState {
  listed: ReadonlySet<string>;
}

export const doNotCallDecider: Decider<DoNotCallCommand, DoNotCallState, DoNotCallEvent> = {
  initialState: { listed: new Set() },

  decide(command, state) {
    switch (command.type) {
      case 'AddToDoNotCall': {
        const added = [...new Set(command.phoneNumbers)].filter((n) => !state.listed.has(n));
        if (!added.length) return [];
        return [{ type: 'NumbersAddedToDoNotCall', data: { user_id: command.userId, phone_numbers: added, reason: command.reason, source: command.source } }];
      }
      case 'RemoveFromDoNotCall':
        if (!state.listed.has(command.phoneNumber)) throw DomainError.notFound('Number');
        return [{ type: 'NumberRemovedFromDoNotCall', data: { user_id: command.userId, phone_number: command.phoneNumber } }];
    }
  },

  evolve(state, event) {
    const listed = new Set(state.listed);
    if (event.type === 'NumbersAddedToDoNotCall') event.data.phone_numbers.forEach((n) => listed.add(n));
    else listed.delete(event.data.phone_number);
    return { listed };
  },
};
