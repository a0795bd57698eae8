import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * What `open` makes in a new temporary directory before each test of the calling suite, closed
 * with `close` and the directory removed after the test; read through the answered function.
 */
export function madeInTempDirForEachTest<T extends object>(
  prefix: string,
  open: (dir: string) => Promise<T>,
  close: (made: T) => Promise<void>,
): () => T & { dir: string } {
  let made: (T & { dir: string }) | undefined;
  beforeEach(async () => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    made = Object.assign(await open(dir), { dir });
  });
  afterEach(async () => {
    await close(made!);
    rmSync(made!.dir, { recursive: true, force: true });
  });
  return () => made!;
}
