import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SystemClock } from '../../shared/clock';
import { AppConfig } from '../config/app-config';
import { ServiceInstances } from '../instances/service-instances';
import { DocumentStore } from '../../shared/ports/document-store.port';
import { SqliteDocumentStore } from '../read-store/sqlite-document-store';
import { LeasedWork, WorkLeases } from './work-leases';

const TTL_MS = 400;
const WORKS = ['reactor:a', 'reactor:b', 'reactor:c', 'job:d'];

/** Who runs each piece of work right now, across the instances of a spec; a second runner is an overlap. */
class Ledger {
  readonly runners = new Map<string, string>();
  readonly overlaps: string[] = [];
  starts = 0;

  work(name: string, instance: string): LeasedWork {
    return {
      name,
      start: () => {
        const other = this.runners.get(name);
        if (other) this.overlaps.push(`${name}: ${instance} started while ${other} ran it`);
        this.runners.set(name, instance);
        this.starts++;
      },
      stop: async () => {
        if (this.runners.get(name) === instance) this.runners.delete(name);
      },
    };
  }

  heldBy(instance: string): string[] {
    return [...this.runners].filter(([, who]) => who === instance).map(([name]) => name);
  }
}

describe('WorkLeases: background work shared by the instances of one store', () => {
  let dir: string;
  const closers: Array<() => Promise<void>> = [];

  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'leases-'))));
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  /** An instance: its own connection to the shared store, its heartbeat, its leases. */
  async function instance(ledger: Ledger, name: string, wrap: (store: DocumentStore) => DocumentStore = (s) => s) {
    const store = new SqliteDocumentStore(join(dir, 'read.db'));
    const shared = wrap(store);
    const beats = new ServiceInstances(shared, true, new SystemClock());
    await beats.onApplicationBootstrap();
    const leases = new WorkLeases(shared, beats, { workLeaseTtlMs: TTL_MS } as AppConfig);
    const handles = [];
    for (const work of WORKS) handles.push(await leases.add(ledger.work(work, name)));
    const close = async () => {
      await leases.onModuleDestroy();
      await beats.onApplicationShutdown();
      await store.close();
    };
    closers.push(close);
    return { leases, handles, close };
  }

  const until = async (check: () => boolean, what: string) => {
    for (const deadline = Date.now() + 5000; !check(); await new Promise((r) => setTimeout(r, 20)))
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
  };

  it('runs every piece at once in an instance alone', async () => {
    const ledger = new Ledger();
    const a = await instance(ledger, 'a');
    expect(ledger.heldBy('a').sort()).toEqual([...WORKS].sort());
    expect(a.leases.running().sort()).toEqual([...WORKS].sort());
    expect(WORKS.every((w) => a.leases.holds(w))).toBe(true);
  });

  it('hands a newcomer its share, never letting two instances run one piece, and takes all back when it leaves', async () => {
    const ledger = new Ledger();
    await instance(ledger, 'a');
    const b = await instance(ledger, 'b');
    await until(() => ledger.heldBy('a').length === 2 && ledger.heldBy('b').length === 2, 'an even split');
    await new Promise((r) => setTimeout(r, 3 * TTL_MS));
    expect(ledger.heldBy('a')).toHaveLength(2);
    expect(ledger.heldBy('b')).toHaveLength(2);

    await b.close();
    await until(() => ledger.heldBy('a').length === WORKS.length, 'a to hold everything again');
    expect(ledger.overlaps).toEqual([]);
  });

  it('stops the work of an instance that cannot reach the store before its leases lapse, and another takes them after', async () => {
    const ledger = new Ledger();
    let unreachable = false;
    const flaky = (store: DocumentStore) =>
      new Proxy(store, {
        get(target, key, receiver) {
          const value = Reflect.get(target, key, receiver);
          if (typeof value !== 'function') return value;
          return (...args: unknown[]) => (unreachable ? Promise.reject(new Error('store unreachable')) : value.apply(target, args));
        },
      });
    await instance(ledger, 'a', flaky);
    unreachable = true;
    const b = await instance(ledger, 'b');
    await until(() => ledger.heldBy('b').length === WORKS.length, 'b to take every piece');
    expect(ledger.heldBy('a')).toEqual([]);
    expect(ledger.overlaps).toEqual([]);
    expect(WORKS.every((w) => b.leases.holds(w))).toBe(true);
  });

  it('lets go of a piece when its handle is released: another instance takes it, though it has its share already', async () => {
    const ledger = new Ledger();
    const a = await instance(ledger, 'a');
    await instance(ledger, 'b');
    await until(() => ledger.heldBy('b').length === 2, 'b to take its share');
    const aHeld = ledger.heldBy('a');
    await a.handles[WORKS.indexOf(aHeld[0])].release();
    expect(ledger.runners.get(aHeld[0])).toBeUndefined();
    await until(() => ledger.runners.get(aHeld[0]) === 'b', 'b to take the piece let go');
    expect(ledger.heldBy('a')).toEqual(aHeld.slice(1));
    expect(ledger.overlaps).toEqual([]);
  });

  it("renews each lease on its own: one piece's long stop lets no other lease lapse", async () => {
    const store = new SqliteDocumentStore(join(dir, 'read.db'));
    const beats = new ServiceInstances(store, true, new SystemClock());
    await beats.onApplicationBootstrap();
    const leases = new WorkLeases(store, beats, { workLeaseTtlMs: TTL_MS } as AppConfig);
    closers.push(async () => {
      await leases.onModuleDestroy();
      await beats.onApplicationShutdown();
      await store.close();
    });
    let stopped = false;
    const slow = await leases.add({
      name: 'job:slow',
      start: () => undefined,
      stop: () => new Promise<void>((r) => setTimeout(() => ((stopped = true), r()), 4 * TTL_MS)),
    });
    await leases.add({ name: 'job:fast', start: () => undefined, stop: async () => undefined });
    const releasing = slow.release();
    // The slow piece no longer holds once its stop begins; the other keeps its lease throughout.
    await new Promise((r) => setTimeout(r, 20));
    expect(leases.holds('job:slow')).toBe(false);
    for (let i = 0; i < 6; i++) {
      await new Promise((r) => setTimeout(r, TTL_MS / 2));
      expect(leases.holds('job:fast')).toBe(true);
      expect(await store.leaseHolder('job:fast', Date.now())).toBe(leases.owner);
    }
    await releasing;
    expect(stopped).toBe(true);
  });
});
