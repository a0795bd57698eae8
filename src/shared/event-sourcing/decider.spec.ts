import { DomainEvent, eventTypes } from './decider';

type Opened = DomainEvent<'Opened', { id: number }>;
type Closed = DomainEvent<'Closed', { id: number }>;
type DoorEvent = Opened | Closed;

describe('eventTypes', () => {
  it('lists every type of the union the record names', () => {
    expect(eventTypes<DoorEvent>({ Opened: true, Closed: true })).toEqual(['Opened', 'Closed']);
  });

  // `npm test` type-checks the specs first (`pretest`): each line below must fail to compile.
  it('is refused by the compiler when the record leaves a type out or names one the union lacks', () => {
    // @ts-expect-error Closed is left out
    eventTypes<DoorEvent>({ Opened: true });
    // @ts-expect-error Slammed is not a DoorEvent
    eventTypes<DoorEvent>({ Opened: true, Closed: true, Slammed: true });
  });
});
