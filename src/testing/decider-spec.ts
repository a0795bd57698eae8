import { Decider, DomainEvent, fold } from '../shared/event-sourcing/decider';
import { refusalOf } from './refusal';

type ErrorMatch = (new (...args: never[]) => Error) | ((error: unknown) => boolean) | string | RegExp;

/**
 * Given-when-then for a pure decider: `given(events).when(command).then(events)`, or
 * `.thenThrows(ErrorType | predicate | message)`. `when` answers the decision itself too, a
 * function to call (`decided()` runs it), for expectations of their own.
 */
export function deciderSpec<Command, State, Event extends DomainEvent>(decider: Decider<Command, State, Event>, defaultNow = new Date('2025-03-01T10:00:00Z')) {
  return {
    given: (events: Event[], givenNow = defaultNow) => ({
      when: (command: Command, now = givenNow) => {
        const decide = () => decider.decide(command, fold(decider, events), now);
        return Object.assign(decide, {
          decided: decide,
          then: (expected: Event[]) => expect(decide()).toEqual(expected),
          thenThrows: (expected: ErrorMatch) => {
            if (typeof expected === 'string' || expected instanceof RegExp) return expect(decide).toThrow(expected);
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
          /** The refusal's message and field errors; fails when the decision was not refused. */
          refusal: () => refusalOf(decide),
        });
      },
    }),
  };
}
