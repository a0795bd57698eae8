const { median, inRounds } = require('./rounds');

const sample = (name, requests_per_second, extra = {}) => ({
  name,
  connections: 50,
  requests_per_second,
  p50_ms: 1,
  p99_ms: 10,
  non_2xx: 0,
  errors: 0,
  ...extra,
});

describe('bench rounds', () => {
  it('takes the middle value, or the mean of the two middle ones', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('runs the baseline and then each load once per round, in that order', async () => {
    const order = [];
    const run = (name) => async () => (order.push(name), sample(name, 1));
    await inRounds(2, run('base'), [run('a'), run('b')]);
    expect(order).toEqual(['base', 'a', 'b', 'base', 'a', 'b']);
  });

  it('gives each figure the median of its rounds, their range, and the median of its ratios within each round', async () => {
    const base = [100, 200, 400];
    const load = [10, 40, 60];
    const p99 = [5, 50, 9];
    let round = 0;
    const { baseline, figures } = await inRounds(3, async () => sample('base', base[round]), [
      async () => sample('load', load[round], { p99_ms: p99[round++], non_2xx: 1 }),
    ]);
    expect(baseline).toMatchObject({ name: 'base', requests_per_second: 200, requests_per_second_range: [100, 400], rounds: 3 });
    // Ratios per round 0.10, 0.20, 0.15: their median, not the ratio of the medians (40 / 200).
    expect(figures[0]).toMatchObject({
      name: 'load',
      requests_per_second: 40,
      requests_per_second_range: [10, 60],
      p99_ms: 9,
      non_2xx: 3,
      ratio_to_baseline: 0.15,
    });
  });

  it("gives the median of each round's CPU a request, where the load measured it", async () => {
    const cpu = [
      [150, 140, 30],
      [120, 100, 20],
      [130, 90, 40],
    ];
    let round = 0;
    const { baseline, figures } = await inRounds(3, async () => sample('base', 100), [
      async () => {
        const [service, main, generator] = cpu[round++];
        return sample('load', 10, {
          service_cpu_us_per_request: service,
          service_main_thread_cpu_us_per_request: main,
          load_generator_cpu_us_per_request: generator,
        });
      },
    ]);
    expect(figures[0]).toMatchObject({ service_cpu_us_per_request: 130, service_main_thread_cpu_us_per_request: 100, load_generator_cpu_us_per_request: 30 });
    expect(baseline).not.toHaveProperty('service_cpu_us_per_request');
  });
});
