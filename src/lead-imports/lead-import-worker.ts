import { asSystem } from '../shared/event-sourcing/actor';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { hostname } from 'node:os';
import { AppConfig } from '../infrastructure/config/app-config';
import { isDeadProcessHere } from '../infrastructure/leases/lease-owner';
import { WorkLeases } from '../infrastructure/leases/work-leases';
import { BACKGROUND_WORK } from '../infrastructure/reactors/reactor';
import { DocumentStore, READ_STORE } from '../shared/ports/document-store.port';
import { ImportSpool } from './import-spool';
import { LeadImportProcessor } from './lead-import-processor';
import { LeadImportsQueries } from './lead-imports.queries';

/** How often the service looks for imports left unfinished by an instance that stopped. */
const LOOK_EVERY_MS = 30_000;

const uploadLease = (importId: number) => `import-upload:${importId}`;

/**
 * Runs imports in the background of the service: one at a time each, in one instance at a time
 * (a lease per import, renewed after each batch), started when uploaded and taken up again after
 * a restart, or by another instance once the lease of one that died has lapsed. Stopping the
 * service stops each import after its batch in hand.
 */
@Injectable()
export class LeadImportWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('LeadImports');
  private readonly running = new Map<number, Promise<void>>();
  private stopping = false;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly processor: LeadImportProcessor,
    private readonly imports: LeadImportsQueries,
    private readonly spool: ImportSpool,
    private readonly leases: WorkLeases,
    private readonly config: AppConfig,
    @Inject(READ_STORE) private readonly store: DocumentStore,
    @Inject(BACKGROUND_WORK) private readonly background: boolean,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.background) return;
    void this.resumeUnfinished();
    this.timer = setInterval(() => void this.resumeUnfinished(), LOOK_EVERY_MS).unref();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    clearInterval(this.timer);
    // An import following a body still arriving would wait for its client: it is taken up after the restart.
    this.spool.stopFollowing();
    await Promise.all(this.running.values());
  }

  /**
   * Makes the import's rows in the background, unless it runs here or elsewhere already;
   * `uploadGone`: its body stopped arriving with the process storing it, so it is ended.
   */
  start(importId: number, uploadGone = false): void {
    if (!this.background || this.stopping || this.running.has(importId)) return;
    // Started by the upload's request or after a restart, the rows are background work: the system's.
    const run = asSystem(() => this.run(importId, undefined, uploadGone))
      .then(() => undefined)
      .catch((error: Error) => this.logger.error(`import ${importId} stopped, to be taken up again: ${error.message}`))
      .finally(() => this.running.delete(importId));
    this.running.set(importId, run);
  }

  /**
   * Makes the import's rows here and now (the CLI), under its lease; `onBatch` hears the rows done.
   * False when another process holds the import.
   */
  runHere(importId: number, onBatch?: (rowsDone: number) => void): Promise<boolean> {
    return this.run(importId, onBatch);
  }

  /**
   * Held by the process storing an import's body, renewed until `release` is called: an import
   * whose body is not stored whole and whose holder died had its upload cut short.
   */
  async holdUpload(importId: number): Promise<() => Promise<void>> {
    const lease = uploadLease(importId);
    const take = () => this.store.lease(lease, this.leases.owner, Date.now(), this.leaseTtlMs);
    await take();
    const timer = setInterval(() => void take().catch(() => undefined), this.leaseTtlMs / 4);
    timer.unref();
    return async () => {
      clearInterval(timer);
      await this.store.releaseLease(lease, this.leases.owner).catch(() => undefined);
    };
  }

  private get leaseTtlMs(): number {
    return this.config.workLeaseTtlMs * 3;
  }

  private async run(importId: number, onBatch?: (rowsDone: number) => void, uploadGone = false): Promise<boolean> {
    const lease = `import:${importId}`;
    if (!(await this.take(lease))) return false;
    try {
      const going = async (rowsDone: number) => {
        onBatch?.(rowsDone);
        return !this.stopping && (await this.take(lease));
      };
      await this.processor.process(importId, going, uploadGone);
      return true;
    } finally {
      await this.store.releaseLease(lease, this.leases.owner).catch(() => undefined);
    }
  }

  private async take(lease: string): Promise<boolean> {
    const now = Date.now();
    if ((await this.store.lease(lease, this.leases.owner, now, this.leaseTtlMs)) !== null) return true;
    const holder = await this.store.leaseHolder(lease, now);
    if (!holder || !isDeadProcessHere(holder, hostname())) return false;
    await this.store.releaseLease(lease, holder);
    return (await this.store.lease(lease, this.leases.owner, now, this.leaseTtlMs)) !== null;
  }

  /** Whether no live process stores the import's body: its upload lease lapsed, or its holder here died. */
  private async uploadGone(importId: number): Promise<boolean> {
    if (this.spool.isGrowing(importId)) return false;
    const holder = await this.store.leaseHolder(uploadLease(importId), Date.now());
    return holder === null || isDeadProcessHere(holder, hostname());
  }

  private async resumeUnfinished(): Promise<void> {
    try {
      for (const unfinished of await this.imports.unfinished()) this.start(unfinished.id);
      for (const uploading of await this.imports.uploading()) if (await this.uploadGone(uploading.id)) this.start(uploading.id, true);
      // A body is removed after its import's end is recorded: a stop between the two leaves it.
      for (const { importId, format } of await this.spool.storedHere())
        if (!this.running.has(importId) && (await this.imports.ended(importId))) await this.spool.remove(importId, format);
    } catch (error) {
      this.logger.error(`unfinished imports could not be read: ${(error as Error).message}`);
    }
  }
}
