// The API as the dashboard calls it, with the token the user pasted (kept in this tab only).
const KEY = 'voice-campaigns-token';

export const token = {
  get: () => sessionStorage.getItem(KEY),
  set: (value) => sessionStorage.setItem(KEY, value),
  clear: () => sessionStorage.removeItem(KEY),
};

/** The token was refused (401): the user is asked for it again. */
export class Unauthenticated extends Error {}

/** Any other refusal, with the API's own message. */
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** Calls `/api/user<path>`; answers the body and, for lists that send it, `X-Total-Count`. */
export async function api(method, path, body) {
  const headers = { authorization: `Bearer ${token.get()}`, accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`/api/user${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await response.json().catch(() => null);
  if (response.status === 401) {
    token.clear();
    throw new Unauthenticated(data?.message ?? 'Unauthenticated.');
  }
  if (!response.ok) throw new ApiError(response.status, data?.message ?? `The service answered ${response.status}.`);
  const total = response.headers.get('x-total-count');
  return { data, total: total === null ? null : Number(total) };
}

/** Builds an element; children are nodes or text (never parsed as HTML). */
export function h(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else if (key === 'className') node.className = value;
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat()) if (child !== null && child !== undefined && child !== false) node.append(child instanceof Node ? child : String(child));
  return node;
}

/** Shows a short message for screen readers and eyes alike. */
export function notify(message) {
  const notice = document.getElementById('notice');
  notice.textContent = message;
  clearTimeout(notify.timer);
  notify.timer = setTimeout(() => (notice.textContent = ''), 5000);
}

export const when = (iso) => (iso ? new Date(iso.includes('T') ? iso : `${iso.replace(' ', 'T')}Z`).toLocaleString() : '—');
