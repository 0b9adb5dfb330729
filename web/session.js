// Who is playing in this browser, the API client that speaks for them, and
// moving between pages. Screens import from here, never from the shell.

import { Api } from './api.js';
import { t } from './i18n.js';

const KEY = 'gobang.player';

/** The player this browser plays as: `{id, name, token}`, or null. */
export const identity = {
  get() {
    try { return JSON.parse(localStorage.getItem(KEY)); } catch { return null; }
  },
  set(player) {
    if (player) localStorage.setItem(KEY, JSON.stringify({ id: player.id, name: player.name, token: player.token }));
    else localStorage.removeItem(KEY);
  },
};

export const api = new Api(() => identity.get()?.token ?? null);

/** The stored player, made first if there is none yet. */
export async function ensurePlayer(name) {
  const known = identity.get();
  if (known) return known;
  const wanted = (name || '').trim() || `${t('guest')} ${Math.random().toString(36).slice(2, 6)}`;
  const created = await api.createPlayer(wanted);
  identity.set(created);
  return created;
}

/** Goes to a page of the app without reloading. */
export function navigate(path) {
  if (path !== location.pathname) history.pushState(null, '', path);
  window.dispatchEvent(new Event('gobang:navigate'));
  window.scrollTo(0, 0);
}
