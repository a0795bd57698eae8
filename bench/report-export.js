// docs/reports.md's two goals, on the service holding the bench's million calls: the campaign
// report (p99 ≤ 20 ms at 10 connections, served from counters) and the calls export (at least
// 50,000 rows/s, the service's RSS growing less than 50 MB while it streams).
const { rssMb } = require('./service');

/** Streams one export to the end, counting its rows, with the service's peak RSS meanwhile. */
async function exportRun(service, token, path, log) {
  const before = rssMb(service.pid);
  let peak = before;
  const watch = setInterval(() => (peak = Math.max(peak, rssMb(service.pid))), 100);
  const started = performance.now();
  let rows = -1; // the header row
  try {
    const res = await fetch(`${service.url}${path}`, { headers: { authorization: `Bearer ${token}`, accept: 'text/csv' } });
    if (!res.ok) throw new Error(`${path} answered ${res.status}`);
    const decoder = new TextDecoder();
    for await (const chunk of res.body) {
      const text = decoder.decode(chunk, { stream: true });
      for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) rows++;
    }
  } finally {
    clearInterval(watch);
  }
  const seconds = (performance.now() - started) / 1000;
  const figure = {
    name: `GET ${path.split('?')[0]} (CSV)`,
    rows,
    seconds: Math.round(seconds * 10) / 10,
    rows_per_second: Math.round(rows / seconds),
    rss_before_mb: Math.round(before),
    rss_growth_mb: Math.round(peak - before),
    goal: '≥ 50,000 rows/s, RSS growth < 50 MB',
  };
  figure.verdict = figure.rows_per_second >= 50_000 && figure.rss_growth_mb < 50 ? 'met' : 'missed';
  log('export', JSON.stringify(figure));
  return figure;
}

/** `load` is run.js's measured load; `headers` carry the user's token. */
async function reportAndExport({ service, token, headers, campaignId, calls, load, log }) {
  const report = await load(`GET /api/user/campaigns/:id/report (${calls} calls)`, service.pid, {
    url: `${service.url}/api/user/campaigns/${campaignId}/report`,
    connections: 10,
    headers,
  });
  report.goal = 'p99 ≤ 20 ms at 10 connections';
  report.verdict = report.p99_ms <= 20 && report.non_2xx === 0 ? 'met' : 'missed';
  // Every call of the organisation: the campaign's and the inbound ones, the million of the goal.
  return [report, await exportRun(service, token, '/api/user/calls/export', log)];
}

module.exports = { reportAndExport };
