// The speed floors of the developers' guide, each judged against the baseline route of the same
// run (GET /health/live at 50 connections): a floor is a ratio, since this machine's speed moves
// threefold from hour to hour. A figure the run did not measure (BENCH_ONLY) is said so.
const { median } = require('./rounds');

const BASELINE = 'baseline GET /health/live';

/** [floor, how the figure is found, what it reads, the least (or most) the guide allows]. */
const FLOORS = [
  { floor: 'lead creation, 50 connections', find: (f) => f.name === 'POST /api/user/lead' && f.connections === 50, of: 'ratio', least: 0.08 },
  { floor: "a campaign's first lead page", find: (f) => f.name.startsWith('GET /api/user/leads?campaign_id&per_page=100'), of: 'ratio', least: 0.05 },
  { floor: 'a deep filtered lead page', find: (f) => f.name.startsWith('GET /api/user/leads?campaign_id&status'), of: 'ratio', least: 0.05 },
  {
    floor: 'calls by campaign and status (1,000,000 stored)',
    find: (f) => f.name.startsWith('GET /api/user/calls?campaign_id&status'),
    of: 'ratio',
    least: 0.05,
  },
  { floor: 'calls by status and type (1,000,000 stored)', find: (f) => f.name.startsWith('GET /api/user/calls?status&type'), of: 'ratio', least: 0.05 },
  { floor: 'rebuild, events/s', find: (f) => f.name === 'projections:rebuild', of: 'events', least: 1.4 },
  { floor: 'dialing, attempts/s', find: (f) => f.name.startsWith('dialing a campaign of'), of: 'attempts', least: 0.014 },
  { floor: 'RSS growth from 10k to 1M leads, MB', find: (f) => f.name.startsWith('memory with') && 'rss_growth_idle_mb' in f, of: 'rss', most: 100 },
];

/** Each floor with the figure measured, its ratio to the run's baseline and the verdict. */
function floorsOf(figures) {
  const baselines = figures.filter((f) => f.name === BASELINE && f.connections === 50).map((f) => f.requests_per_second);
  const baseline = baselines.length ? median(baselines) : null;
  return FLOORS.map(({ floor, find, of, least, most }) => {
    const figure = figures.find(find);
    const required = most !== undefined ? `< ${most} MB` : `≥ ${least}${of === 'events' ? ' ×' : ''} baseline`;
    if (!figure || (of !== 'rss' && baseline === null)) return { floor, required, verdict: 'not measured in this run' };
    if (of === 'rss') return { floor, measured: figure.rss_growth_idle_mb, required, verdict: figure.rss_growth_idle_mb < most ? 'met' : 'missed' };
    const measured = { ratio: figure.requests_per_second, events: figure.events_per_second, attempts: figure.attempts_per_second }[of];
    // A load measured beside its own baselines carries the median of its rounds' ratios.
    const ratio = of === 'ratio' && figure.ratio_to_baseline !== undefined ? figure.ratio_to_baseline : +(measured / baseline).toFixed(4);
    return { floor, measured, baseline, ratio, required, verdict: ratio >= least ? 'met' : 'missed' };
  });
}

module.exports = { floorsOf };
