import { deciderSpec } from '../testing/decider-spec';
import { HolderStatus, HoldersChanged, NoPlaceLeft, ReservationEvent, reservationDecider } from './reservation.decider';

const { given } = deciderSpec(reservationDecider);
const now = new Date('2025-03-01T10:00:00Z');
const taken = (holder: number, at = '2025-03-01T09:00:00.000Z'): ReservationEvent => ({ type: 'ReservationTaken', data: { holder, at } });
const takenNow = (holder: number) => taken(holder, now.toISOString());
const released = (holder: number): ReservationEvent => ({ type: 'ReservationReleased', data: { holder } });
const reserve = (holder: number, capacity: number, statuses: Array<[number, HolderStatus]> = [], earlier: number[] = []) => ({
  type: 'Reserve' as const,
  holder,
  capacity,
  statuses: new Map(statuses),
  earlier,
});
const needs = (holders: number[]) => (error: unknown) => error instanceof HoldersChanged && JSON.stringify(error.holders) === JSON.stringify(holders);

describe('reservation decider', () => {
  it('takes a free place', () =>
    given([])
      .when(reserve(1, 1), now)
      .then([takenNow(1)]));

  it('refuses when every place is held by a live holder', () =>
    given([taken(1)])
      .when(reserve(2, 1, [[1, 'live']]), now)
      .thenThrows(NoPlaceLeft));

  it('frees the places of holders that are gone, in the same append', () =>
    given([taken(1), taken(2)])
      .when(
        reserve(3, 2, [
          [1, 'gone'],
          [2, 'live'],
        ]),
        now,
      )
      .then([released(1), takenNow(3)]));

  it('keeps a place for a holder being created, and frees it once the creation is overdue', () => {
    given([taken(1, '2025-03-01T09:59:30.000Z')])
      .when(reserve(2, 1, [[1, 'absent']]), now)
      .thenThrows(NoPlaceLeft);
    given([taken(1, '2025-03-01T09:58:00.000Z')])
      .when(reserve(2, 1, [[1, 'absent']]), now)
      .then([released(1), takenNow(2)]);
  });

  it('asks for the statuses of the holders it has not judged', () =>
    given([taken(1), taken(2)])
      .when(reserve(3, 5, [[1, 'live']]), now)
      .thenThrows(needs([2])));

  it('counts places up to the capacity', () =>
    given([taken(1), taken(2)])
      .when(
        reserve(3, 3, [
          [1, 'live'],
          [2, 'live'],
        ]),
        now,
      )
      .then([takenNow(3)]));

  it('registers without judging the others', () => {
    given([taken(1)])
      .when({ type: 'Register', holder: 2, earlier: [] }, now)
      .then([takenNow(2)]);
    given([taken(1)])
      .when({ type: 'Register', holder: 1, earlier: [] }, now)
      .then([]);
  });

  it('a holder already in place reserves nothing again', () =>
    given([taken(1)])
      .when(reserve(1, 1, [[1, 'live']]), now)
      .then([]));
});

describe('reservation decider: holders older than the stream', () => {
  it('puts them in when the stream is first written, and judges them like the others', () => {
    given([])
      .when(reserve(9, 1, [], [4]), now)
      .thenThrows(needs([4]));
    given([])
      .when(reserve(9, 1, [[4, 'live']], [4]), now)
      .thenThrows(NoPlaceLeft);
    given([])
      .when(reserve(9, 2, [[4, 'live']], [4]), now)
      .then([takenNow(4), takenNow(9)]);
    given([])
      .when(reserve(9, 1, [[4, 'gone']], [4]), now)
      .then([takenNow(4), released(4), takenNow(9)]);
    given([])
      .when({ type: 'Register', holder: 9, earlier: [4, 5] }, now)
      .then([takenNow(4), takenNow(5), takenNow(9)]);
  });

  it('ignores them once the stream was written to, even if every holder left since', () => {
    given([taken(1), released(1)])
      .when(reserve(9, 1, [], [4]), now)
      .then([takenNow(9)]);
    given([taken(1)])
      .when({ type: 'Register', holder: 9, earlier: [4] }, now)
      .then([takenNow(9)]);
  });
});
