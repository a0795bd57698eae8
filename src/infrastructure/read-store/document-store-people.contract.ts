import { Collection, Filter, Scalar } from './document-store.port';

export interface Person {
  id: number;
  name: string;
  age: number | null;
  active: boolean;
  team: { id: number };
  joined: string;
}

export const people: Person[] = [
  { id: 1, name: 'ann', age: 31, active: true, team: { id: 1 }, joined: '2025-01-01 10:00:00' },
  { id: 2, name: 'bob', age: 25, active: false, team: { id: 1 }, joined: '2025-01-02 10:00:00' },
  { id: 3, name: 'cid', age: null, active: true, team: { id: 2 }, joined: '2025-01-03 10:00:00' },
  { id: 4, name: 'dee', age: 40, active: true, team: { id: 2 }, joined: '2025-01-03 23:59:59' },
  { id: 5, name: 'eve', age: 25, active: false, team: { id: 3 }, joined: '2025-01-04 00:00:00' },
];

const field = (p: Person, f: string): Scalar => (f === 'team.id' ? p.team.id : (p as any)[f]);
const entries = (totals: Map<Scalar, number>) => [...totals].sort(([a], [b]) => String(a).localeCompare(String(b)));

/** Each filter's count, and its counts by each other field, next to the same taken by scanning every document. */
export async function expectCountsAsScanned(c: Collection<Person>, filters: Filter[]): Promise<void> {
  const all = await c.find({});
  for (const filter of filters) {
    const matching = all.filter((p) => Object.entries(filter).every(([f, v]) => field(p, f) === v));
    expect([filter, await c.count(filter)]).toEqual([filter, matching.length]);
    for (const by of ['age', 'active', 'team.id'].filter((f) => !(f in filter))) {
      const scanned = new Map<Scalar, number>();
      for (const p of matching) scanned.set(field(p, by), (scanned.get(field(p, by)) ?? 0) + 1);
      expect([filter, by, entries(await c.countBy(by, filter))]).toEqual([filter, by, entries(scanned)]);
    }
  }
}
