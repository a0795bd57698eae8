import { h } from './api.js';

/**
 * A table of one page of a list, with the API's filters and previous/next; `fetchPage(page,
 * query)` answers `{rows, total}` (`query`: the filters set, as URL parameters). Rows are
 * rebuilt on refresh; a row's open details stay open.
 */
export function pagedTable({ caption, columns, filters, fetchPage, perPage }) {
  let page = 1;
  const values = new URLSearchParams();
  const id = caption.toLowerCase().replace(/\W+/g, '-');
  const set = (name, value) => {
    if (value) values.set(name, value);
    else values.delete(name);
    page = 1;
    return refresh();
  };
  const controls = filters.flatMap((f) => {
    const control = f.options
      ? h('select', { id: `${id}-${f.name}` }, h('option', { value: '' }, 'any'), ...f.options.map((o) => h('option', { value: o }, o)))
      : h('input', { id: `${id}-${f.name}`, type: f.type ?? 'search', placeholder: f.placeholder });
    // Text applies when it is complete (Enter or leaving the field), not at every key.
    control.addEventListener('change', (e) => set(f.name, e.target.value.trim()));
    return [h('label', { for: control.id }, f.label), control];
  });
  const body = h('tbody', {});
  const state = h('p', { className: 'state', 'aria-busy': 'true' }, 'Loading…');
  const previous = h('button', { type: 'button', onclick: () => ((page -= 1), refresh()) }, 'Previous');
  const next = h('button', { type: 'button', onclick: () => ((page += 1), refresh()) }, 'Next');
  const where = h('span', { className: 'meta' });
  const root = h(
    'section',
    { 'aria-labelledby': `${id}-title` },
    h('h2', { id: `${id}-title` }, caption),
    h('div', { className: 'filters' }, ...controls),
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
    const { rows, total } = await fetchPage(page, values.toString());
    const pages = Math.max(1, Math.ceil(total / perPage));
    state.removeAttribute('aria-busy');
    state.hidden = total !== 0;
    state.textContent = values.size ? `No ${caption.toLowerCase()} match these filters.` : `No ${caption.toLowerCase()} yet.`;
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
