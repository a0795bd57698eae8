import { RecordedEvent } from './event-store.port';
import { RecentEvents } from './recent-events';

const event = (position: number, type = 'Tick'): RecordedEvent => ({
  id: `e${position}`,
  stream: 'tick-1',
  revision: position,
  position,
  type,
  schemaVersion: 1,
  data: { position, nested: { list: [position] } },
  metadata: { occurred_at: '2026-01-01T00:00:00.000Z' },
  occurredAt: '2026-01-01T00:00:00.000Z',
});
const positions = (events: RecordedEvent[] | null) => events && events.map((e) => e.position);
const head = (position: number) => () => position;

describe('recent events', () => {
  it('answers from the events it kept when they reach from the asked position to the stored head', () => {
    const recent = new RecentEvents();
    recent.remember([event(10), event(11), event(12)]);
    expect(positions(recent.read(9, 100, undefined, head(12)))).toEqual([10, 11, 12]);
    expect(positions(recent.read(11, 100, undefined, head(12)))).toEqual([12]);
    expect(positions(recent.read(12, 100, undefined, head(12)))).toEqual([]);
  });

  it('leaves reads from before its first event to the store', () => {
    const recent = new RecentEvents();
    recent.remember([event(10), event(11)]);
    expect(recent.read(8, 100, undefined, head(11))).toBeNull();
  });

  it('leaves reads to the store when another writer has appended past its last event', () => {
    const recent = new RecentEvents();
    recent.remember([event(10), event(11)]);
    expect(recent.read(10, 100, undefined, head(13))).toBeNull();
  });

  it('asks for the stored head only when its events could answer', () => {
    const recent = new RecentEvents();
    const storedHead = jest.fn(() => 2);
    expect(recent.read(0, 100, undefined, storedHead)).toBeNull();
    recent.remember([event(5)]);
    expect(recent.read(0, 100, undefined, storedHead)).toBeNull();
    expect(storedHead).not.toHaveBeenCalled();
  });

  it('starts over after a gap, so what it answers never skips another writer’s events', () => {
    const recent = new RecentEvents();
    recent.remember([event(10), event(11)]);
    recent.remember([event(14), event(15)]);
    expect(recent.read(11, 100, undefined, head(15))).toBeNull();
    expect(positions(recent.read(13, 100, undefined, head(15)))).toEqual([14, 15]);
  });

  it('hands over only the asked types, at most maxCount of them, in order', () => {
    const recent = new RecentEvents();
    recent.remember([event(1, 'A'), event(2, 'B'), event(3, 'A'), event(4, 'C'), event(5, 'A')]);
    expect(positions(recent.read(0, 2, ['A', 'C'], head(5)))).toEqual([1, 3]);
    expect(positions(recent.read(3, 10, ['A', 'C'], head(5)))).toEqual([4, 5]);
    expect(positions(recent.read(0, 10, [], head(5)))).toEqual([]);
  });

  it('keeps the newest events within its capacity', () => {
    const recent = new RecentEvents(4);
    recent.remember(Array.from({ length: 20 }, (_, i) => event(i + 1)));
    expect(recent.read(10, 100, undefined, head(20))).toBeNull();
    expect(positions(recent.read(16, 100, undefined, head(20)))).toEqual([17, 18, 19, 20]);
  });

  it('hands out frozen events, so no reader can change what the next one reads', () => {
    const recent = new RecentEvents();
    recent.remember([event(1)]);
    const [read] = recent.read(0, 1, undefined, head(1))!;
    expect(() => {
      (read.data as { nested: { list: number[] } }).nested.list.push(2);
    }).toThrow(TypeError);
    expect(recent.read(0, 1, undefined, head(1))![0].data).toEqual({ position: 1, nested: { list: [1] } });
  });
});
