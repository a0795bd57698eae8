import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { loadConfig } from '../infrastructure/config/app-config';
import { ImportSpool } from './import-spool';

/** A reader following a body that stopped growing must never wait for ever: the service has to stop. */
describe('ImportSpool: readers following a body as it arrives', () => {
  let dataDir: string;
  let spool: ImportSpool;
  let body: PassThrough;
  let stored: Promise<number>;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'spool-'));
    spool = new ImportSpool(loadConfig({ DATA_DIR: dataDir }));
    body = new PassThrough();
    stored = spool.store(1, 'ndjson', body, 1_000_000);
  });
  afterEach(async () => {
    body.destroy();
    await stored.catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function readAll(): Promise<string> {
    let text = '';
    for await (const chunk of spool.read(1, 'ndjson')) text += String(chunk);
    return text;
  }

  it('reads to the end once the body is said uploaded', async () => {
    const reading = readAll();
    body.end('{"phone_number":"+12015550401"}\n');
    await stored;
    spool.uploaded(1);
    await expect(reading).resolves.toBe('{"phone_number":"+12015550401"}\n');
  });

  it('stops with the reason when a body stored is abandoned, not said uploaded', async () => {
    const reading = readAll();
    body.end('a line\n');
    await stored;
    spool.abandon(1, new Error('the upload could not be recorded'));
    await expect(reading).rejects.toThrow('the upload could not be recorded');
    expect(spool.isGrowing(1)).toBe(false);
  });

  it('stops waiting when the service stops, while the body is still arriving', async () => {
    const reading = readAll();
    body.write('a line\n');
    spool.stopFollowing();
    await expect(reading).rejects.toThrow('The service is stopping.');
    // The upload itself goes on: it is the request's to end.
    body.end('another\n');
    await expect(stored).resolves.toBe(15);
  });
});
