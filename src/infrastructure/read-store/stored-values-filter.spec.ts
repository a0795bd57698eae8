import fc from 'fast-check';
import { Scalar } from './document-store.port';
import { LOAD_CHUNK, SMALLEST_CAPACITY, StoredValuesFilter } from './stored-values-filter';

type Bind = string | number | null;
const bind = (value: Scalar): Bind => (typeof value === 'boolean' ? (value ? 1 : 0) : value);

/** A table's rows by rowid, each its indexed columns: campaign, deleted, number, status. */
const COLUMNS = ['campaign_id', 'deleted', 'phone_number', 'status'];
const SET = ['campaign_id', 'deleted', 'phone_number'];

function harness(rows: Bind[][] = [], mayFill: () => boolean = () => true) {
  const table = new Map<number, Bind[]>(rows.map((row, i) => [i + 1, row]));
  const reads: number[] = [];
  let failing = false;
  const source = {
    rowsAtMost: () => Math.max(0, ...table.keys()),
    rowsAfter: (rowid: number, places: number[], limit: number) => {
      if (failing) throw new Error('the file is closed');
      reads.push(rowid);
      return [...table.entries()]
        .filter(([id]) => id > rowid)
        .sort(([a], [b]) => a - b)
        .slice(0, limit)
        .map(([id, row]) => [id, ...places.map((i) => row[i])]);
    },
  };
  let listener = () => {};
  let looks = 0;
  const commits = { onCommit: (l: () => void) => (listener = l), lookIfDue: () => looks++ };
  const steps: Array<() => void> = [];
  const filter = new StoredValuesFilter([SET], COLUMNS, bind, source, commits, mayFill, (step) => steps.push(step));
  /** Writes a row as the store does: the table, then the filter told of its columns before and after. */
  const write = (rowid: number, row: Bind[]) => {
    const before = table.get(rowid) ?? null;
    table.set(rowid, row);
    filter.change(before, row);
  };
  const runSteps = () => {
    while (steps.length) steps.shift()!();
  };
  return {
    filter,
    table,
    reads,
    write,
    steps,
    runSteps,
    looks: () => looks,
    commitElsewhere: () => listener(),
    fail: () => (failing = true),
  };
}

const lead = (campaign: number, number: string, deleted = false) => ({ campaign_id: campaign, deleted, phone_number: number });

describe('StoredValuesFilter', () => {
  it('given stored rows, then values no row holds are surely absent, values a row holds may match', () => {
    const h = harness([
      [1, 0, '+12125550001', 'new'],
      [2, 0, '+12125550002', 'new'],
    ]);
    expect(h.filter.mayMatch(lead(1, '+12125550001'))).toBe(true);
    expect(h.filter.mayMatch(lead(2, '+12125550001'))).toBe(false);
    expect(h.filter.mayMatch(lead(1, '+12125550001', true))).toBe(false);
    expect(h.filter.mayMatch(lead(3, '+12125550009'))).toBe(false);
    // Filled from the table once, at the first question.
    expect(h.reads).toEqual([Number.MIN_SAFE_INTEGER]);
  });

  it('while writes are on their way to the table, then it starts no fill and cannot tell; once they are in, it fills', () => {
    let allCommitted = false;
    const h = harness([[1, 0, '+12125550001', 'new']], () => allCommitted);
    expect(h.filter.mayMatch(lead(1, '+12125550009'))).toBeNull();
    expect(h.reads).toEqual([]);
    allCommitted = true;
    expect(h.filter.mayMatch(lead(1, '+12125550009'))).toBe(false);
    expect(h.reads).toEqual([Number.MIN_SAFE_INTEGER]);
  });

  it('cannot tell for a filter other than a declared set, or with a range', () => {
    const h = harness([[1, 0, '+12125550001', 'new']]);
    expect(h.filter.mayMatch({ campaign_id: 1, deleted: false })).toBeNull();
    expect(h.filter.mayMatch({ ...lead(1, '+1'), status: 'new' })).toBeNull();
    expect(h.filter.mayMatch({ ...lead(1, '+1'), campaign_id: { gte: 1 } })).toBeNull();
    // Undefined conditions are no conditions, as in every filter.
    expect(h.filter.mayMatch({ ...lead(1, '+12125550009'), status: undefined })).toBe(false);
  });

  it('when a row is written, then its new values may match at once, and the values it left still may', () => {
    const h = harness([[1, 0, '+12125550001', 'new']]);
    expect(h.filter.mayMatch(lead(1, '+12125550002'))).toBe(false);
    h.write(1, [1, 0, '+12125550002', 'new']);
    h.write(2, [4, 0, '+12125550003', 'new']);
    expect(h.filter.mayMatch(lead(1, '+12125550002'))).toBe(true);
    expect(h.filter.mayMatch(lead(4, '+12125550003'))).toBe(true);
    // A Bloom filter forgets nothing: the count reads the file, which answers none.
    expect(h.filter.mayMatch(lead(1, '+12125550001'))).toBe(true);
  });

  it('is filled a chunk a turn, answering nothing until full, and takes in what is written meanwhile', () => {
    const rows = Array.from({ length: LOAD_CHUNK * 2 + 10 }, (_, i) => [1, 0, `+1212${String(i).padStart(7, '0')}`, 'new'] as Bind[]);
    const h = harness(rows);
    expect(h.filter.mayMatch(lead(1, '+19999999999'))).toBeNull();
    // A row already read changes, and a row not yet read is added.
    h.write(1, [1, 0, '+13100000001', 'new']);
    h.write(rows.length + 1, [2, 0, '+13100000002', 'new']);
    h.runSteps();
    expect(h.reads).toHaveLength(3);
    expect(h.filter.mayMatch(lead(1, '+19999999999'))).toBe(false);
    expect(h.filter.mayMatch(lead(1, '+13100000001'))).toBe(true);
    expect(h.filter.mayMatch(lead(2, '+13100000002'))).toBe(true);
    expect(rows.every(([, , number]) => h.filter.mayMatch(lead(1, number as string)))).toBe(true);
  });

  it('when another connection commits, then it drops what it had and is filled again from the table when next asked', () => {
    const h = harness([[1, 0, '+12125550001', 'new']]);
    expect(h.filter.mayMatch(lead(1, '+12125550002'))).toBe(false);
    expect(h.looks()).toBe(1);
    // Another process's row: this filter was not told of it.
    h.table.set(2, [1, 0, '+12125550002', 'new']);
    h.commitElsewhere();
    expect(h.filter.mayMatch(lead(1, '+12125550002'))).toBe(true);
    expect(h.reads).toHaveLength(2);
  });

  it('when a fill is under way and the filter is dropped, then the old fill stops', () => {
    const rows = Array.from({ length: LOAD_CHUNK + 1 }, (_, i) => [1, 0, `+1212${i}`, 'new'] as Bind[]);
    const h = harness(rows);
    expect(h.filter.mayMatch(lead(1, '+1'))).toBeNull();
    h.filter.reset();
    h.runSteps();
    expect(h.reads).toHaveLength(1);
    expect(h.filter.mayMatch(lead(1, '+1'))).toBeNull();
  });

  it('when it holds more values than it was sized for, then it is made again from the table, sized for the rows', () => {
    const h = harness();
    expect(h.filter.mayMatch(lead(1, '+1'))).toBe(false);
    // One row whose number changes again and again: every number it held stays in the filter.
    for (let i = 0; i <= SMALLEST_CAPACITY; i++) h.write(1, [1, 0, `+1${i}`, 'new']);
    expect(h.reads).toHaveLength(1);
    expect(h.filter.mayMatch(lead(1, '+10'))).toBe(false);
    expect(h.reads).toHaveLength(2);
    expect(h.filter.mayMatch(lead(1, `+1${SMALLEST_CAPACITY}`))).toBe(true);
  });

  it('refuses a set naming a field that is not indexed, whose values no column holds', () => {
    const commits = { onCommit: () => undefined, lookIfDue: () => undefined };
    const source = { rowsAtMost: () => 0, rowsAfter: () => [] };
    expect(() => new StoredValuesFilter([['campaign_id', 'email']], COLUMNS, bind, source, commits)).toThrow(
      'The fields of a mostly absent set must be indexed: campaign_id, email',
    );
  });

  it('when the table cannot be read, then it cannot tell', () => {
    const h = harness([[1, 0, '+12125550001', 'new']]);
    h.fail();
    expect(h.filter.mayMatch(lead(1, '+12125550002'))).toBeNull();
    expect(h.filter.mayMatch(lead(1, '+12125550002'))).toBeNull();
  });

  it('given any rows and writes, then it never calls absent the values a stored row holds, and calls absent most others', () => {
    const row = fc.tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 1 }), fc.integer({ min: 0, max: 50 }).map(String), fc.constant('new'));
    fc.assert(
      fc.property(fc.array(row, { maxLength: 30 }), fc.array(fc.tuple(fc.integer({ min: 1, max: 40 }), row), { maxLength: 60 }), fc.integer({ min: 0, max: 60 }), (rows, writes, askAt) => {
        const h = harness(rows);
        writes.forEach(([rowid, values], i) => {
          if (i === askAt) h.filter.mayMatch(lead(1, 'x'));
          h.write(rowid, values);
        });
        for (const [campaign, deleted, number] of h.table.values()) {
          expect(h.filter.mayMatch({ campaign_id: campaign, deleted: deleted === 1, phone_number: number })).toBe(true);
        }
        expect(h.filter.mayMatch(lead(1, 'never stored'))).toBe(false);
      }),
    );
  });
});
