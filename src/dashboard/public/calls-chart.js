import { h } from './api.js';

const HOUR = 3600;

/** Calls per hour, from the campaign report's `by_hour` (UTC hours), drawn with uPlot (served locally). */
export function callsChart() {
  const plot = h('div', { className: 'chart', role: 'img', 'aria-label': 'Calls per hour: none yet' });
  const summary = h('p', { className: 'meta' });
  const root = h('section', { 'aria-labelledby': 'chart-title' }, h('h2', { id: 'chart-title' }, 'Calls per hour'), plot, summary);
  let chart = null;
  let shown = '';
  const fit = () => chart?.setSize({ width: Math.max(280, plot.clientWidth), height: 200 });
  window.addEventListener('resize', fit);

  function update(byHour) {
    const counts = new Map(byHour.filter((x) => x.calls > 0).map((x) => [Date.parse(x.hour) / 1000, x.calls]));
    const total = byHour.reduce((sum, x) => sum + x.calls, 0);
    const hours = [...counts.keys()].sort((a, b) => a - b);
    const key = hours.map((x) => `${x}:${counts.get(x)}`).join(',');
    if (key === shown) return;
    shown = key;
    const peak = Math.max(0, ...counts.values());
    const label = total ? `${total} calls over ${hours.length} hour${hours.length === 1 ? '' : 's'}, at most ${peak} in one hour` : 'No calls yet';
    plot.setAttribute('aria-label', `Calls per hour: ${label}`);
    summary.textContent = label;
    chart?.destroy();
    chart = null;
    if (!hours.length) return;
    const width = Math.max(280, plot.clientWidth || 600);
    const now = Math.floor(Date.now() / 1000 / HOUR) * HOUR;
    chart = new window.uPlot(
      {
        width,
        height: 200,
        // At least the last twelve hours, so one busy hour reads as an hour, not as a year.
        scales: { x: { time: true, range: [Math.min(hours[0], now - 12 * HOUR) - HOUR, now + HOUR] }, y: { range: [0, Math.max(1, peak)] } },
        series: [{}, { label: 'calls', stroke: '#2456d6', fill: '#2456d655', paths: window.uPlot.paths.bars({ size: [0.6, 40] }) }],
        axes: [{}, { label: 'calls' }],
      },
      [hours, hours.map((x) => counts.get(x))],
      plot,
    );
  }

  /** Leaving the page: the chart no longer follows the window. */
  const destroy = () => {
    window.removeEventListener('resize', fit);
    chart?.destroy();
  };

  return { root, update, destroy };
}
