import { api, h, when } from './api.js';
import { campaignCard } from './campaign-card.js';
import { callsChart } from './calls-chart.js';
import { leadDrop } from './lead-drop.js';
import { pagedTable } from './paged-table.js';
import { reportSection } from './report-section.js';
import { forecastSection } from './forecast-section.js';

const PER_PAGE = 20;
const CALL_STATUSES = ['initiated', 'ringing', 'busy', 'in-progress', 'ended', 'completed', 'ended_by_customer', 'ended_by_assistant', 'no-answer', 'failed'];

const transcript = (text) => (text ? h('details', {}, h('summary', {}, 'transcript'), h('pre', {}, text)) : '—');

/** One campaign: its card, report, forecast, calls per hour, its leads and calls with paging and filters, a lead import, and its history. */
export function campaignPage(main, id, { every }) {
  const report = reportSection(id);
  const forecast = forecastSection();
  const chart = callsChart();
  const leads = pagedTable({
    caption: 'Leads',
    perPage: PER_PAGE,
    filters: [
      { name: 'status', label: 'Status', options: ['created', 'completed', 'reached-max-retries'] },
      { name: 'phone_number', label: 'Phone', placeholder: '+12025550101' },
    ],
    columns: [
      { title: 'Phone', cell: (l) => l.phone_number },
      { title: 'Status', cell: (l) => l.status },
      { title: 'Attempts', cell: (l) => String(l.attempts ?? '—') },
      { title: 'Next attempt', cell: (l) => when(l.next_attempt_at) },
      { title: 'Secondary contacts', cell: (l) => String(l.secondary_contacts.length) },
    ],
    fetchPage: async (page, query) => {
      const { data, total } = await api('GET', `/leads?campaign_id=${id}&per_page=${PER_PAGE}&page=${page}&${query}`);
      return { rows: data, total };
    },
  });
  const calls = pagedTable({
    caption: 'Calls',
    perPage: PER_PAGE,
    filters: [
      { name: 'status', label: 'Status', options: CALL_STATUSES },
      { name: 'phone_number', label: 'Phone', placeholder: '+12025550101' },
      { name: 'date_from', label: 'From', type: 'date' },
      { name: 'date_to', label: 'To', type: 'date' },
    ],
    columns: [
      { title: 'Started', cell: (c) => when(c.created_at) },
      { title: 'Number', cell: (c) => c.client_phone_number },
      { title: 'Status', cell: (c) => c.status },
      { title: 'Provider', cell: (c) => c.provider ?? '—' },
      { title: 'Why it failed', cell: (c) => c.failure_reason ?? '—' },
      { title: 'Duration', cell: (c) => `${c.duration} s` },
      { title: 'Answered by', cell: (c) => c.answered_by ?? '—' },
      { title: 'Transcript', cell: (c) => transcript(c.transcript) },
      { title: 'Recording', cell: (c) => (c.recording_url ? h('a', { href: c.recording_url, rel: 'noopener' }, 'listen') : '—') },
    ],
    fetchPage: async (page, query) => {
      const { data } = await api('GET', `/calls?campaign_id=${id}&per_page=${PER_PAGE}&page=${page}&${query}`);
      return { rows: data.data, total: data.total };
    },
  });
  const history = historyList(id);
  const drop = leadDrop(id, () => void load());
  const head = h('div', {});
  main.replaceChildren(
    h('p', {}, h('a', { href: '#/' }, '← All campaigns')),
    head,
    report.root,
    forecast.root,
    chart.root,
    leads.root,
    drop.root,
    calls.root,
    history.root,
  );
  let card = null;

  async function load() {
    const { data: campaign } = await api('GET', `/campaigns/${id}`);
    if (card) card.update(campaign);
    else {
      card = campaignCard(campaign, { link: false, onChanged: load });
      head.replaceChildren(h('h1', {}, campaign.name), card.root);
      document.title = `${campaign.name} · Voice campaigns`;
    }
    const shown = async () => {
      const { data } = await api('GET', `/campaigns/${id}/report`);
      report.update(data);
      chart.update(data.by_hour);
      forecast.update((await api('GET', `/campaigns/${id}/forecast`)).data);
    };
    await Promise.all([leads.refresh(), calls.refresh(), shown()]);
  }

  const stop = every(load);
  void history.more();
  return () => {
    stop();
    chart.destroy();
  };
}

/** The campaign's audit trail, oldest first, fifty events at a time. */
/** docs/teams.md: who an entry was written for. */
const actorName = (actor) => (actor.type === 'system' ? 'system' : `${actor.type === 'api_key' ? 'API key' : 'user'} ${actor.id}`);

function historyList(id) {
  let cursor = 0;
  const list = h('ol', { className: 'card', 'data-history': '' });
  const more = h('button', { type: 'button', onclick: () => load() }, 'Load more');
  const root = h('section', { 'aria-labelledby': 'history-title' }, h('h2', { id: 'history-title' }, 'History'), list, more);

  async function load() {
    const { data } = await api('GET', `/campaigns/${id}/history?limit=50&after=${cursor}`);
    list.append(
      ...data.data.map((e) =>
        h('li', {}, h('strong', {}, e.type), ` · ${e.stream} · ${when(e.occurred_at)} · `, h('span', { 'data-actor': '' }, actorName(e.actor))),
      ),
    );
    if (data.next_cursor !== null) cursor = Number(data.next_cursor);
    more.hidden = data.data.length < 50;
    if (!list.children.length) list.replaceChildren(h('li', { className: 'state' }, 'Nothing recorded yet.'));
  }

  return { root, more: load };
}
