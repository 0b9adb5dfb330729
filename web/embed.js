// A live board for an <iframe> on another site: no controls, it follows the
// game. The address is /embed/{game_id}.

import { Api } from './api.js';
import { BoardView } from './board.js';
import { applyStatic, t } from './i18n.js';
import { follow } from './live.js';
import { resultText } from './game.js';
import { h } from './ui.js';

const api = new Api(() => null);
const main = document.getElementById('main');
const id = (location.pathname.match(/^\/embed\/([A-Za-z0-9_-]+)/) || [])[1];
const host = h('div', { class: 'board-wrap' });
const line = h('p', { class: 'status', id: 'status', 'aria-live': 'polite' });
main.append(host, line);
const board = new BoardView(host, { label: (k, ...a) => t(k, ...a) });
applyStatic();

function show(game) {
  board.render({ game });
  const seat = (s) => (game.seats[s].kind === 'computer' ? t('seat.computer', t('level.' + game.seats[s].level)) : game.seats[s].name || t('seat.open'));
  const state = game.status === 'finished' ? resultText(game)
    : game.status === 'waiting' ? t('status.waiting') : t('status.toMove', t(game.to_move), t(game.to_move));
  line.replaceChildren(
    h('a', { href: `/g/${game.id}`, target: '_blank', rel: 'noopener' }, `● ${seat('black')} – ○ ${seat('white')}`),
    ` · ${state}`);
  main.dataset.version = game.version;
}

if (!id) {
  line.textContent = t('game.missing');
} else {
  api.game(id).then((game) => {
    show(game);
    follow(api, id, game.version, show);
  }).catch((e) => { line.textContent = e.message; });
}
