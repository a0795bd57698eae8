import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { AppConfig } from '../config/app-config';
import { ServiceInstances } from '../instances/service-instances';
import { DocumentStore, READ_STORE } from '../../shared/ports/document-store.port';
import { isDeadProcessHere, ownerId } from './lease-owner';

/** Background work that one instance at a time runs: a reactor, the scheduler, a sweep. */
export interface LeasedWork {
  /** The lease's name, the same in every instance. */
  readonly name: string;
  start(): Promise<void> | void;
  stop(): Promise<void>;
}

export interface LeaseHandle {
  /** Stops the work if it runs here and lets its lease go, for another instance to take at once. */
  release(): Promise<void>;
}

interface Entry {
  work: LeasedWork;
  running: boolean;
  /** Epoch ms until which the lease is this instance's, as of its last renewal. */
  until: number;
  /** Rounds in a row that found the lease free while this instance had its share already. */
  freeRounds: number;
  /** The lease's own renewal timer while it runs here, and the renewal under way. */
  renewal?: NodeJS.Timeout;
  renewing?: Promise<void>;
  /** The work's stop under way: the piece is not taken again before it ends. */
  stopping?: Promise<void>;
}

/** Renewals per lease lifetime: a holder misses three in a row before its lease lapses. */
const RENEWALS_PER_TTL = 4;

/**
 * Shares background work between the instances of a store (docs/configuration.md, docs/dialing.md): each piece runs
 * where its lease is held, renewed every quarter of its lifetime, and given up when a renewal
 * fails or the lease is lost. An instance holds at most its share of the pieces (their number
 * over the instances that beat), so a newcomer is handed some at the next round; a piece left
 * free for two rounds is taken whatever the share, so none goes without a runner. A holder that
 * died on this host is recognised by its process id and its leases taken at once; one that
 * died elsewhere leaves them for the lease's lifetime. Each lease is renewed on its own timer,
 * so no renewal waits behind another piece's start or stop (a scheduler finishing its pass, a
 * reactor its event): a lease lapses only when its own store round trips fail.
 */
@Injectable()
export class WorkLeases implements OnModuleDestroy {
  private readonly logger = new Logger('WorkLeases');
  readonly owner = ownerId(process.pid, hostname(), randomUUID());
  private readonly entries = new Map<string, Entry>();
  private queue: Promise<unknown> = Promise.resolve();
  private timer?: NodeJS.Timeout;
  private closed = false;

  constructor(
    @Inject(READ_STORE) private readonly store: DocumentStore,
    private readonly instances: ServiceInstances,
    private readonly config: AppConfig,
  ) {}

  private get renewEveryMs(): number {
    return this.config.workLeaseTtlMs / RENEWALS_PER_TTL;
  }

  /** Runs `work` here whenever this instance holds its lease; tries to take it at once. */
  async add(work: LeasedWork): Promise<LeaseHandle> {
    const entry: Entry = { work, running: false, until: 0, freeRounds: 0 };
    this.entries.set(work.name, entry);
    this.timer ??= setInterval(() => void this.round().catch(() => undefined), this.renewEveryMs).unref();
    await this.serially(async () => {
      if (this.closed || this.held() >= (await this.share())) return;
      await this.take(entry);
    });
    return {
      release: () =>
        this.serially(async () => {
          this.entries.delete(work.name);
          await this.letGo(entry, true);
        }),
    };
  }

  /** Whether this instance holds the lease of `name` now: work about to act checks it first. */
  holds(name: string): boolean {
    const entry = this.entries.get(name);
    return !!entry?.running && Date.now() < entry.until;
  }

  /** Names of the work running here. */
  running(): string[] {
    return [...this.entries.values()].filter((e) => e.running).map((e) => e.work.name);
  }

  async onModuleDestroy(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.serially(async () => {
      for (const entry of this.entries.values()) await this.letGo(entry, true);
    });
  }

  /** Lets go of what is above this instance's share, takes what is free below it; each held lease renews itself. */
  private round(): Promise<void> {
    return this.serially(async () => {
      if (this.closed) return;
      // Unknown while the store is out of reach: then renewals fail, and what they guard stops in time.
      const share = await this.share().catch(() => this.entries.size);
      let held = this.held();
      for (const entry of this.entries.values()) {
        try {
          if (entry.running && held > share) {
            // Stopped apart from the round: its end is no one else's wait.
            void this.letGo(entry, true);
            held--;
          } else if (!entry.running && !entry.stopping && (held < share || (await this.unclaimed(entry))) && (await this.take(entry))) {
            held++;
          }
        } catch (error) {
          this.logger.error(`${entry.work.name}: lease round failed: ${(error as Error).message}`);
        }
      }
    });
  }

  /**
   * Whether a lease stayed free for two rounds: every instance has its share (or thinks so, with
   * a silent instance still counted), and the piece is taken rather than left with no runner.
   */
  private async unclaimed(entry: Entry): Promise<boolean> {
    const free = (await this.store.leaseHolder(entry.work.name, Date.now())) === null;
    entry.freeRounds = free ? entry.freeRounds + 1 : 0;
    return entry.freeRounds >= 2;
  }

  private async take(entry: Entry): Promise<boolean> {
    entry.freeRounds = 0;
    const { name } = entry.work;
    const now = Date.now();
    let token = await this.store.lease(name, this.owner, now, this.config.workLeaseTtlMs);
    if (token === null) {
      const holder = await this.store.leaseHolder(name, now);
      if (!holder || !isDeadProcessHere(holder, hostname())) return false;
      await this.store.releaseLease(name, holder);
      token = await this.store.lease(name, this.owner, now, this.config.workLeaseTtlMs);
      if (token === null) return false;
    }
    entry.until = now + this.config.workLeaseTtlMs;
    entry.running = true;
    entry.renewal = setInterval(() => (entry.renewing ??= this.renew(entry).finally(() => (entry.renewing = undefined))), this.renewEveryMs).unref();
    try {
      await entry.work.start();
    } catch (error) {
      this.logger.error(`${name} could not start: ${(error as Error).message}`);
      await this.letGo(entry, true);
      return false;
    }
    return true;
  }

  /** Renews a lease held here; a lost one stops its work, a failed renewal only once the lease is about to lapse. */
  private async renew(entry: Entry): Promise<void> {
    if (!entry.running) return;
    const now = Date.now();
    try {
      const token = await this.store.lease(entry.work.name, this.owner, now, this.config.workLeaseTtlMs);
      if (!entry.running) return;
      if (token !== null) {
        entry.until = now + this.config.workLeaseTtlMs;
        return;
      }
      this.logger.warn(`${entry.work.name}: lease lost to another instance`);
    } catch (error) {
      // Held on while a later renewal may still come before the lease lapses; stopped short of it otherwise.
      if (now < entry.until - this.renewEveryMs) return;
      this.logger.error(`${entry.work.name}: lease could not be renewed: ${(error as Error).message}`);
    }
    await this.letGo(entry, false);
  }

  /** Stops the work (at once it no longer holds), then lets its lease go for another instance to take. */
  private letGo(entry: Entry, release: boolean): Promise<void> {
    if (!entry.running) return entry.stopping ?? Promise.resolve();
    entry.running = false;
    entry.until = 0;
    clearInterval(entry.renewal);
    entry.stopping = (async () => {
      await entry.work.stop().catch((error: Error) => this.logger.error(`${entry.work.name} did not stop cleanly: ${error.message}`));
      if (release) await this.store.releaseLease(entry.work.name, this.owner).catch(() => undefined);
    })().finally(() => (entry.stopping = undefined));
    return entry.stopping;
  }

  private held(): number {
    return [...this.entries.values()].filter((e) => e.running).length;
  }

  /** This instance's share of the work: all of it alone, else an even part (rounded up). */
  private async share(): Promise<number> {
    const others = (await this.instances.running()).length;
    return Math.ceil(this.entries.size / (others + 1));
  }

  private serially<R>(run: () => Promise<R>): Promise<R> {
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }
}
