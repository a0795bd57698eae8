import { api, h } from './api.js';
import { campaignCard } from './campaign-card.js';

const PER_PAGE = 50;

/** The user's campaigns, refreshed every few seconds; each card is updated in place (focus stays). */
export function campaignsPage(main, { every }) {
  let page = 1;
  const cards = new Map();
  const list = h('div', { 'aria-live': 'off' });
  const state = h('p', { className: 'state', 'aria-busy': 'true' }, 'Loading campaigns…');
  const previous = h('button', { type: 'button', onclick: () => go(page - 1) }, 'Previous');
  const next = h('button', { type: 'button', onclick: () => go(page + 1) }, 'Next');
  const where = h('span', { className: 'meta' });
  main.replaceChildren(h('h1', {}, 'Campaigns'), state, list, h('nav', { className: 'pager', 'aria-label': 'Campaign pages' }, previous, where, next));

  async function load() {
    const { data } = await api('GET', `/campaigns?per_page=${PER_PAGE}&page=${page}`);
    state.removeAttribute('aria-busy');
    state.textContent = data.total === 0 ? 'No campaigns yet. Create one with POST /api/user/campaigns (see /docs).' : '';
    state.hidden = data.total !== 0;
    const shown = new Set();
    for (const campaign of data.data) {
      shown.add(campaign.id);
      const card = cards.get(campaign.id);
      if (card) card.update(campaign);
      else {
        const made = campaignCard(campaign, { onChanged: load });
        cards.set(campaign.id, made);
        list.append(made.root);
      }
    }
    for (const [id, card] of cards) {
      if (shown.has(id)) continue;
      card.root.remove();
      cards.delete(id);
    }
    previous.disabled = page <= 1;
    next.disabled = page >= data.last_page;
    where.textContent = data.total ? `page ${data.current_page} of ${data.last_page} · ${data.total} campaigns` : '';
  }

  function go(to) {
    page = to;
    for (const card of cards.values()) card.root.remove();
    cards.clear();
    return load();
  }

  return every(load);
}
