const { floorsOf } = require('./floors');

const baseline = (rps) => ({ name: 'baseline GET /health/live', connections: 50, requests_per_second: rps });

describe("the guide's floors, judged against the run's own baseline", () => {
  const figures = [
    baseline(20_000),
    baseline(30_000),
    { name: 'POST /api/user/lead', connections: 10, requests_per_second: 100 },
    { name: 'POST /api/user/lead', connections: 50, requests_per_second: 2000, ratio_to_baseline: 0.081 },
    { name: 'GET /api/user/leads?campaign_id&per_page=100 (100000 leads)', connections: 50, requests_per_second: 900, ratio_to_baseline: 0.049 },
    { name: 'projections:rebuild', events_per_second: 40_000 },
    { name: 'dialing a campaign of 100000 leads (simulated)', attempts_per_second: 300 },
    { name: 'memory with 10000 leads stored', rss_idle_mb: 100 },
    { name: 'memory with 1000000 leads stored', rss_growth_idle_mb: 22 },
  ];
  const byFloor = Object.fromEntries(floorsOf(figures).map((f) => [f.floor, f]));

  it('takes the ratio a load carries from its rounds, and judges it against the floor', () => {
    expect(byFloor['lead creation, 50 connections']).toMatchObject({ measured: 2000, ratio: 0.081, verdict: 'met' });
    expect(byFloor["a campaign's first lead page"]).toMatchObject({ ratio: 0.049, verdict: 'missed' });
  });

  it('divides the others by the median baseline of the run', () => {
    expect(byFloor['rebuild, events/s']).toMatchObject({ baseline: 25_000, ratio: 1.6, verdict: 'met' });
    expect(byFloor['dialing, attempts/s']).toMatchObject({ ratio: 0.012, verdict: 'missed' });
  });

  it('judges memory in megabytes, and says which floors the run did not measure', () => {
    expect(byFloor['RSS growth from 10k to 1M leads, MB']).toMatchObject({ measured: 22, verdict: 'met' });
    expect(byFloor['calls by status and type (1,000,000 stored)'].verdict).toBe('not measured in this run');
    expect(floorsOf([{ name: 'projections:rebuild', events_per_second: 1 }])[5].verdict).toBe('not measured in this run');
  });
});
