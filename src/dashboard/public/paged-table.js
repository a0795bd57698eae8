import { h } from './api.js';

/**
 * A table of one page of a list, with a status filter and previous/next; `fetchPage(page,
 * status)` answers `{rows, total}`. Rows are rebuilt on refresh; `keep` names a row whose
 * open details stay open.
 */
export function pagedTable({ caption, columns, statuses, fetchPage, perPage }) {
  let page = 1;
  let status = '';
  const id = caption.toLowerCase().replace(/\W+/g, '-');
  const filter = h(
    'select',
    { id: `${id}-status`, onchange: (e) => ((status = e.target.value), (page = 1), refresh()) },
    h('option', { value: '' }, 'any'),
    ...statuses.map((s) => h('option', { value: s }, s)),
  );
  const body = h('tbody', {});
  const state = h('p', { className: 'state', 'aria-busy': 'true' }, 'Loading…');
  const previous = h('button', { type: 'button', onclick: () => ((page -= 1), refresh()) }, 'Previous');
  const next = h('button', { type: 'button', onclick: () => ((page += 1), refresh()) }, 'Next');
  const where = h('span', { className: 'meta' });
  const root = h(
    'section',
    { 'aria-labelledby': `${id}-title` },
    h('h2', { id: `${id}-title` }, caption),
    h('div', { className: 'filters' }, h('label', { for: `${id}-status` }, 'Status'), filter),
    state,
    h(
      'div',
      { className: 'table-wrap' },
      h('table', { 'data-table': id }, h('thead', {}, h('tr', {}, ...columns.map((c) => h('th', { scope: 'col' }, c.title)))), body),
    ),
    h('nav', { className: 'pager', 'aria-label': `${caption} pages` }, previous, where, next),
  );
  const open = new Set();

  async function refresh() {
    const { rows, total } = await fetchPage(page, status);
    const pages = Math.max(1, Math.ceil(total / perPage));
    state.removeAttribute('aria-busy');
    state.hidden = total !== 0;
    state.textContent = status ? `No ${caption.toLowerCase()} are ${status}.` : `No ${caption.toLowerCase()} yet.`;
    body.replaceChildren(
      ...rows.map((row) => {
        const cells = columns.map((c) => h('td', {}, c.cell(row)));
        for (const details of cells.flatMap((cell) => [...cell.querySelectorAll('details')])) {
          const key = `${row.id}`;
          details.open = open.has(key);
          details.addEventListener('toggle', () => (details.open ? open.add(key) : open.delete(key)));
        }
        return h('tr', { 'data-id': row.id }, ...cells);
      }),
    );
    previous.disabled = page <= 1;
    next.disabled = page >= pages;
    where.textContent = total ? `page ${page} of ${pages} · ${total}` : '';
  }

  return { root, refresh };
}
