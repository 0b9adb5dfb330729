// The board: an SVG drawn from a game state (the API's GameView), played by
// pointer, touch or keyboard. It knows nothing of the network.

const SVG = 'http://www.w3.org/2000/svg';
const CELL = 40;
const MARGIN = 36;

/** The renju name of a point: column letter from the left, row number from the bottom. */
export function pointName(x, y, height) {
  return String.fromCharCode(97 + x) + String(height - y);
}

function el(name, attrs = {}, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) if (v != null) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

/** Star points (hoshi) for common board sizes. */
function stars(w, h) {
  if (w !== h || w < 9) return [];
  const edge = w >= 13 ? 3 : 2;
  const far = w - 1 - edge;
  const list = [[edge, edge], [edge, far], [far, edge], [far, far]];
  if (w % 2 === 1) list.push([(w - 1) / 2, (w - 1) / 2]);
  return list;
}

export class BoardView {
  /**
   * @param {HTMLElement} host where the board goes
   * @param {{onPoint?: (x:number, y:number, name:string) => void, label?: (key:string, ...a:any[]) => string}} options
   */
  constructor(host, options = {}) {
    this.host = host;
    this.onPoint = options.onPoint;
    this.label = options.label || ((k) => k);
    this.cursor = null;
    this.svg = el('svg', { class: 'board', role: 'grid', tabindex: this.onPoint ? '0' : null });
    host.appendChild(this.svg);
    if (this.onPoint) {
      this.svg.addEventListener('click', (e) => {
        const hit = e.target.closest('[data-point]');
        if (!hit) return;
        const x = Number(hit.dataset.x), y = Number(hit.dataset.y);
        this.cursor = { x, y };
        this.keyboard = false;
        this.cursorEl?.remove();
        this.onPoint(x, y, hit.dataset.point);
      });
      this.svg.addEventListener('keydown', (e) => this.key(e));
    }
  }

  key(e) {
    if (!this.view) return;
    this.keyboard = true;
    const { width, height } = this.view.game;
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (!this.cursor) {
      const last = this.view.game.last_move;
      this.cursor = last ? { x: last.x, y: last.y } : { x: (width - 1) >> 1, y: (height - 1) >> 1 };
    }
    if (moves[e.key]) {
      const [dx, dy] = moves[e.key];
      this.cursor = {
        x: Math.min(width - 1, Math.max(0, this.cursor.x + dx)),
        y: Math.min(height - 1, Math.max(0, this.cursor.y + dy)),
      };
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      const { x, y } = this.cursor;
      this.onPoint(x, y, pointName(x, y, height));
      return;
    } else {
      return;
    }
    e.preventDefault();
    this.drawCursor();
  }

  drawCursor() {
    this.cursorEl?.remove();
    if (!this.cursor || !this.view) return;
    const { x, y } = this.cursor;
    const name = pointName(x, y, this.view.game.height);
    this.cursorEl = el('rect', {
      class: 'cursor', x: this.px(x) - CELL / 2 + 2, y: this.px(y) - CELL / 2 + 2,
      width: CELL - 4, height: CELL - 4, rx: 6,
    }, this.svg);
    this.svg.setAttribute('aria-activedescendant', 'pt-' + name);
    this.svg.setAttribute('aria-label', this.label('board.cursor', name, this.describe(x, y)));
  }

  px(i) { return MARGIN + i * CELL; }

  describe(x, y) {
    const c = this.view.game.board[y][x];
    return c === 'X' ? this.label('black') : c === 'O' ? this.label('white') : this.label('board.empty');
  }

  /**
   * Draws a state.
   * @param {object} view
   * @param {object} view.game the GameView
   * @param {boolean} [view.playable] whether a click plays now
   * @param {'black'|'white'|null} [view.ghost] the colour of the stone a click would place
   * @param {Map<string, number>} [view.numbers] move numbers by point name
   * @param {Array<{name:string, rank:number}>} [view.hints] candidates to draw
   * @param {Array<{name:string}>} [view.picks] points the player has picked but not yet sent
   * @param {{name:string, color:string}|null} [view.pending] a move sent, not yet answered
   */
  render(view) {
    this.view = view;
    const g = view.game;
    const { width: w, height: h } = g;
    const cells = g.rules === 'tictactoe';
    const svg = this.svg;
    svg.replaceChildren();
    const size = (n) => (n - 1) * CELL + 2 * MARGIN;
    svg.setAttribute('viewBox', `0 0 ${size(w)} ${size(h)}`);
    svg.classList.toggle('cells', cells);
    svg.classList.toggle('playable', !!view.playable);
    svg.classList.toggle('ghost-black', view.ghost === 'black');
    svg.classList.toggle('ghost-white', view.ghost === 'white');
    svg.setAttribute('aria-label', this.label('board.label', w, h));
    el('rect', { class: 'wood', x: 0, y: 0, width: size(w), height: size(h), rx: 10 }, svg);

    const grid = el('g', { class: 'grid' }, svg);
    if (cells) {
      for (let i = 1; i < w; i++) el('line', { x1: this.px(i) - CELL / 2, y1: this.px(0) - CELL / 2, x2: this.px(i) - CELL / 2, y2: this.px(h - 1) + CELL / 2 }, grid);
      for (let j = 1; j < h; j++) el('line', { x1: this.px(0) - CELL / 2, y1: this.px(j) - CELL / 2, x2: this.px(w - 1) + CELL / 2, y2: this.px(j) - CELL / 2 }, grid);
    } else {
      for (let i = 0; i < w; i++) el('line', { x1: this.px(i), y1: this.px(0), x2: this.px(i), y2: this.px(h - 1) }, grid);
      for (let j = 0; j < h; j++) el('line', { x1: this.px(0), y1: this.px(j), x2: this.px(w - 1), y2: this.px(j) }, grid);
      for (const [x, y] of stars(w, h)) el('circle', { class: 'star', cx: this.px(x), cy: this.px(y), r: 4 }, grid);
    }
    const coords = el('g', { class: 'coords', 'aria-hidden': 'true' }, svg);
    for (let i = 0; i < w; i++) {
      const t = el('text', { x: this.px(i), y: MARGIN / 2 + 2 }, coords);
      t.textContent = String.fromCharCode(97 + i);
      const b = el('text', { x: this.px(i), y: this.px(h - 1) + MARGIN / 2 + 8 }, coords);
      b.textContent = String.fromCharCode(97 + i);
    }
    for (let j = 0; j < h; j++) {
      const t = el('text', { x: MARGIN / 2 - 4, y: this.px(j) + 5 }, coords);
      t.textContent = String(h - j);
      const r = el('text', { x: this.px(w - 1) + MARGIN / 2 + 4, y: this.px(j) + 5 }, coords);
      r.textContent = String(h - j);
    }

    if (g.opening && g.opening.zone != null && g.status === 'in_progress') {
      const z = g.opening.zone, cx = (w - 1) >> 1, cy = (h - 1) >> 1;
      el('rect', {
        class: 'zone', x: this.px(cx - z) - CELL / 2, y: this.px(cy - z) - CELL / 2,
        width: (2 * z + 1) * CELL, height: (2 * z + 1) * CELL, rx: 4,
      }, svg);
    }

    const forbidden = new Map();
    for (const f of g.forbidden || []) forbidden.set(f.name, f.kind);
    const winning = new Set((g.result?.winning_line || []).map((p) => p.name));
    const last = g.last_move?.name;

    const stones = el('g', { class: 'stones' }, svg);
    const marks = el('g', { class: 'marks' }, svg);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const c = g.board[y][x];
        const name = pointName(x, y, h);
        const cx = this.px(x), cy = this.px(y);
        if (c === 'X' || c === 'O') {
          const color = c === 'X' ? 'black' : 'white';
          const s = el('g', { class: `stone ${color}${winning.has(name) ? ' win' : ''}${name === last ? ' last' : ''}`, 'data-stone': name }, stones);
          this.stone(s, cx, cy, color, cells);
          const n = view.numbers?.get(name);
          if (n != null) {
            const t = el('text', { class: 'num', x: cx, y: cy + 5 }, s);
            t.textContent = String(n);
          } else if (name === last) {
            el('circle', { class: 'last-mark', cx, cy, r: 6 }, s);
          }
        } else if (forbidden.has(name)) {
          const f = el('g', { class: 'forbidden', 'data-forbidden': forbidden.get(name) }, marks);
          el('path', { d: `M${cx - 8} ${cy - 8}L${cx + 8} ${cy + 8}M${cx + 8} ${cy - 8}L${cx - 8} ${cy + 8}` }, f);
        }
      }
    }
    for (const p of g.opening?.offered || []) {
      el('rect', { class: 'offered', 'data-offered': p.name, x: this.px(p.x) - 14, y: this.px(p.y) - 14, width: 28, height: 28, rx: 4 }, marks);
    }
    if (winning.size >= 2) {
      const line = g.result.winning_line;
      const a = line[0], b = line[line.length - 1];
      el('line', { class: 'win-line', x1: this.px(a.x), y1: this.px(a.y), x2: this.px(b.x), y2: this.px(b.y) }, marks);
    }
    for (const hnt of view.hints || []) {
      const [x, y] = [hnt.x, hnt.y];
      const m = el('g', { class: 'hint', 'data-hint': hnt.rank }, marks);
      el('circle', { cx: this.px(x), cy: this.px(y), r: 15 }, m);
      const t = el('text', { x: this.px(x), y: this.px(y) + 5 }, m);
      t.textContent = String(hnt.rank);
    }
    for (const p of view.picks || []) {
      const m = el('g', { class: 'pick', 'data-pick': p.name }, marks);
      this.stone(m, this.px(p.x), this.px(p.y), p.color || 'black', cells);
    }
    if (view.pending) {
      const p = view.pending;
      const m = el('g', { class: 'pending', 'data-pending': p.name }, marks);
      this.stone(m, this.px(p.x), this.px(p.y), p.color, cells);
    }

    // One target per point: clicks, the hover ghost, and what assistive
    // technology reads.
    const hits = el('g', { class: 'hits' }, svg);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const name = pointName(x, y, h);
        const c = g.board[y][x];
        const empty = c !== 'X' && c !== 'O';
        const p = el('g', {
          class: 'pt' + (empty ? ' empty' : ''), id: 'pt-' + name, role: 'gridcell',
          'data-point': name, 'data-x': x, 'data-y': y,
          'aria-label': `${name} ${this.describe(x, y)}${forbidden.has(name) ? ' · ' + this.label('forbidden.' + forbidden.get(name)) : ''}`,
        }, hits);
        el('rect', { x: this.px(x) - CELL / 2, y: this.px(y) - CELL / 2, width: CELL, height: CELL }, p);
        if (empty && view.playable) {
          const ghost = el('g', { class: 'ghost' }, p);
          this.stone(ghost, this.px(x), this.px(y), view.ghost || 'black', cells);
        }
      }
    }
    if (this.cursor && this.keyboard && document.activeElement === svg) this.drawCursor();
  }

  stone(parent, cx, cy, color, cells) {
    if (cells) {
      if (color === 'black') {
        el('path', { class: 'mark-x', d: `M${cx - 12} ${cy - 12}L${cx + 12} ${cy + 12}M${cx + 12} ${cy - 12}L${cx - 12} ${cy + 12}` }, parent);
      } else {
        el('circle', { class: 'mark-o', cx, cy, r: 13 }, parent);
      }
    } else {
      el('circle', { class: 'disc', cx, cy, r: CELL / 2 - 2 }, parent);
    }
  }
}
