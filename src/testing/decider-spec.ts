import { Decider, DomainEvent, fold } from '../infrastructure/event-sourcing/decider';

/**
 * Given-when-then for a pure decider: `given(events).when(command, now).then(events)` or
 * `.thenThrows(ErrorType | predicate)`.
 */
export function deciderSpec<Command, State, Event extends DomainEvent>(decider: Decider<Command, State, Event>) {
  return {
    given: (events: Event[]) => ({
      when: (command: Command, now = new Date('2025-03-01T10:00:00Z')) => {
        const decide = () => decider.decide(command, fold(decider, events), now);
        return {
          then: (expected: Event[]) => expect(decide()).toEqual(expected),
          thenThrows: (expected: (new (...args: never[]) => Error) | ((error: unknown) => boolean)) => {
            let thrown: unknown;
            try {
              decide();
            } catch (error) {
              thrown = error;
            }
            expect(thrown).toBeDefined();
            if (expected.prototype instanceof Error || expected === Error) expect(thrown).toBeInstanceOf(expected);
            else expect((expected as (error: unknown) => boolean)(thrown)).toBe(true);
          },
        };
      },
    }),
  };
}
