import { EventRow } from './sqlite-event-row';
import { SqliteRecentEvents } from './sqlite-recent-events';

const row = (position: number, type = 'Tick', data = '{}'): EventRow => [
  position,
  `id-${position}`,
  `s-${position}`,
  0,
  type,
  1,
  data,
  '{}',
  '2026-12-02T00:00:00.000Z',
];
const rows = (from: number, to: number, type?: string) => Array.from({ length: to - from + 1 }, (_, i) => row(from + i, type));
const positions = (found: EventRow[] | null) => found && found.map(([position]) => position);

describe('SqliteRecentEvents', () => {
  it('answers the rows after a position, of the asked types, up to the count, while the commit counter stands', () => {
    const recent = new SqliteRecentEvents();
    recent.committed([...rows(10, 12, 'A'), ...rows(13, 14, 'B')], 7);
    expect(positions(recent.after(9, 100, undefined, 7))).toEqual([10, 11, 12, 13, 14]);
    expect(positions(recent.after(11, 100, new Set(['B']), 7))).toEqual([13, 14]);
    expect(positions(recent.after(10, 2, undefined, 7))).toEqual([11, 12]);
    expect(positions(recent.after(14, 100, undefined, 7))).toEqual([]);
    expect(recent.head(7)).toBe(14);
  });

  it('answers nothing once another connection has committed (the counter moved), nor before its first row', () => {
    const recent = new SqliteRecentEvents();
    recent.committed(rows(10, 12), 7);
    expect(recent.after(9, 100, undefined, 8)).toBeNull();
    expect(recent.head(8)).toBeNull();
    expect(recent.after(8, 100, undefined, 7)).toBeNull();
  });

  it('keeps what it holds when its next commit follows on; starts again from a commit after rows it never saw', () => {
    const recent = new SqliteRecentEvents();
    recent.committed(rows(10, 12), 7);
    // Another connection committed without appending (a sequence moved): the positions still follow on.
    recent.committed(rows(13, 13), 8);
    expect(positions(recent.after(9, 100, undefined, 8))).toEqual([10, 11, 12, 13]);
    // Another connection appended 14 and 15.
    recent.committed(rows(16, 17), 9);
    expect(recent.after(13, 100, undefined, 9)).toBeNull();
    expect(positions(recent.after(15, 100, undefined, 9))).toEqual([16, 17]);
  });

  it('forgets everything on a commit of no rows made after another connection committed, and on rows out of order', () => {
    const recent = new SqliteRecentEvents();
    recent.committed(rows(10, 12), 7);
    recent.committed([], 7);
    expect(recent.head(7)).toBe(12);
    recent.committed([], 8);
    expect(recent.head(8)).toBeNull();
    recent.committed([row(20), row(22)], 9);
    expect(recent.head(9)).toBeNull();
  });

  it('keeps the newest rows within its count and weight: older positions are read from the file', () => {
    const recent = new SqliteRecentEvents(3, 1000);
    recent.committed(rows(1, 5), 1);
    expect(recent.after(1, 100, undefined, 1)).toBeNull();
    expect(positions(recent.after(2, 100, undefined, 1))).toEqual([3, 4, 5]);
    recent.committed([row(6, 'Big', 'x'.repeat(900)), row(7, 'Big', 'x'.repeat(900))], 1);
    expect(positions(recent.after(6, 100, undefined, 1))).toEqual([7]);
    expect(recent.after(5, 100, undefined, 1)).toBeNull();
  });
});
