import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { declaredEventTypes, fieldsOf } from '../../shared/event-sourcing/event-fields';
import { RecordedEvent } from '../../shared/ports/event-store.port';
import { MasterKey } from '../../shared/sealing/master-keys';
import type { OpenedReadsSetup } from './opened-reads.worker';

/** The thread's script, as the build compiles it (under ts-jest there is none: reads stay on the main thread). */
const OPENED_READS_SCRIPT = join(__dirname, 'opened-reads.worker.js');
export const openedReadsScript = (): string | undefined => (existsSync(OPENED_READS_SCRIPT) ? OPENED_READS_SCRIPT : undefined);

interface Answer {
  id: number;
  events?: RecordedEvent[];
  error?: string;
}

/**
 * docs/privacy.md, bench/README.md: a rebuild reads the whole embedded log in batches, and
 * reading them and opening their personal values took a third of its one busy core. Here a
 * thread of its own reads and opens each batch, and the next one while the main thread projects
 * this one. Only for a reader alone on the files (a rebuild refuses to run beside a service), and
 * in the log's order: the thread sees each erasure where it stands, as the main thread would.
 */
export class OpenedReadAhead {
  private worker?: Worker;
  private exited?: Promise<void>;
  private ready?: Promise<void>;
  private readonly answers = new Map<number, { resolve: (events: RecordedEvent[]) => void; reject: (error: Error) => void }>();
  private asked = 0;
  /** The batch asked for ahead: the one after the last read, when that came full. */
  private next?: { after: number; max: number; events: Promise<RecordedEvent[]> };

  constructor(
    private readonly script: string,
    private readonly files: { events: string; keys: string },
    private readonly masters: MasterKey[],
  ) {}

  /** The events after `after`, at most `max`, opened; when they come full, the batch after them is asked for at once. */
  async readAll(after: number, max: number): Promise<RecordedEvent[]> {
    const ahead = this.next?.after === after && this.next.max === max ? this.next.events : this.ask(after, max);
    this.next = undefined;
    const events = await ahead;
    if (events.length === max && max > 0) {
      const last = events[events.length - 1].position;
      this.next = { after: last, max, events: this.ask(last, max) };
      // A batch asked ahead and never read is no failure of anyone's; the one read answers its own.
      this.next.events.catch(() => undefined);
    }
    return events;
  }

  private async ask(after: number, max: number): Promise<RecordedEvent[]> {
    await (this.ready ??= this.start());
    const id = ++this.asked;
    return new Promise<RecordedEvent[]>((resolve, reject) => {
      this.answers.set(id, { resolve, reject });
      this.worker!.postMessage({ id, after, max });
    });
  }

  private start(): Promise<void> {
    const setup: OpenedReadsSetup = {
      eventsFile: this.files.events,
      keysFile: this.files.keys,
      masters: this.masters,
      fields: declaredEventTypes().map((type) => [type, fieldsOf(type)!]),
    };
    const worker = new Worker(this.script, { workerData: setup });
    this.worker = worker;
    // Known from the start: a thread that failed may be gone before it is closed.
    this.exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    return new Promise<void>((resolve, reject) => {
      worker.on('message', (message: Answer & { ready?: true; failed?: string }) => {
        if (message.ready) return resolve();
        if (message.failed) return reject(new Error(`The reading thread did not start: ${message.failed}`));
        const waiting = this.answers.get(message.id);
        this.answers.delete(message.id);
        if (message.error === undefined) waiting?.resolve(message.events!);
        else waiting?.reject(new Error(message.error));
      });
      const fail = (error: Error) => {
        reject(error);
        for (const waiting of this.answers.values()) waiting.reject(error);
        this.answers.clear();
      };
      worker.on('error', fail);
      // A thread gone while it owes answers: they fail, so the rebuild stops instead of waiting for ever.
      worker.on('exit', (code) => fail(new Error(`The reading thread stopped (exit code ${code})`)));
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.worker = undefined;
    worker.postMessage('close');
    await this.exited;
  }
}
