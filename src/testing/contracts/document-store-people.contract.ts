import { Collection, Filter } from '../../shared/ports/document-store.port';

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

/** Each filter's count, next to the same count taken by scanning every document. */
export async function expectCountsAsScanned(c: Collection<Person>, filters: Filter[]): Promise<void> {
  const all = await c.find({});
  for (const filter of filters) {
    const scanned = all.filter((p) => Object.entries(filter).every(([f, v]) => (f === 'team.id' ? p.team.id : (p as any)[f]) === v)).length;
    expect([filter, await c.count(filter)]).toEqual([filter, scanned]);
  }
}
