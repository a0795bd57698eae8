import { api, h, notify, ApiError } from './api.js';

const LEAD_STATUSES = ['created', 'completed', 'reached-max-retries'];
const LABELS = { created: 'waiting', completed: 'completed', 'reached-max-retries': 'reached max retries' };

/** A campaign's card: name, status, leads by status, calls in flight, start and stop; updated in place. */
export function campaignCard(campaign, { link = true, onChanged }) {
  const title = h('h2', {});
  const status = h('span', { className: 'badge' });
  const reason = h('span', { className: 'meta' });
  const bar = h('div', { className: 'progress', role: 'img' });
  const legend = h('div', { className: 'legend' });
  const inFlight = h('span', { className: 'meta' });
  const start = h('button', { type: 'button', className: 'primary', onclick: () => change('start') }, 'Start');
  const stop = h('button', { type: 'button', onclick: () => change('stop') }, 'Stop');
  const root = h(
    'article',
    { className: 'card campaign', 'data-campaign': campaign.id },
    h('div', {}, title, h('div', {}, status, ' ', reason)),
    h('div', {}, bar, legend),
    h('div', { className: 'actions' }, inFlight, start, stop),
  );
  let current = campaign;

  async function change(action) {
    start.disabled = stop.disabled = true;
    try {
      const { data } = await api('POST', '/campaigns/update-status', { campaign_id: current.id, action });
      notify(data.message);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      notify(error.message);
    }
    await onChanged?.();
  }

  function update(c) {
    current = c;
    const name = link ? h('a', { href: `#/campaigns/${c.id}` }, c.name) : c.name;
    title.replaceChildren(name);
    status.textContent = c.status;
    status.className = `badge ${c.status}`;
    reason.textContent = c.stopped_reason ? `stopped by ${c.stopped_reason}` : c.last_error ? `dialing failed: ${c.last_error.message}` : '';
    const counts = c.stats.leads;
    const total = LEAD_STATUSES.reduce((sum, s) => sum + (counts[s] ?? 0), 0);
    const done = (counts.completed ?? 0) + (counts['reached-max-retries'] ?? 0);
    bar.setAttribute('aria-label', `${done} of ${total} leads done`);
    bar.replaceChildren(
      ...LEAD_STATUSES.map((s) => {
        const part = h('span', { className: s });
        part.style.width = `${total ? (100 * (counts[s] ?? 0)) / total : 0}%`;
        return part;
      }),
    );
    legend.replaceChildren(...LEAD_STATUSES.map((s) => h('span', { 'data-status': s }, `${LABELS[s]}: ${counts[s] ?? 0}`)));
    inFlight.textContent = `${c.stats.calls_in_flight} in flight`;
    start.disabled = c.status === 'in-progress' || c.status === 'completed';
    stop.disabled = c.status !== 'in-progress';
  }

  update(campaign);
  return { root, update };
}
