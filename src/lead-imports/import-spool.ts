import { Injectable } from '@nestjs/common';
import { EventEmitter, once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { FileHandle, access, mkdir, open, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppConfig } from '../infrastructure/config/app-config';
import { ImportFormat } from './lead-import.events';

/** The body was longer than the import's limit. */
export class ImportTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`The file must not be larger than ${limit} bytes.`);
  }
}

/** A body this process is storing: readers follow it as it grows. */
interface Growing {
  signal: EventEmitter;
  failed?: Error;
}

/**
 * Imports' bodies, stored whole under `DATA_DIR/imports` as they arrive (memory holds a chunk at a
 * time), synced before the import is said uploaded: rows are made from the file while it grows,
 * and made on from it after a restart. Removed once the import is done.
 */
@Injectable()
export class ImportSpool {
  private readonly dir: string;
  private readonly growing = new Map<number, Growing>();
  /** Aborted when the service stops: a reader waiting for a body to grow gives up (the import is taken up again later). */
  private readonly stopping = new AbortController();

  constructor(config: AppConfig) {
    this.dir = join(config.dataDir, 'imports');
  }

  file(importId: number, format: ImportFormat): string {
    return join(this.dir, `${importId}.${format}`);
  }

  /** Stores the body; answers its size, or throws ImportTooLarge (and keeps nothing) past `limit` bytes. */
  async store(importId: number, format: ImportFormat, body: Readable, limit: number): Promise<number> {
    const growing: Growing = { signal: new EventEmitter() };
    this.growing.set(importId, growing);
    const file = this.file(importId, format);
    let bytes = 0;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        done(bytes > limit ? new ImportTooLarge(limit) : null, chunk);
      },
    });
    await mkdir(this.dir, { recursive: true }).catch((error: Error) => this.fail(importId, growing, error));
    const written = createWriteStream(file);
    // Each chunk on disk is news for the readers following the file.
    written.on('drain', () => growing.signal.emit('grew'));
    const ticker = setInterval(() => growing.signal.emit('grew'), 50);
    try {
      await pipeline(body, counted, written);
      const handle = await open(file, 'r');
      await handle.sync().finally(() => handle.close());
      return bytes;
    } catch (error) {
      await rm(file, { force: true });
      this.fail(importId, growing, error as Error);
    } finally {
      clearInterval(ticker);
    }
  }

  /** Tells the readers following the body that it will not be stored whole, then throws the reason. */
  private fail(importId: number, growing: Growing, error: Error): never {
    this.abandon(importId, error);
    throw error;
  }

  /**
   * The body will not be said uploaded (stored, but its upload could not be recorded): the readers
   * following it stop with `reason` rather than wait for news that never comes.
   */
  abandon(importId: number, reason: Error): void {
    const growing = this.growing.get(importId);
    if (!growing) return;
    growing.failed = reason;
    this.growing.delete(importId);
    growing.signal.emit('grew');
  }

  /** The service stops: readers waiting for bodies to grow stop waiting (their imports are taken up again later). */
  stopFollowing(): void {
    this.stopping.abort();
  }

  /** The body is stored and said uploaded: readers following it read to its end and stop. */
  uploaded(importId: number): void {
    const growing = this.growing.get(importId);
    this.growing.delete(importId);
    growing?.signal.emit('grew');
  }

  /** Whether this process is storing the import's body now. */
  isGrowing(importId: number): boolean {
    return this.growing.has(importId);
  }

  /** The stored body, read as it grows while this process stores it, else as it stands. */
  read(importId: number, format: ImportFormat): Readable {
    const file = this.file(importId, format);
    const growing = this.growing.get(importId);
    return growing ? Readable.from(this.follow(file, importId, growing)) : createReadStream(file);
  }

  private async *follow(file: string, importId: number, growing: Growing): AsyncGenerator<Buffer> {
    let handle: FileHandle | undefined;
    // The file is made a moment after the upload begins.
    while (!handle) {
      handle = await open(file, 'r').catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT' || growing.failed) throw growing.failed ?? error;
        return undefined;
      });
      if (!handle) await this.grown(growing);
    }
    try {
      let offset = 0;
      for (;;) {
        const buffer = Buffer.alloc(64 * 1024);
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset);
        if (bytesRead > 0) {
          offset += bytesRead;
          yield buffer.subarray(0, bytesRead);
          continue;
        }
        if (growing.failed) throw growing.failed;
        // Stored whole (and read to its end just now, after it was): done.
        if (!this.growing.has(importId)) {
          const { bytesRead: last } = await handle.read(buffer, 0, buffer.length, offset);
          if (last === 0) return;
          offset += last;
          yield buffer.subarray(0, last);
          continue;
        }
        await this.grown(growing);
      }
    } finally {
      await handle.close();
    }
  }

  private async grown(growing: Growing): Promise<void> {
    await once(growing.signal, 'grew', { signal: this.stopping.signal }).catch((error: Error) => {
      throw this.stopping.signal.aborted ? new Error('The service is stopping.') : error;
    });
  }

  /** The imports whose bodies are stored here, but for those this process is storing now. */
  async storedHere(): Promise<Array<{ importId: number; format: ImportFormat }>> {
    const names = await readdir(this.dir).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    });
    return names
      .map((name) => /^(\d+)\.(csv|ndjson|text)$/.exec(name))
      .filter((m): m is RegExpExecArray => m !== null && !this.growing.has(Number(m[1])))
      .map((m) => ({ importId: Number(m[1]), format: m[2] as ImportFormat }));
  }

  /** Whether the import's body is stored here. */
  async has(importId: number, format: ImportFormat): Promise<boolean> {
    return access(this.file(importId, format)).then(
      () => true,
      () => false,
    );
  }

  async remove(importId: number, format: ImportFormat): Promise<void> {
    await rm(this.file(importId, format), { force: true });
  }
}
