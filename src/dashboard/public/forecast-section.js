import { h } from './api.js';

const REASONS = {
  do_not_call: 'every number on the do-not-call list',
  no_timezone: 'no time zone known while quiet hours apply',
  window_never_opens: 'its calling window never opens',
};
const when = (iso) => (iso ? new Date(iso).toLocaleString() : '—');

/** docs/forecast.md: when the campaign ends, its dials per day as bars, and the leads never callable and why. */
export function forecastSection() {
  const figures = h('dl', { className: 'figures', 'data-forecast': '' });
  const days = h('div', { className: 'forecast-days', 'data-forecast-days': '', role: 'list', 'aria-label': 'Dials per day' });
  const never = h('ul', { 'data-never-callable': '' });
  const root = h('section', { 'aria-labelledby': 'forecast-title' }, h('h2', { id: 'forecast-title' }, 'Forecast'), figures, days, never);

  function update(forecast) {
    const { answer_rate, average_call_seconds, source } = forecast.assumptions;
    const shown = [
      ['First dial', when(forecast.first_dial_at)],
      ['Ends', when(forecast.ends_at)],
      ['Callable leads', `${forecast.leads.callable} of ${forecast.leads.total}`],
      ['Assumed', `${Math.round(answer_rate * 100)} % answered, ${average_call_seconds} s a call (${source === 'history' ? 'its calls so far' : 'defaults'})`],
    ];
    figures.replaceChildren(...shown.flatMap(([term, value]) => [h('dt', {}, term), h('dd', {}, value)]));
    const most = Math.max(1, ...forecast.by_day.map((day) => day.dials));
    days.replaceChildren(
      ...forecast.by_day.map((day) => {
        const bar = h('span', { className: 'bar' });
        // Through the style object: the page's policy refuses inline style attributes.
        bar.style.width = `${((day.dials / most) * 60).toFixed(1)}%`;
        return h('div', { className: 'bar-row', role: 'listitem' }, h('span', {}, day.date), bar, h('span', {}, `${day.dials} dials`));
      }),
    );
    const reasons = Object.entries(forecast.leads.never_callable.by_reason);
    never.replaceChildren(...reasons.map(([reason, count]) => h('li', { 'data-reason': reason }, `${count} never callable: ${REASONS[reason] ?? reason}`)));
  }

  return { root, update };
}
