const { Worker } = require('node:worker_threads');
const { cpuSeconds, mainThreadCpuSeconds } = require('./service');

/** The calling thread's CPU seconds, from the kernel as the benchmark reads a process's. */
function ownCpuSeconds() {
  const fields = require('node:fs').readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Spins until the calling thread has used `seconds` of CPU: on a busy machine a wall-time spin would get less. */
function spin(seconds) {
  for (const start = ownCpuSeconds(); ownCpuSeconds() - start < seconds; );
}

describe('bench CPU readings', () => {
  it("count a worker thread's CPU in the process's and not in its main thread's", async () => {
    const process0 = cpuSeconds(process.pid);
    const main0 = mainThreadCpuSeconds(process.pid);
    await new Promise((resolve, reject) => {
      const worker = new Worker(`${ownCpuSeconds}\n${spin}\nspin(0.5);`, { eval: true });
      worker.once('error', reject);
      worker.once('exit', resolve);
    });
    expect(cpuSeconds(process.pid) - process0).toBeGreaterThanOrEqual(0.5);
    expect(mainThreadCpuSeconds(process.pid) - main0).toBeLessThan(0.25);
  });

  it("count the main thread's CPU in both", () => {
    const process0 = cpuSeconds(process.pid);
    const main0 = mainThreadCpuSeconds(process.pid);
    spin(0.3);
    expect(mainThreadCpuSeconds(process.pid) - main0).toBeGreaterThanOrEqual(0.3);
    expect(cpuSeconds(process.pid) - process0).toBeGreaterThanOrEqual(0.3);
  });
});
