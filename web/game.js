// A game: the board, the players and their clocks, and every action the
// state allows the person at this screen — moves, the opening's decisions,
// undo and redo, hints, offers, resigning, rematches — followed live.

import { BoardView } from './board.js';
import { t } from './i18n.js';
import { follow } from './live.js';
import { api, ensurePlayer, identity, navigate } from './session.js';
import { clockText, h, problemText, toast } from './ui.js';

const other = (side) => (side === 'black' ? 'white' : 'black');
const OFFER_LIMIT = 3;

export function gameScreen(main, id) {
  const screen = new GameScreen(main, id);
  screen.start();
  return () => screen.stop();
}

class GameScreen {
  constructor(main, id) {
    this.id = id;
    this.game = null;
    this.moves = null;
    this.hints = null;
    this.picks = [];
    this.pending = null;
    this.busy = null; // what is being waited for: 'move', 'computer', 'action'
    this.confirmResign = false;
    this.numbers = localStorage.getItem('gobang.numbers') === '1';
    this.hintLevel = localStorage.getItem('gobang.hintLevel') || 'advanced';
    this.receivedAt = 0;

    this.boardHost = h('div', { class: 'board-wrap' });
    this.side = h('aside', { class: 'side' });
    this.root = h('section', { class: 'game', 'aria-busy': 'true' }, this.boardHost, this.side);
    main.append(this.root);
    this.board = new BoardView(this.boardHost, {
      onPoint: (x, y, name) => this.point(x, y, name),
      label: (k, ...a) => t(k, ...a),
    });
  }

  async start() {
    try {
      this.accept(await api.game(this.id));
    } catch (e) {
      this.root.replaceChildren(h('div', { class: 'card' }, h('h1', {}, t('game.missing')), h('p', {}, problemText(e)),
        h('p', {}, h('a', { href: '/' }, t('nav.new')))));
      return;
    }
    this.unfollow = follow(api, this.id, this.game.version, (g) => this.accept(g), {
      onMode: (mode) => { this.root.dataset.live = mode; },
    });
    this.ticker = setInterval(() => this.tick(), 250);
  }

  stop() {
    this.unfollow?.();
    clearInterval(this.ticker);
  }

  /** A new state from any source; older ones are ignored. */
  accept(game) {
    if (!game || (this.game && game.version < this.game.version)) return;
    const changed = !this.game || game.version !== this.game.version;
    this.game = game;
    this.receivedAt = Date.now();
    if (changed) {
      this.hints = null;
      this.confirmResign = false;
      if (this.picks.length && !['offer', 'swap_or_place'].includes(game.opening?.phase)) this.picks = [];
      this.loadMoves();
    }
    if (game.rematch_id && this.followRematch) {
      this.followRematch = false;
      navigate(`/g/${game.rematch_id}`);
      return;
    }
    this.render();
  }

  async loadMoves() {
    const version = this.game.version;
    try {
      const list = await api.moves(this.id);
      if (list.version >= version && (!this.moves || list.version >= this.moves.version)) {
        this.moves = list;
        this.render();
      }
    } catch { /* the move list is an extra; the board is already right */ }
  }

  /** The seats the person at this screen plays: both in a local game. */
  mySides() {
    const me = identity.get();
    if (!me || !this.game) return [];
    return ['black', 'white'].filter((s) => this.game.seats[s].player_id === me.id);
  }

  /** The seat this screen speaks for now: the one to act, when it is ours. */
  actingSide() {
    const g = this.game;
    const to = g.opening?.to_act || g.to_move;
    const mine = this.mySides();
    if (mine.includes(to)) return to;
    return mine[0] || null;
  }

  myTurn() {
    const g = this.game;
    if (g.status !== 'in_progress') return false;
    return this.mySides().includes(g.opening?.to_act || g.to_move);
  }

  computerSide() {
    return ['black', 'white'].find((s) => this.game.seats[s].kind === 'computer') || null;
  }

  /** The colour of the next stone placed on the board. */
  nextColour() {
    return this.game.ply % 2 === 0 ? 'black' : 'white';
  }

  point(x, y, name) {
    const g = this.game;
    if (!g || this.busy) return;
    if (g.status !== 'in_progress') {
      toast(g.status === 'waiting' ? t('msg.notStarted') : t('msg.over'), 'info');
      return;
    }
    if (!this.myTurn()) {
      toast(this.mySides().length ? t('msg.notYourTurn') : t('msg.spectator'), 'info');
      return;
    }
    const phase = g.opening?.phase || 'move';
    if (phase === 'offer') return this.pick(x, y, name, g.opening.offer_count, () => 'black');
    if (phase === 'swap_or_place') {
      return this.pick(x, y, name, 2, (i) => (i === 0 ? 'white' : 'black'), (picks) =>
        this.openingAction({ place: picks.map((p) => p.name) }));
    }
    if (phase === 'choose') {
      if (!g.opening.offered.some((p) => p.name === name)) {
        toast(t('msg.chooseOffered'), 'info');
        return;
      }
      return this.openingAction({ choose: name });
    }
    if (phase === 'swap' || phase === 'declare') {
      toast(t('msg.decideFirst'), 'info');
      return;
    }
    this.play(x, y, name);
  }

  pick(x, y, name, limit, colourOf, whenFull) {
    const at = this.picks.findIndex((p) => p.name === name);
    if (at >= 0) this.picks.splice(at, 1);
    else if (this.picks.length < limit && this.game.board[y][x] === '.') {
      this.picks.push({ x, y, name, color: colourOf(this.picks.length) });
    }
    this.render();
    if (whenFull && this.picks.length === limit) whenFull(this.picks);
  }

  async play(x, y, name) {
    const g = this.game;
    if (g.board[y][x] !== '.') {
      toast(t('msg.occupied', name), 'info');
      return;
    }
    this.pending = { x, y, name, color: this.nextColour() };
    const computer = this.computerSide();
    await this.run(computer ? 'computer' : 'move', () => api.play(this.id, name, g.version));
  }

  async openingAction(action) {
    const computer = this.computerSide();
    await this.run(computer ? 'computer' : 'action', () => api.opening(this.id, action, this.game.version));
    this.picks = [];
    this.render();
  }

  /** Runs a request that answers with the game (or `{game}`) and shows the
   * result, or the server's message when it is refused. */
  async run(busy, request) {
    this.busy = busy;
    this.render();
    try {
      const answer = await request();
      this.pending = null;
      this.busy = null;
      if (answer && answer.game) this.accept(answer.game);
      else if (answer && answer.id === this.id) this.accept(answer);
      else this.render();
      return answer;
    } catch (e) {
      this.pending = null;
      this.busy = null;
      toast(problemText(e));
      if (e.code === 'VERSION_MISMATCH') this.accept(await api.game(this.id).catch(() => null));
      this.render();
      return null;
    }
  }

  async simple(name) {
    const answer = await this.run('action', () => api.action(this.id, name, this.game.version));
    return answer;
  }

  async hint() {
    this.busy = 'hint';
    this.render();
    try {
      const hint = await api.hint(this.id, this.hintLevel, 5);
      this.busy = null;
      if (hint.version === this.game.version) {
        this.hints = hint.candidates.map((c, i) => ({ ...c, rank: i + 1 }));
        this.hintInfo = hint;
      }
    } catch (e) {
      this.busy = null;
      toast(problemText(e));
    }
    this.render();
  }

  async join() {
    try {
      await ensurePlayer();
    } catch (e) {
      toast(problemText(e));
      return;
    }
    await this.run('action', () => api.action(this.id, 'join', this.game.version));
  }

  async rematch() {
    const answer = await this.run('action', () => api.action(this.id, 'rematch', this.game.version));
    if (answer && answer.id && answer.id !== this.id) navigate(`/g/${answer.id}`);
    else if (answer) this.followRematch = true;
  }

  async acceptRematch() {
    const answer = await this.run('action', () => api.action(this.id, 'rematch/accept', this.game.version));
    if (answer && answer.id && answer.id !== this.id) navigate(`/g/${answer.id}`);
  }

  tick() {
    if (!this.game) return;
    const g = this.game;
    if (g.clock && g.clock.running && g.status === 'in_progress') this.renderClocks();
    if (g.claimable_at && g.status === 'in_progress') {
      const ready = Date.parse(g.claimable_at) <= Date.now();
      if (ready !== this.claimReady) this.render();
    }
  }

  clockMs(side) {
    const c = this.game.clock;
    const left = c[side + '_ms'];
    return c.running === side && this.game.status === 'in_progress' ? left - (Date.now() - this.receivedAt) : left;
  }

  renderClocks() {
    for (const side of ['black', 'white']) {
      const box = this.side.querySelector(`[data-clock="${side}"]`);
      if (!box) continue;
      const ms = this.clockMs(side);
      box.textContent = clockText(ms);
      box.classList.toggle('low', ms < 10_000);
    }
  }

  render() {
    const g = this.game;
    if (!g) return;
    this.root.setAttribute('aria-busy', this.busy ? 'true' : 'false');
    this.root.dataset.status = g.status;
    this.root.dataset.version = g.version;
    this.root.dataset.busy = this.busy || '';
    const playable = this.myTurn() && !this.busy && ['move', 'place', 'offer', 'choose', 'swap_or_place'].includes(g.opening?.phase || 'move');
    const numbers = this.numbers && this.moves ? new Map(this.moves.moves.map((m) => [m.point.name, m.ply])) : null;
    this.board.render({
      game: g, playable, numbers, hints: this.hints, picks: this.picks, pending: this.pending,
      ghost: g.opening?.phase === 'swap_or_place' ? (this.picks.length === 0 ? 'white' : 'black')
        : g.opening?.phase === 'offer' ? 'black' : this.nextColour(),
    });
    this.side.replaceChildren(...[
      this.playersPanel(), this.statusPanel(), this.promptPanel(), this.openingPanel(),
      this.sharePanel(), this.actionsPanel(), this.hintPanel(), this.movesPanel(), this.keepPanel(),
    ].filter(Boolean));
    this.renderClocks();
  }

  playersPanel() {
    const g = this.game;
    const mine = this.mySides();
    const row = (side) => {
      const seat = g.seats[side];
      const name = seat.kind === 'open' ? t('seat.open') : seat.kind === 'computer' ? t('seat.computer', t('level.' + seat.level)) : seat.name;
      // The rating they sat down with; `?` while provisional.
      const rating = seat.rating
        ? h('span', { class: 'rating', 'data-rating': side }, `${Math.round(seat.rating.rating)}${seat.rating.provisional ? '?' : ''}`)
        : null;
      const toMove = g.status === 'in_progress' && (g.opening?.to_act || g.to_move) === side;
      return h('li', { class: `player ${side}${toMove ? ' to-move' : ''}`, 'data-side': side },
        h('span', { class: `chip ${side}`, 'aria-hidden': 'true' }),
        h('span', { class: 'who' }, h('span', { class: 'name' }, name),
          h('span', { class: 'colour' }, t(side) + (mine.includes(side) && mine.length === 1 ? ' · ' + t('you') : ''),
            rating ? ' · ' : null, rating)),
        g.clock ? h('span', { class: 'clock', 'data-clock': side }) : null,
        toMove ? h('span', { class: 'sr-only' }, t('toMove')) : null);
    };
    return h('ul', { class: 'players card' }, row('black'), row('white'));
  }

  statusText() {
    const g = this.game;
    if (this.busy === 'computer') return t('status.thinking');
    if (g.status === 'waiting') {
      if (g.invited) return t('status.invited', t(g.invited));
      return t('status.waiting');
    }
    if (g.status === 'finished') return resultText(g);
    const to = g.opening?.to_act || g.to_move;
    const phase = g.opening?.phase || 'move';
    const who = this.mySides().length === 1 ? (this.mySides()[0] === to ? t('status.you') : t('status.opponent')) : t(to);
    if (phase === 'move' || phase === 'done') return t('status.toMove', who, t(to));
    return t('phase.' + phase, who, g.opening.stones_left, g.opening.offer_count);
  }

  statusPanel() {
    const g = this.game;
    const status = h('p', { class: 'status', id: 'status', role: 'status', 'aria-live': 'polite' }, this.statusText());
    if (this.busy === 'computer') status.prepend(h('span', { class: 'spinner', 'aria-hidden': 'true' }));
    const info = [];
    if (g.opening?.name) info.push(h('span', { class: 'tag', id: 'opening-name' }, `${g.opening.name.id} ${g.opening.name.name} ${g.opening.name.kanji}`));
    info.push(h('span', { class: 'tag' }, rulesText(g)));
    return h('div', { class: 'card status-card' }, status, h('p', { class: 'tags' }, info));
  }

  /** Offers and invitations waiting for this player's answer. */
  promptPanel() {
    const g = this.game;
    const mine = this.mySides();
    if (g.status === 'waiting' && g.invited && mine.includes(g.invited)) {
      return h('div', { class: 'card prompt', id: 'prompt' }, h('p', {}, t('prompt.invitation')),
        h('div', { class: 'buttons' },
          h('button', { class: 'primary', onclick: () => this.simple('accept') }, t('accept')),
          h('button', { onclick: () => this.simple('decline') }, t('decline'))));
    }
    const offer = g.offer;
    if (!offer || mine.length !== 1) return null;
    const side = mine[0];
    if (offer.by === side) {
      return h('div', { class: 'card prompt', id: 'prompt' }, h('p', {}, t('prompt.waiting.' + offer.kind)));
    }
    const path = offer.kind;
    const yes = offer.kind === 'rematch' ? () => this.acceptRematch() : () => this.simple(`${path}/accept`);
    return h('div', { class: 'card prompt', id: 'prompt' },
      h('p', {}, t('prompt.' + offer.kind)),
      h('div', { class: 'buttons' },
        h('button', { class: 'primary', id: 'prompt-accept', onclick: yes }, t('accept')),
        h('button', { id: 'prompt-decline', onclick: () => this.simple(`${path}/decline`) }, t('decline'))));
  }

  openingPanel() {
    const g = this.game;
    const o = g.opening;
    if (!o || g.status !== 'in_progress' || !this.myTurn()) return null;
    const act = (action) => () => this.openingAction(action);
    if (o.phase === 'swap') {
      return h('div', { class: 'card opening', id: 'opening' }, h('p', {}, t('opening.swapQuestion')),
        h('div', { class: 'buttons' },
          h('button', { class: 'primary', id: 'swap-yes', onclick: act({ swap: true }) }, t('opening.swap')),
          h('button', { id: 'swap-no', onclick: act({ swap: false }) }, t('opening.keep'))));
    }
    if (o.phase === 'swap_or_place') {
      return h('div', { class: 'card opening', id: 'opening' }, h('p', {}, t('opening.swap2Question')),
        h('div', { class: 'buttons' },
          h('button', { id: 'swap-yes', onclick: act({ swap: true }) }, t('opening.takeBlack')),
          h('button', { id: 'swap-no', onclick: act({ swap: false }) }, t('opening.takeWhite'))),
        h('p', { class: 'muted' }, t('opening.placeTwo', this.picks.length)));
    }
    if (o.phase === 'declare') {
      const n = h('input', { type: 'number', min: 1, max: 10, value: 2, id: 'declare-count' });
      return h('div', { class: 'card opening', id: 'opening' }, h('p', {}, t('opening.declareQuestion')),
        h('div', { class: 'buttons' }, n,
          h('button', { class: 'primary', id: 'declare', onclick: () => this.openingAction({ declare: Number(n.value) }) }, t('opening.declare'))));
    }
    if (o.phase === 'offer') {
      const ready = this.picks.length === o.offer_count;
      return h('div', { class: 'card opening', id: 'opening' }, h('p', {}, t('opening.offerHelp', o.offer_count, this.picks.length)),
        h('div', { class: 'buttons' },
          h('button', { class: 'primary', id: 'offer', disabled: !ready, onclick: act({ offer: this.picks.map((p) => p.name) }) }, t('opening.offer')),
          this.picks.length ? h('button', { onclick: () => { this.picks = []; this.render(); } }, t('clear')) : null));
    }
    if (o.phase === 'choose') return h('div', { class: 'card opening', id: 'opening' }, h('p', {}, t('opening.chooseHelp')));
    return null;
  }

  sharePanel() {
    const g = this.game;
    const openSeat = ['black', 'white'].find((s) => g.seats[s].kind === 'open');
    if (g.status !== 'waiting' || !openSeat) return null;
    const mine = this.mySides();
    if (mine.length === 0) {
      return h('div', { class: 'card share', id: 'share' }, h('p', {}, t('share.join', t(openSeat))),
        h('button', { class: 'primary', id: 'join', onclick: () => this.join() }, t('share.joinButton', t(openSeat))));
    }
    const link = `${location.origin}/g/${g.id}`;
    const input = h('input', { id: 'share-link', readonly: true, value: link, onfocus: (e) => e.target.select() });
    const copy = h('button', {
      onclick: async () => {
        try { await navigator.clipboard.writeText(link); toast(t('share.copied'), 'info'); } catch { input.select(); }
      },
    }, t('share.copy'));
    return h('div', { class: 'card share', id: 'share' }, h('p', {}, t('share.send')), h('div', { class: 'buttons' }, input, copy),
      h('button', { id: 'cancel', onclick: () => this.simple('cancel') }, t('share.cancel')));
  }

  actionsPanel() {
    const g = this.game;
    const mine = this.mySides();
    if (mine.length === 0) return h('p', { class: 'card muted', id: 'spectating' }, t('spectating'));
    const buttons = [];
    const busy = !!this.busy;
    const online = g.mode === 'online';
    const side = this.actingSide();
    if (g.status === 'in_progress') {
      if (online) {
        const left = OFFER_LIMIT - g.declined[side].takeback;
        buttons.push(h('button', { id: 'takeback', disabled: busy || !g.can_undo || !!g.offer || left <= 0, onclick: () => this.simple('takeback') },
          t('action.takeback'), h('small', {}, t('left', left))));
        const draws = OFFER_LIMIT - g.declined[side].draw;
        buttons.push(h('button', { id: 'draw', disabled: busy || !!g.offer || draws <= 0, onclick: () => this.simple('draw') },
          t('action.draw'), h('small', {}, t('left', draws))));
        if (g.claimable_at && !this.myTurn()) {
          this.claimReady = Date.parse(g.claimable_at) <= Date.now();
          buttons.push(h('button', { id: 'claim', disabled: busy || !this.claimReady, onclick: () => this.simple('claim') }, t('action.claim')));
        }
      } else {
        buttons.push(h('button', { id: 'undo', disabled: busy || !g.can_undo, onclick: () => this.simple('undo') }, t('action.undo')));
        buttons.push(h('button', { id: 'redo', disabled: busy || !g.can_redo, onclick: () => this.simple('redo') }, t('action.redo')));
      }
      // The computer's turn with no reply on the way (it was refused, say
      // for its share of thinking time): ask for it again.
      const computer = this.computerSide();
      if (!online && computer && (g.opening?.to_act || g.to_move) === computer && !mine.includes(computer)) {
        buttons.push(h('button', { class: 'primary', id: 'ai-move', disabled: busy, onclick: () => this.run('computer', () => api.aiMove(this.id)) },
          t('action.aiMove')));
      }
      if (!online) {
        buttons.push(h('button', { id: 'hint', disabled: busy || !this.myTurn(), onclick: () => this.hint() }, t('action.hint')));
        buttons.push(h('select', {
          id: 'hint-level', 'aria-label': t('hint.level'),
          onchange: (e) => { this.hintLevel = e.target.value; localStorage.setItem('gobang.hintLevel', this.hintLevel); },
        }, ['beginner', 'intermediate', 'advanced', 'expert'].map((l) =>
          h('option', { value: l, selected: l === this.hintLevel }, t('level.' + l)))));
      }
      buttons.push(h('button', {
        id: 'resign', class: this.confirmResign ? 'danger' : '', disabled: busy,
        onclick: () => {
          if (this.confirmResign) this.simple('resign');
          else { this.confirmResign = true; this.render(); }
        },
      }, this.confirmResign ? t('action.resignSure') : t('action.resign')));
    } else if (g.status === 'finished') {
      if (!online) buttons.push(h('button', { id: 'undo', disabled: busy || !g.can_undo, onclick: () => this.simple('undo') }, t('action.undo')));
      if (g.rematch_id) {
        buttons.push(h('a', { class: 'button primary', id: 'to-rematch', href: `/g/${g.rematch_id}` }, t('action.toRematch')));
      } else if (!['declined', 'cancelled'].includes(g.result?.reason) && !(g.offer && g.offer.kind === 'rematch')) {
        const left = OFFER_LIMIT - g.declined[side].rematch;
        buttons.push(h('button', { class: 'primary', id: 'rematch', disabled: busy || left <= 0, onclick: () => this.rematch() }, t('action.rematch')));
      }
      buttons.push(h('a', { class: 'button', href: '/' }, t('nav.new')));
    }
    const numbers = h('label', { class: 'toggle' },
      h('input', {
        type: 'checkbox', id: 'numbers', checked: this.numbers,
        onchange: (e) => { this.numbers = e.target.checked; localStorage.setItem('gobang.numbers', this.numbers ? '1' : '0'); this.render(); },
      }), t('moveNumbers'));
    return h('div', { class: 'card actions' }, h('div', { class: 'buttons' }, buttons), numbers);
  }

  hintPanel() {
    if (!this.hints) return null;
    const info = this.hintInfo;
    return h('div', { class: 'card hints', id: 'hints' },
      h('p', {}, t('hint.title', t('level.' + info.computer.level))),
      h('ol', {}, this.hints.map((c) => h('li', {}, c.name))),
      info.forced_win_in ? h('p', { class: 'muted' }, t('hint.forced', info.forced_win_in)) : null);
  }

  /** The game to keep or show: its record and its pictures. */
  keepPanel() {
    const g = this.game;
    if (g.ply === 0) return null;
    const base = `/v1/games/${encodeURIComponent(g.id)}`;
    const link = (id, href, label) => h('a', { class: 'button', id, href, download: '' }, label);
    return h('div', { class: 'card keep', id: 'keep' },
      h('p', { class: 'muted' }, t('keep.title')),
      h('div', { class: 'buttons' },
        link('keep-sgf', `${base}/record?format=sgf`, 'SGF'),
        link('keep-psq', `${base}/record?format=psq`, 'PSQ'),
        link('keep-png', `${base}/board.png?numbers=true`, t('keep.picture')),
        link('keep-gif', `${base}/animation.gif`, t('keep.animation'))));
  }

  movesPanel() {
    if (!this.moves || this.moves.moves.length === 0) return null;
    const list = h('ol', { class: 'move-list', id: 'moves' },
      this.moves.moves.map((m) => h('li', { class: m.color }, m.point.name)));
    return h('details', { class: 'card', open: true }, h('summary', {}, t('moves', this.moves.moves.length)), list);
  }
}

export function rulesText(g) {
  const size = g.rules === 'custom' ? `${g.width}×${g.height}, ${t('kInRow', g.k)}` : `${g.width}×${g.height}`;
  const opening = g.opening && g.opening.rule !== 'free' ? ` · ${t('opening.' + g.opening.rule)}` : '';
  return `${t('rules.' + g.rules)} · ${size}${opening}`;
}

export function resultText(g) {
  const r = g.result;
  if (!r) return '';
  if (r.reason === 'declined' || r.reason === 'cancelled') return t('result.' + r.reason);
  if (!r.winner) return t('result.draw', t('reason.' + r.reason));
  return t('result.win', t(r.winner), t('reason.' + r.reason));
}
