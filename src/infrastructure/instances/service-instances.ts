import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { randomInt } from 'node:crypto';
import { hostname } from 'node:os';
import { Clock } from '../../shared/clock';
import { Collection, DocumentStore, READ_STORE } from '../../shared/ports/document-store.port';
import { BACKGROUND_WORK } from '../reactors/reactor';

export interface ServiceInstance {
  id: number;
  pid: number;
  host: string;
  /** Epoch ms of its last heartbeat. */
  beat_at: number;
}

const BEAT_EVERY_MS = 5000;
/** An instance silent this long has stopped (or died). */
const GONE_AFTER_MS = 3 * BEAT_EVERY_MS;

/**
 * Every running service beats in the read store, so a command that must run alone on a store
 * (a rebuild) can tell whether services use it, whatever the adapter and however many hosts.
 */
@Injectable()
export class ServiceInstances implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ServiceInstances');
  private readonly instances: Collection<ServiceInstance>;
  private readonly id = randomInt(1, 2 ** 31 - 1);
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(READ_STORE) store: DocumentStore,
    @Inject(BACKGROUND_WORK) private readonly background: boolean,
    private readonly clock: Clock,
  ) {
    this.instances = store.collection<ServiceInstance>('service_instances');
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.background) return;
    await this.beat();
    this.timer = setInterval(() => void this.beat().catch((error: Error) => this.logger.error(`heartbeat failed: ${error.message}`)), BEAT_EVERY_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (!this.timer) return;
    clearInterval(this.timer);
    await this.instances.delete(this.id, this.clock.now().getTime()).catch(() => undefined);
  }

  /** The services that beat recently, this one aside. */
  async running(): Promise<ServiceInstance[]> {
    const since = this.clock.now().getTime() - GONE_AFTER_MS;
    return (await this.instances.find()).filter((i) => i.beat_at > since && i.id !== this.id);
  }

  private async beat(): Promise<void> {
    const now = this.clock.now().getTime();
    await this.instances.upsert(this.id, { id: this.id, pid: process.pid, host: hostname(), beat_at: now }, now);
  }
}
