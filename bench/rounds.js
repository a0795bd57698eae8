// This machine's speed drifts by tens of percent within minutes. Every load is therefore measured
// in rounds, each round running the baseline and then every load beside it once, and a figure is
// the median over the rounds, with the slowest and fastest round beside it.

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** A rate measured once per round: the median, and the slowest and fastest round. */
function rateOfRounds(rates) {
  return { rate: Math.round(median(rates)), range: [Math.min(...rates), Math.max(...rates)] };
}

/** Figures of a load that are a median over its rounds when the load measured them. */
const CPU_PER_REQUEST = ['service_cpu_us_per_request', 'service_main_thread_cpu_us_per_request', 'load_generator_cpu_us_per_request'];

/** One figure from the same load measured once per round. */
function summarise(samples, extra = {}) {
  const cpu = CPU_PER_REQUEST.filter((key) => key in samples[0]).map((key) => [key, median(samples.map((s) => s[key]))]);
  const { rate, range } = rateOfRounds(samples.map((s) => s.requests_per_second));
  return {
    name: samples[0].name,
    connections: samples[0].connections,
    requests_per_second: rate,
    requests_per_second_range: range,
    p50_ms: median(samples.map((s) => s.p50_ms)),
    p99_ms: median(samples.map((s) => s.p99_ms)),
    non_2xx: samples.reduce((sum, s) => sum + s.non_2xx, 0),
    errors: samples.reduce((sum, s) => sum + s.errors, 0),
    rounds: samples.length,
    ...Object.fromEntries(cpu),
    ...extra,
  };
}

/**
 * Runs `rounds` rounds of the baseline followed by each load, and answers the baseline's figure
 * and each load's, whose ratio to the baseline is the median of the ratios within each round.
 */
async function inRounds(rounds, runBaseline, loads) {
  const base = [];
  const samples = loads.map(() => []);
  for (let round = 0; round < rounds; round++) {
    base.push(await runBaseline());
    for (const [i, run] of loads.entries()) samples[i].push(await run());
  }
  return {
    baseline: summarise(base),
    figures: samples.map((s) =>
      summarise(s, { ratio_to_baseline: +median(s.map((sample, round) => sample.requests_per_second / base[round].requests_per_second)).toFixed(3) }),
    ),
  };
}

module.exports = { median, rateOfRounds, inRounds };
