// Following a game as it changes: the server-sent event stream, and long
// polling where a browser or a proxy cannot keep a stream open.

/**
 * Calls `onState(game)` with every new state of game `id` after `version`.
 * Returns a function that stops following.
 */
export function follow(api, id, version, onState, { onMode } = {}) {
  let stopped = false;
  let last = version;
  let source = null;
  const controller = new AbortController();
  const deliver = (game) => {
    if (stopped || game.version <= last) return;
    last = game.version;
    onState(game);
  };

  const poll = async () => {
    onMode?.('poll');
    let failures = 0;
    while (!stopped) {
      try {
        const game = await api.game(id, last, controller.signal);
        failures = 0;
        deliver(game);
      } catch (e) {
        if (stopped) return;
        failures += 1;
        await new Promise((r) => setTimeout(r, Math.min(30000, 500 * 2 ** failures)));
      }
    }
  };

  // `?live=poll` on the page's address forces long polling (for a proxy
  // that holds event streams back).
  const forcePoll = new URLSearchParams(location.search).get('live') === 'poll';
  if (typeof EventSource === 'function' && !forcePoll) {
    // The first connection says where to start; reconnections resume from
    // the last event id on their own.
    source = new EventSource(`${api.base}/v1/games/${encodeURIComponent(id)}/events`);
    let opened = false;
    let errors = 0;
    source.addEventListener('open', () => { opened = true; errors = 0; onMode?.('sse'); });
    source.addEventListener('state', (e) => {
      try { deliver(JSON.parse(e.data)); } catch { /* a malformed event is skipped */ }
    });
    source.addEventListener('error', () => {
      errors += 1;
      // A stream that never opens, or keeps failing, is replaced by polling.
      if ((!opened && errors >= 2) || errors >= 5 || source.readyState === EventSource.CLOSED) {
        source.close();
        source = null;
        if (!stopped) poll();
      }
    });
  } else {
    poll();
  }

  return () => {
    stopped = true;
    source?.close();
    controller.abort();
  };
}
