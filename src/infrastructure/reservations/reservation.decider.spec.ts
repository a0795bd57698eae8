import { deciderSpec } from '../../testing/decider-spec';
import { HoldersChanged, NoPlaceLeft, ReservationEvent, reservationDecider } from './reservation.decider';

const { given } = deciderSpec(reservationDecider);
const now = new Date('2025-03-01T10:00:00Z');
const taken = (holder: number, at = '2025-03-01T09:00:00.000Z'): ReservationEvent => ({ type: 'ReservationTaken', data: { holder, at } });
const released = (holder: number): ReservationEvent => ({ type: 'ReservationReleased', data: { holder } });
const reserve = (holder: number, capacity: number, statuses: Array<[number, 'live' | 'gone' | 'absent']> = []) => ({
  type: 'Reserve' as const,
  holder,
  capacity,
  statuses: new Map(statuses),
});

describe('reservation decider', () => {
  it('takes a free place', () => given([]).when(reserve(1, 1), now).then([taken(1, now.toISOString())]));

  it('refuses when every place is held by a live holder', () =>
    given([taken(1)]).when(reserve(2, 1, [[1, 'live']]), now).thenThrows(NoPlaceLeft));

  it('frees the places of holders that are gone, in the same append', () =>
    given([taken(1), taken(2)]).when(reserve(3, 2, [[1, 'gone'], [2, 'live']]), now).then([released(1), taken(3, now.toISOString())]));

  it('keeps a place for a holder being created, and frees it once the creation is overdue', () => {
    given([taken(1, '2025-03-01T09:59:30.000Z')]).when(reserve(2, 1, [[1, 'absent']]), now).thenThrows(NoPlaceLeft);
    given([taken(1, '2025-03-01T09:58:00.000Z')]).when(reserve(2, 1, [[1, 'absent']]), now).then([released(1), taken(2, now.toISOString())]);
  });

  it('asks to read the holders again when one appeared since they were read', () =>
    given([taken(1), taken(2)]).when(reserve(3, 5, [[1, 'live']]), now).thenThrows(HoldersChanged));

  it('counts places up to the capacity', () =>
    given([taken(1), taken(2)]).when(reserve(3, 3, [[1, 'live'], [2, 'live']]), now).then([taken(3, now.toISOString())]));

  it('registers without judging the others', () => {
    given([taken(1)]).when({ type: 'Register', holder: 2 }, now).then([taken(2, now.toISOString())]);
    given([taken(1)]).when({ type: 'Register', holder: 1 }, now).then([]);
  });

  it('a holder already in place reserves nothing again', () => given([taken(1)]).when(reserve(1, 1, [[1, 'live']]), now).then([]));
});

describe('reservation decider: seeding', () => {
  it('opens an empty stream with the holders of older data, once', () => {
    given([]).when({ type: 'Seed', holders: [4, 5] }, now).then([taken(4, now.toISOString()), taken(5, now.toISOString())]);
    given([taken(4)]).when({ type: 'Seed', holders: [4, 5] }, now).then([]);
  });
});
