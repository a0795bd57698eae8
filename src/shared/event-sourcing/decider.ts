/**
 * A domain event as deciders see it: a past-tense type and its typed payload.
 * The schema version is the version of `data`'s shape (see upcasters).
 */
export interface DomainEvent<Type extends string = string, Data = unknown> {
  type: Type;
  data: Data;
  schemaVersion?: number;
}

/**
 * A pure decider: `decide` turns a command and the current state into new events (or
 * throws a DomainError), `evolve` folds one event into the state. Time is passed in.
 * The same `evolve` rebuilds state for commands, for audit replay and for `as_of`.
 */
export interface Decider<Command, State, Event extends DomainEvent> {
  initialState: State;
  decide(command: Command, state: State, now: Date): Event[];
  evolve(state: State, event: Event): State;
}

export function fold<State, Event extends DomainEvent>(
  decider: Pick<Decider<unknown, State, Event>, 'initialState' | 'evolve'>,
  events: Iterable<Event>,
): State {
  let state = decider.initialState;
  for (const event of events) state = decider.evolve(state, event);
  return state;
}

/**
 * Every type of an event union, as a list: written as a record of them all, so the compiler
 * refuses a list that leaves one out (or names one the union does not have).
 */
export function eventTypes<Event extends DomainEvent>(all: Record<Event['type'], true>): readonly Event['type'][] {
  return Object.keys(all) as Event['type'][];
}
