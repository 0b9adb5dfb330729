// The player's own games, their score card, and the leaderboard.

import { t } from './i18n.js';
import { api, identity, navigate } from './session.js';
import { h, problemText, toast } from './ui.js';

function card(title, ...children) {
  return h('section', { class: 'card list' }, h('h1', {}, title), ...children);
}

function seatName(seat) {
  if (seat.kind === 'open') return t('seat.open');
  if (seat.kind === 'computer') return t('seat.computer', t('level.' + seat.level));
  return seat.name;
}

/** Pages through a list endpoint with its `next_cursor`. */
function pager(load, row, table) {
  const more = h('button', { hidden: true }, t('more'));
  let cursor = null;
  const next = async () => {
    more.disabled = true;
    try {
      const page = await load(cursor);
      for (const item of page.items) table.append(row(item));
      cursor = page.next_cursor;
      more.hidden = !cursor;
      if (!table.children.length) table.append(h('li', { class: 'muted' }, t('list.empty')));
    } catch (e) {
      toast(problemText(e));
    }
    more.disabled = false;
  };
  more.addEventListener('click', next);
  next();
  return more;
}

export function gamesScreen(main) {
  const me = identity.get();
  if (!me) {
    main.append(card(t('nav.games'), h('p', {}, t('list.noPlayer')), h('a', { class: 'button primary', href: '/' }, t('nav.new'))));
    return;
  }
  const list = h('ul', { class: 'games', id: 'game-list' });
  const row = (g) => {
    const status = g.status === 'finished'
      ? (g.result?.winner ? t('result.short.win', t(g.result.winner)) : t('result.' + (g.result?.reason === 'declined' || g.result?.reason === 'cancelled' ? g.result.reason : 'short.draw')))
      : t('status.' + g.status);
    return h('li', {}, h('a', { href: `/g/${g.id}` },
      h('span', { class: 'vs' }, `${seatName(g.seats.black)} – ${seatName(g.seats.white)}`),
      h('span', { class: 'muted' }, `${t('rules.' + g.rules)} ${g.width}×${g.height} · ${t('moves', g.ply)} · ${status}`)));
  };
  const more = pager(async (cursor) => {
    const page = await api.games({ player: me.id, limit: 20, cursor });
    return { items: page.games, next_cursor: page.next_cursor };
  }, row, list);
  main.append(card(t('nav.games'), list, more));
}

export function leaderboardScreen(main) {
  const me = identity.get();
  const body = h('tbody', { id: 'leaderboard' });
  let rank = 0;
  const row = (p) => {
    rank += 1;
    return h('tr', { class: me && p.id === me.id ? 'me' : '' },
      h('td', {}, rank), h('td', {}, p.kind === 'computer' ? t('seat.computer', t('level.' + p.level)) : p.name),
      h('td', { class: 'num' }, p.score), h('td', { class: 'num' }, p.wins), h('td', { class: 'num' }, p.losses),
      h('td', { class: 'num' }, p.draws), h('td', { class: 'num' }, p.abandoned));
  };
  const table = h('table', { class: 'board-table' },
    h('thead', {}, h('tr', {}, ['#', t('card.name'), t('card.score'), t('card.wins'), t('card.losses'), t('card.draws'), t('card.abandoned')].map((x) => h('th', {}, x)))),
    body);
  const more = pager(async (cursor) => {
    const page = await api.leaderboard(cursor);
    return { items: page.players, next_cursor: page.next_cursor };
  }, row, body);
  main.append(card(t('nav.leaderboard'), table, more));
}

export function meScreen(main) {
  const me = identity.get();
  if (!me) {
    main.append(card(t('nav.me'), h('p', {}, t('list.noPlayer')), h('a', { class: 'button primary', href: '/' }, t('nav.new')), signIn()));
    return;
  }
  const stats = h('dl', { class: 'stats', id: 'score-card' });
  api.player(me.id).then((p) => {
    for (const k of ['score', 'wins', 'losses', 'draws', 'abandoned', 'games']) {
      stats.append(h('div', { dataset: { stat: k } }, h('dt', {}, t('card.' + k)), h('dd', {}, p[k])));
    }
  }).catch((e) => toast(problemText(e)));
  const token = h('code', { class: 'secret', hidden: true }, me.token);
  main.append(card(me.name, stats,
    h('p', { class: 'muted' }, t('card.kept'), ' ', h('code', {}, me.id)),
    h('div', { class: 'buttons' },
      h('button', { onclick: () => { token.hidden = !token.hidden; } }, t('card.showToken')),
      h('button', {
        class: 'danger',
        onclick: (e) => {
          if (e.target.dataset.sure) { identity.set(null); navigate('/'); } else { e.target.dataset.sure = '1'; e.target.textContent = t('card.forgetSure'); }
        },
      }, t('card.forget'))),
    token));
}

/** Playing as a player made elsewhere: their token is all it takes. */
function signIn() {
  const input = h('input', { id: 'token', placeholder: 'gbt_…', autocomplete: 'off' });
  const form = h('form', { class: 'buttons' }, input, h('button', { type: 'submit' }, t('card.signIn')));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const token = input.value.trim();
    if (!token) return;
    identity.set({ id: '', name: '', token });
    try {
      const p = await api.request('GET', '/v1/players/me');
      identity.set({ id: p.id, name: p.name, token });
      navigate('/me');
    } catch (err) {
      identity.set(null);
      toast(problemText(err));
    }
  });
  return h('div', {}, h('p', { class: 'muted' }, t('card.signInHelp')), form);
}
