// Starting a game: the rules, the board, the opponent, a colour and a clock.

import { t } from './i18n.js';
import { api, ensurePlayer, identity, navigate } from './session.js';
import { h, problemText, toast } from './ui.js';

const LEVELS = ['beginner', 'intermediate', 'advanced', 'expert'];
const OPENINGS = {
  freestyle: ['free', 'swap2', 'swap1'],
  standard: ['free', 'swap2', 'swap1'],
  renju: ['free', 'rif', 'yamaguchi', 'swap2', 'swap1'],
};
const CLOCKS = [0, 60_000, 180_000, 300_000, 600_000, 1_800_000];

function select(name, options, value) {
  return h('select', { name, id: 'f-' + name },
    options.map(([v, label]) => h('option', { value: v, selected: v === value }, label)));
}

function field(key, control) {
  return h('label', { class: 'field', for: control.id }, h('span', {}, t(key)), control);
}

/** The new-game form; the choices last time are the defaults. */
export function homeScreen(main) {
  let saved = {};
  try { saved = JSON.parse(localStorage.getItem('gobang.newgame')) || {}; } catch { /* none */ }
  const me = identity.get();
  const form = h('form', { class: 'card new-game', id: 'new-game' });
  const rules = select('rules', ['freestyle', 'standard', 'renju', 'tictactoe', 'custom'].map((r) => [r, t('rules.' + r)]), saved.rules || 'freestyle');
  const size = h('input', { name: 'size', id: 'f-size', type: 'number', min: 5, max: 26, value: saved.size || 15, inputmode: 'numeric' });
  const width = h('input', { name: 'width', id: 'f-width', type: 'number', min: 3, max: 26, value: saved.width || 7 });
  const height = h('input', { name: 'height', id: 'f-height', type: 'number', min: 3, max: 26, value: saved.height || 6 });
  const k = h('input', { name: 'k', id: 'f-k', type: 'number', min: 3, max: 26, value: saved.k || 4 });
  const opening = select('opening', [], saved.opening || 'free');
  const opponent = select('opponent', ['computer', 'local', 'online', 'anyone'].map((o) => [o, t('opponent.' + o)]), saved.opponent || 'computer');
  const level = select('level', LEVELS.map((l) => [l, t('level.' + l)]), saved.level || 'intermediate');
  const colour = select('colour', ['black', 'white', 'random'].map((c) => [c, t('colour.' + c)]), saved.colour || 'black');
  const clock = select('clock', CLOCKS.map((ms) => [String(ms), ms ? t('clock.minutes', ms / 60000) : t('clock.none')]), String(saved.clock ?? 0));
  const rated = h('input', { name: 'rated', id: 'f-rated', type: 'checkbox', checked: saved.rated ?? true });
  const fallback = select('fallback', [0, 30, 60].map((s) => [String(s), s ? t('fallback.after', s) : t('fallback.never')]), String(saved.fallback ?? 30));
  const name = h('input', { name: 'name', id: 'f-name', maxlength: 40, autocomplete: 'nickname', placeholder: t('name.placeholder') });
  const start = h('button', { type: 'submit', class: 'primary', id: 'start' }, t('start'));

  const rows = {
    size: field('field.size', size), width: field('field.width', width), height: field('field.height', height),
    k: field('field.k', k), opening: field('field.opening', opening), level: field('field.level', level),
    colour: field('field.colour', colour), clock: field('field.clock', clock),
    rated: field('field.rated', rated), fallback: field('field.fallback', fallback),
  };
  const sync = () => {
    const r = rules.value;
    rows.size.hidden = !(r === 'freestyle' || r === 'standard' || r === 'renju');
    size.disabled = r === 'renju';
    if (r === 'renju') size.value = 15;
    rows.width.hidden = rows.height.hidden = rows.k.hidden = r !== 'custom';
    const openings = OPENINGS[r] || [];
    rows.opening.hidden = openings.length === 0;
    const was = opening.value || saved.opening;
    opening.replaceChildren(...openings.map((o) => h('option', { value: o, selected: o === was }, t('opening.' + o))));
    rows.level.hidden = opponent.value !== 'computer';
    rows.colour.hidden = opponent.value === 'local';
    rows.clock.hidden = opponent.value === 'computer';
    rows.rated.hidden = rows.fallback.hidden = opponent.value !== 'anyone';
  };
  rules.addEventListener('change', sync);
  opponent.addEventListener('change', sync);

  form.append(
    h('h1', {}, t('home.title')),
    h('p', { class: 'lead' }, t('home.lead')),
    me ? h('p', { class: 'muted' }, t('home.as', me.name)) : field('field.name', name),
    field('field.rules', rules), rows.size, rows.width, rows.height, rows.k, rows.opening,
    field('field.opponent', opponent), rows.level, rows.colour, rows.clock, rows.rated, rows.fallback, start,
  );
  sync();

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const choice = {
      rules: rules.value, size: Number(size.value), width: Number(width.value), height: Number(height.value),
      k: Number(k.value), opening: opening.value, opponent: opponent.value, level: level.value,
      colour: colour.value, clock: Number(clock.value), rated: rated.checked, fallback: Number(fallback.value),
    };
    localStorage.setItem('gobang.newgame', JSON.stringify(choice));
    start.disabled = true;
    start.textContent = t('starting');
    try {
      await ensurePlayer(name.value);
      if (choice.opponent === 'anyone') {
        const paired = await findOpponent(form, seekRequest(choice));
        if (paired) navigate(`/g/${paired}`);
        else homeAgain(main);
        return;
      }
      const created = await api.createGame(gameRequest(choice));
      navigate(`/g/${created.game.id}`);
    } catch (err) {
      toast(problemText(err));
      start.disabled = false;
      start.textContent = t('start');
    }
  });

  main.append(h('section', { class: 'home' }, form, loadForm()));
}

/** The form again, after a search that found nobody or was stopped. */
function homeAgain(main) {
  main.replaceChildren();
  homeScreen(main);
}

/** Seeks a game and waits for the pairing (long polling, which keeps the
 * seek alive), showing how long it has waited and a button to stop; the
 * game's id once paired, or null. */
async function findOpponent(form, body) {
  let seek = await api.request('POST', '/v1/seeks', { body });
  const started = Date.now();
  const waited = h('p', { class: 'muted', id: 'seek-waited' }, t('seek.waited', 0));
  const stop = h('button', { type: 'button', id: 'cancel-seek' }, t('seek.cancel'));
  const card = h('section', { class: 'card new-game', id: 'seeking', 'data-seek': seek.id },
    h('h1', {}, t('seek.title')), waited, stop);
  form.replaceWith(card);
  const timer = setInterval(() => {
    waited.textContent = t('seek.waited', Math.round((Date.now() - started) / 1000));
  }, 1000);
  const controller = new AbortController();
  // The cancellation under way, awaited before the form comes back so that
  // whoever looks next finds the seek cancelled.
  let stopping = null;
  stop.addEventListener('click', () => {
    if (stopping) return;
    stop.disabled = true;
    stopping = api.request('DELETE', `/v1/seeks/${encodeURIComponent(seek.id)}`).catch((err) => {
      toast(problemText(err));
      return seek;
    });
    controller.abort();
  });
  try {
    while (seek.status === 'waiting' && !stopping) {
      try {
        seek = await api.request('GET', `/v1/seeks/${encodeURIComponent(seek.id)}`, { query: { wait: 25 }, signal: controller.signal });
      } catch (err) {
        if (err.name === 'AbortError') break;
        throw err;
      }
    }
    if (stopping) seek = await stopping;
  } finally {
    clearInterval(timer);
  }
  // A pairing that came just as the person stopped still stands.
  if (seek.status === 'paired') return seek.game_id;
  if (seek.status === 'expired') toast(t('seek.expired'));
  return null;
}

/** The body of `POST /v1/seeks` for the form's choices. */
export function seekRequest(c) {
  const game = gameRequest({ ...c, opponent: 'online', colour: 'black' });
  const body = { rules: game.rules, rated: c.rated };
  for (const key of ['board_size', 'width', 'height', 'k', 'opening', 'clock']) {
    if (game[key] !== undefined) body[key] = game[key];
  }
  if (c.colour !== 'random') body.colour = c.colour;
  if (c.fallback > 0) body.computer = { after_s: c.fallback };
  return body;
}

/** Loading a record file as a new game (POST /v1/games/import). */
function loadForm() {
  const file = h('input', { type: 'file', id: 'load-file', accept: '.sgf,.psq,.txt,.json,text/plain' });
  const against = select('against', [['me', t('opponent.local')], ...LEVELS.map((l) => [l, t('seat.computer', t('level.' + l))])], 'me');
  const button = h('button', { type: 'submit', id: 'load' }, t('load.button'));
  const form = h('form', { class: 'card new-game', id: 'load-game' },
    h('h1', {}, t('load.title')), h('p', { class: 'muted' }, t('load.help')),
    field('load.file', file), field('load.against', against), button);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const chosen = file.files && file.files[0];
    if (!chosen) return;
    button.disabled = true;
    try {
      await ensurePlayer();
      const text = await chosen.text();
      // The side to move after the record is whoever is not "me": the
      // computer takes the colour that moves next only if chosen.
      const body = { record: text };
      if (against.value !== 'me') body.white = { ai: against.value };
      const created = await api.request('POST', '/v1/games/import', { body });
      navigate(`/g/${created.game.id}`);
    } catch (err) {
      toast(problemText(err));
      button.disabled = false;
    }
  });
  return form;
}

/** The body of `POST /v1/games` for the form's choices. */
export function gameRequest(c) {
  const body = { rules: c.rules };
  if (c.rules === 'freestyle' || c.rules === 'standard') body.board_size = c.size;
  if (c.rules === 'custom') Object.assign(body, { width: c.width, height: c.height, k: c.k });
  if (OPENINGS[c.rules] && c.opening && c.opening !== 'free') body.opening = c.opening;
  const mine = c.colour === 'random' ? (Math.random() < 0.5 ? 'black' : 'white') : c.colour;
  const other = { computer: { ai: c.level }, local: 'me', online: 'open' }[c.opponent];
  if (c.opponent === 'local') {
    body.black = 'me';
    body.white = 'me';
  } else {
    body[mine] = 'me';
    body[mine === 'black' ? 'white' : 'black'] = other;
  }
  if (c.opponent !== 'computer' && c.clock > 0) body.clock = { main_ms: c.clock };
  return body;
}
