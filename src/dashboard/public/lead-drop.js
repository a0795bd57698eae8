import { ApiError, api, h, token } from './api.js';

/**
 * A CSV of leads dropped on the campaign's page (or chosen with the button) goes through the
 * import route; its progress and its refused rows are shown until it ends.
 */
export function leadDrop(campaignId, onImported) {
  const progress = h('p', { className: 'meta', role: 'status', 'data-import-progress': '' });
  const errors = h('ol', { 'data-import-errors': '' });
  const input = h('input', { type: 'file', accept: '.csv,text/csv', id: 'lead-file', onchange: () => input.files[0] && send(input.files[0]) });
  const zone = h(
    'div',
    { className: 'dropzone', 'data-dropzone': '' },
    'Drop a CSV of leads here, or ',
    h('label', { htmlFor: 'lead-file' }, 'choose a file'),
    input,
  );
  zone.addEventListener('dragover', (event) => {
    event.preventDefault();
    zone.classList.add('over');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('over'));
  zone.addEventListener('drop', (event) => {
    event.preventDefault();
    zone.classList.remove('over');
    const file = event.dataTransfer?.files?.[0];
    if (file) void send(file);
  });
  const root = h('section', { 'aria-labelledby': 'import-title' }, h('h2', { id: 'import-title' }, 'Import leads'), zone, progress, errors);

  async function send(file) {
    errors.replaceChildren();
    progress.textContent = `Sending ${file.name}…`;
    try {
      const response = await fetch(`/api/user/campaigns/${campaignId}/leads/import`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token.get()}`, 'content-type': 'text/csv', accept: 'application/json' },
        body: file,
      });
      const answer = await response.json();
      if (!response.ok) throw new ApiError(response.status, answer.message);
      await follow(answer.data.id);
      onImported();
    } catch (error) {
      progress.textContent = error.message;
    }
  }

  async function follow(importId) {
    for (;;) {
      const { data } = await api('GET', `/lead-imports/${importId}`);
      progress.textContent = `${data.status}: ${data.rows} rows read, ${data.accepted} accepted, ${data.duplicates} duplicates, ${data.invalid} refused`;
      errors.replaceChildren(...data.errors.map((e) => h('li', {}, `Row ${e.row}: ${e.message}`)));
      if (data.status !== 'running') return;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }

  return { root };
}
