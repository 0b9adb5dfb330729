// The public HTTP API of gobang, as a browser calls it. Nothing here knows
// about the page: every call is one documented endpoint (see /docs).

/** An error answer (application/problem+json) from the server. */
export class Problem extends Error {
  constructor(status, body) {
    super(body.detail || body.title || `HTTP ${status}`);
    this.status = status;
    this.code = body.code || 'HTTP_' + status;
    this.title = body.title || '';
    this.body = body;
  }
}

export class Api {
  /** @param {() => string|null} token the caller's bearer token, if any */
  constructor(token, base = '') {
    this.token = token;
    this.base = base;
  }

  async request(method, path, { body, query, ifMatch, auth = true, signal } = {}) {
    const headers = { Accept: 'application/json' };
    const token = auth ? this.token() : null;
    if (token) headers.Authorization = `Bearer ${token}`;
    if (ifMatch != null) headers['If-Match'] = `"${ifMatch}"`;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let url = this.base + path;
    if (query) {
      const q = new URLSearchParams();
      for (const [k, v] of Object.entries(query)) if (v != null) q.set(k, v);
      const s = q.toString();
      if (s) url += '?' + s;
    }
    let response;
    try {
      response = await fetch(url, {
        method, headers, signal,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (e) {
      if (e.name === 'AbortError') throw e;
      throw new Problem(0, { code: 'NETWORK', detail: String(e.message || e) });
    }
    const text = await response.text();
    let json = null;
    try { json = text ? JSON.parse(text) : null; } catch { json = { detail: text }; }
    if (!response.ok) throw new Problem(response.status, json || {});
    return json;
  }

  createPlayer(name) { return this.request('POST', '/v1/players', { body: { name }, auth: false }); }
  player(id) { return this.request('GET', `/v1/players/${enc(id)}`); }
  leaderboard(cursor, limit = 20) { return this.request('GET', '/v1/leaderboard', { query: { cursor, limit } }); }

  createGame(spec) { return this.request('POST', '/v1/games', { body: spec }); }
  games(query) { return this.request('GET', '/v1/games', { query }); }
  game(id, waitForVersion, signal) {
    return this.request('GET', `/v1/games/${enc(id)}`, {
      query: waitForVersion == null ? undefined : { wait_for_version: waitForVersion, timeout: 25 },
      signal,
    });
  }
  moves(id) { return this.request('GET', `/v1/games/${enc(id)}/moves`); }
  play(id, at, version) { return this.request('POST', `/v1/games/${enc(id)}/moves`, { body: { at }, ifMatch: version }); }
  opening(id, action, version) { return this.request('POST', `/v1/games/${enc(id)}/opening`, { body: action, ifMatch: version }); }
  aiMove(id, level) { return this.request('POST', `/v1/games/${enc(id)}/ai-move`, { body: level ? { level } : {} }); }
  hint(id, level, count = 5) { return this.request('GET', `/v1/games/${enc(id)}/hint`, { query: { level, count } }); }

  /** The actions that answer with the game: undo, redo, resign, join,
   * accept, decline, cancel, takeback, takeback/accept, draw, claim,
   * rematch, rematch/accept, … */
  action(id, name, version) {
    return this.request('POST', `/v1/games/${enc(id)}/${name}`, { ifMatch: version });
  }
}

const enc = encodeURIComponent;
