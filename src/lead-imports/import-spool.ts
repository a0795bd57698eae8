import { Injectable } from '@nestjs/common';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rm } from 'node:fs/promises';
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

/**
 * Imports' bodies, stored whole under `DATA_DIR/imports` as they arrive (memory holds a chunk at a
 * time), synced before the import is said uploaded: rows are made from the file, and made on
 * from it after a restart. Removed once the import is done.
 */
@Injectable()
export class ImportSpool {
  private readonly dir: string;

  constructor(config: AppConfig) {
    this.dir = join(config.dataDir, 'imports');
  }

  file(importId: number, format: ImportFormat): string {
    return join(this.dir, `${importId}.${format}`);
  }

  /** Stores the body; answers its size, or throws ImportTooLarge (and keeps nothing) past `limit` bytes. */
  async store(importId: number, format: ImportFormat, body: Readable, limit: number): Promise<number> {
    await mkdir(this.dir, { recursive: true });
    const file = this.file(importId, format);
    let bytes = 0;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        done(bytes > limit ? new ImportTooLarge(limit) : null, chunk);
      },
    });
    try {
      await pipeline(body, counted, createWriteStream(file));
      const handle = await open(file, 'r');
      await handle.sync().finally(() => handle.close());
      return bytes;
    } catch (error) {
      await rm(file, { force: true });
      throw error;
    }
  }

  async remove(importId: number, format: ImportFormat): Promise<void> {
    await rm(this.file(importId, format), { force: true });
  }
}
