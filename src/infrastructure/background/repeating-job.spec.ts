import { SchedulerRegistry } from '@nestjs/schedule';
import { RepeatingJob } from './repeating-job';

const until = async (check: () => boolean) => {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 2));
  expect(check()).toBe(true);
};

describe('repeating job', () => {
  it('never overlaps runs, and folds the nudges made during a run into one more run', async () => {
    let active = 0;
    let maxActive = 0;
    let runs = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const job = new RepeatingJob('gated-job', new SchedulerRegistry(), async () => {
      active++;
      maxActive = Math.max(maxActive, active);
      runs++;
      if (runs === 1) await gate;
      active--;
      return false;
    });
    job.start(60_000);
    await until(() => runs === 1);
    job.nudge();
    job.nudge();
    job.nudge();
    release();
    await until(() => runs === 2);
    await new Promise((r) => setTimeout(r, 20));
    expect(runs).toBe(2);
    expect(maxActive).toBe(1);
    await job.stop();
    job.nudge();
    await new Promise((r) => setTimeout(r, 20));
    expect(runs).toBe(2);
  });

  it('given a share of a half, then after a run the next waits about as long as the run took', async () => {
    const runs: Array<{ start: number; end: number }> = [];
    const job = new RepeatingJob(
      'shared-job',
      new SchedulerRegistry(),
      async () => {
        const start = performance.now();
        while (performance.now() - start < 30); // a run that holds the thread 30 ms
        runs.push({ start, end: performance.now() });
        return runs.length < 3;
      },
      0.5,
    );
    job.start(60_000);
    await until(() => runs.length === 3);
    await job.stop();
    // Each rest is the run's own length (30 ms): well above the next turn of the event loop.
    for (let i = 1; i < runs.length; i++) expect(runs[i].start - runs[i - 1].end).toBeGreaterThanOrEqual(25);
  });

  it('runs again at once while the work says there is more', async () => {
    let more = 3;
    let runs = 0;
    const job = new RepeatingJob('more-job', new SchedulerRegistry(), async () => {
      runs++;
      return more-- > 0;
    });
    job.start(60_000);
    await until(() => runs === 4);
    await new Promise((r) => setTimeout(r, 20));
    expect(runs).toBe(4);
    await job.stop();
  });

  it('runs on its interval, and survives a failing run', async () => {
    let runs = 0;
    const registry = new SchedulerRegistry();
    const job = new RepeatingJob('interval-job', registry, async () => {
      runs++;
      if (runs === 1) throw new Error('boom');
      return false;
    });
    job.start(20);
    expect(registry.doesExist('interval', 'interval-job')).toBe(true);
    await until(() => runs >= 3);
    await job.stop();
    expect(registry.doesExist('interval', 'interval-job')).toBe(false);
  });
});
