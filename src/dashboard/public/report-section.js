import { ApiError, h, token } from './api.js';

const percent = (rate) => `${(rate * 100).toFixed(1)} %`;
const EXPORTS = [
  ['calls', 'text/csv', 'Calls (CSV)'],
  ['calls', 'application/x-ndjson', 'Calls (NDJSON)'],
  ['leads', 'text/csv', 'Leads (CSV)'],
  ['leads', 'application/x-ndjson', 'Leads (NDJSON)'],
];

/** Downloads an export with the pasted token (a plain link could not send it). */
async function download(what, accept, campaignId) {
  const response = await fetch(`/api/user/${what}/export?campaign_id=${campaignId}`, { headers: { authorization: `Bearer ${token.get()}`, accept } });
  if (!response.ok) throw new ApiError(response.status, `The export answered ${response.status}.`);
  const url = URL.createObjectURL(await response.blob());
  const link = h('a', { href: url, download: `${what}-campaign-${campaignId}.${accept === 'text/csv' ? 'csv' : 'ndjson'}` });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** docs/reports.md: how the campaign went (from its report) and its exports. */
export function reportSection(campaignId) {
  const figures = h('dl', { className: 'figures', 'data-report': '' });
  const outcomes = h('div', { 'data-outcomes': '' });
  const note = h('p', { className: 'meta', role: 'status' });
  const links = h(
    'p',
    { 'data-exports': '' },
    'Export: ',
    ...EXPORTS.flatMap(([what, accept, label], i) => [
      i ? ' · ' : '',
      h(
        'a',
        {
          href: `/api/user/${what}/export?campaign_id=${campaignId}`,
          'data-export': `${what} ${accept}`,
          onclick: (event) => {
            event.preventDefault();
            note.textContent = `Preparing ${label}…`;
            download(what, accept, campaignId).then(
              () => (note.textContent = `${label} downloaded.`),
              (error) => (note.textContent = error.message),
            );
          },
        },
        label,
      ),
    ]),
  );
  const root = h('section', { 'aria-labelledby': 'report-title' }, h('h2', { id: 'report-title' }, 'Report'), figures, outcomes, links, note);

  function update(report) {
    const shown = [
      ['Leads', `${report.leads.total} (${report.leads.by_status.completed} completed, ${report.leads.by_status['reached-max-retries']} out of retries)`],
      ['Calls', String(report.calls.total)],
      ['Reached', String(report.calls.reached)],
      ['Answer rate', percent(report.calls.answer_rate)],
      ['Machine rate', percent(report.calls.machine_rate)],
      ['Average call', `${report.calls.average_duration_seconds} s`],
      ['Minutes', (report.calls.total_duration_seconds / 60).toFixed(1)],
      ['Cost', `$${report.calls.total_cost.toFixed(2)}`],
      [
        'Completed at attempt',
        Object.entries(report.completed_at_attempt)
          .map(([n, count]) => `#${n}: ${count}`)
          .join(', ') || '—',
      ],
    ];
    figures.replaceChildren(...shown.flatMap(([term, value]) => [h('dt', {}, term), h('dd', { 'data-figure': term }, value)]));
    const fields = Object.entries(report.outcomes);
    outcomes.replaceChildren(
      ...(fields.length
        ? [
            h('h3', {}, 'Outcomes'),
            ...fields.map(([field, values]) =>
              h(
                'p',
                { 'data-outcome': field },
                h('strong', {}, field),
                ': ',
                Object.entries(values)
                  .map(([value, n]) => `${value} (${n})`)
                  .join(', '),
              ),
            ),
          ]
        : []),
    );
  }

  return { root, update };
}
