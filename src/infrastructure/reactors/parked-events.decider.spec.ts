import { fold } from '../../shared/event-sourcing/decider';
import { deciderSpec } from '../../testing/decider-spec';
import { ParkedEvent, parkedEventsDecider } from './parked-events.decider';

const { given } = deciderSpec(parkedEventsDecider);
const at = new Date('2025-03-01T10:00:00.000Z');
const later = new Date('2025-03-01T10:00:02.000Z');
const parked = (position: number, partition = 'campaign-1'): ParkedEvent => ({
  type: 'ReactorEventParked',
  data: { position, partition, error: 'boom', retry_at: at.toISOString() },
});

describe('parked events decider', () => {
  it('parks an event once, behind the others of its partition', () => {
    given([])
      .when({ type: 'Park', position: 5, partition: 'campaign-1', error: 'boom', retryAt: at })
      .then([parked(5)]);
    given([parked(5)])
      .when({ type: 'Park', position: 5, partition: 'campaign-1', error: 'again', retryAt: at })
      .then([]);
    expect(fold(parkedEventsDecider, [parked(5), parked(9), parked(7, 'campaign-2')]).partitions).toEqual({
      'campaign-1': [
        { position: 5, attempts: 1, retryAt: at.toISOString() },
        { position: 9, attempts: 1, retryAt: at.toISOString() },
      ],
      'campaign-2': [{ position: 7, attempts: 1, retryAt: at.toISOString() }],
    });
  });

  it('counts failed retries and drops a partition once its last event recovered', () => {
    given([parked(5)])
      .when({ type: 'RecordRetryFailure', position: 5, error: 'still', retryAt: later })
      .then([{ type: 'ReactorEventRetryFailed', data: { position: 5, error: 'still', attempts: 2, retry_at: later.toISOString() } }]);
    given([parked(5)])
      .when({ type: 'Recover', position: 5 })
      .then([{ type: 'ReactorEventRecovered', data: { position: 5 } }]);
    given([]).when({ type: 'Recover', position: 5 }).then([]);
    expect(fold(parkedEventsDecider, [parked(5), { type: 'ReactorEventRecovered', data: { position: 5 } }]).partitions).toEqual({});
  });
});
