const { Worker } = require('node:worker_threads');
const { cpuSeconds, mainThreadCpuSeconds, startAdapterApp } = require('./service');

const SERVICE = require.resolve('./service');

/**
 * Spins the calling thread until it has used `seconds` of CPU (on a busy machine a wall-time
 * spin would get less). Self-contained: a worker runs it from its source.
 */
function spin(seconds) {
  const { cpuSecondsIn } = require(SERVICE);
  for (const start = cpuSecondsIn('/proc/thread-self/stat'); cpuSecondsIn('/proc/thread-self/stat') - start < seconds;);
}

describe('bench CPU readings', () => {
  it("count a worker thread's CPU in the process's and not in its main thread's", async () => {
    const process0 = cpuSeconds(process.pid);
    const main0 = mainThreadCpuSeconds(process.pid);
    await new Promise((resolve, reject) => {
      const worker = new Worker(`const SERVICE = ${JSON.stringify(SERVICE)};\n${spin}\nspin(1);`, { eval: true });
      worker.once('error', reject);
      worker.once('exit', resolve);
    });
    expect(cpuSeconds(process.pid) - process0).toBeGreaterThanOrEqual(1);
    // Starting a worker costs its parent some CPU too (a quarter second when CI runs suites side by side).
    expect(mainThreadCpuSeconds(process.pid) - main0).toBeLessThan(0.6);
  });

  it("count the main thread's CPU in both", () => {
    const process0 = cpuSeconds(process.pid);
    const main0 = mainThreadCpuSeconds(process.pid);
    spin(0.3);
    expect(mainThreadCpuSeconds(process.pid) - main0).toBeGreaterThanOrEqual(0.3);
    // The process's figure is read from other counters, in clock ticks of 0.01 s: it may be one behind.
    expect(cpuSeconds(process.pid) - process0).toBeGreaterThanOrEqual(0.29 - 1e-9);
  });
});

describe('the service as it is run', () => {
  it('is started by the bench, npm start and the image with the same node flags', () => {
    const { readFileSync } = require('node:fs');
    const { join } = require('node:path');
    const { startFlags } = require('./service');
    const cmd = readFileSync(join(__dirname, '..', 'Dockerfile'), 'utf8').match(/^CMD (\[.*\])$/m);
    expect(startFlags()).toContain('--heap-growing-percent=60');
    expect(JSON.parse(cmd[1])).toEqual(['node', ...startFlags(), 'dist/main.js']);
  });
});

describe('a started process', () => {
  it('is stopped at once when a signal ended it already (its exit code stays null)', async () => {
    const app = await startAdapterApp('fastify');
    process.kill(app.pid, 'SIGKILL');
    // Gone once reaped: the signal 0 then finds no process.
    for (;;) {
      try {
        process.kill(app.pid, 0);
      } catch {
        break;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    await new Promise((r) => setTimeout(r, 50));
    await expect(Promise.race([app.stop().then(() => 'stopped'), new Promise((r) => setTimeout(() => r('still waiting'), 2000))])).resolves.toBe('stopped');
  }, 30_000);
});
