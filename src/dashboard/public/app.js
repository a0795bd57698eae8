import { ApiError, Unauthenticated, api, h, token } from './api.js';
import { campaignPage } from './campaign-page.js';
import { campaignsPage } from './campaigns-page.js';

const REFRESH_MS = 2000;
const main = document.getElementById('main');
const signOut = document.getElementById('sign-out');
let stopView = () => {};

/** Runs `load` now and every few seconds until the view changes; a refused token asks for it again. */
function every(load) {
  let timer = null;
  let stopped = false;
  const run = async () => {
    try {
      await load();
    } catch (error) {
      if (error instanceof Unauthenticated) return signIn('The token was refused. Paste a valid token.');
      const message = error instanceof ApiError ? error.message : 'The service could not be reached. Retrying…';
      showProblem(message);
    }
    if (!stopped) timer = setTimeout(run, REFRESH_MS);
  };
  void run();
  return () => ((stopped = true), clearTimeout(timer));
}

function showProblem(message) {
  let problem = main.querySelector('.problem');
  if (!problem) main.prepend((problem = h('p', { className: 'error problem', role: 'alert' })));
  problem.textContent = message;
}

function signIn(problem) {
  stopView();
  signOut.hidden = true;
  const input = h('input', { id: 'token', type: 'password', autocomplete: 'off', required: true });
  const form = h(
    'form',
    { className: 'card signin', onsubmit: (e) => (e.preventDefault(), token.set(input.value.trim()), route()) },
    h('h1', {}, 'Sign in'),
    problem ? h('p', { className: 'error', role: 'alert' }, problem) : null,
    h('label', { for: 'token' }, 'API token'),
    input,
    h('p', { className: 'meta' }, 'Made by npm run cli -- users:create. It stays in this tab only.'),
    h('button', { type: 'submit', className: 'primary' }, 'Sign in'),
  );
  main.replaceChildren(form);
  input.focus();
}

async function route() {
  stopView();
  if (!token.get()) return signIn();
  try {
    await api('GET', '/me');
  } catch (error) {
    if (error instanceof Unauthenticated) return signIn('The token was refused. Paste a valid token.');
    main.replaceChildren(h('p', { className: 'error', role: 'alert' }, 'The service could not be reached. Reload to try again.'));
    return;
  }
  signOut.hidden = false;
  const match = /^#\/campaigns\/(\d+)$/.exec(location.hash);
  stopView = match ? campaignPage(main, Number(match[1]), { every }) : campaignsPage(main, { every });
}

signOut.addEventListener('click', () => (token.clear(), signIn()));
window.addEventListener('hashchange', route);
void route();
