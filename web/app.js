// The shell: which screen shows for the address, the header's links and the
// language switch.

import { applyStatic, lang, setLang } from './i18n.js';
import { navigate } from './session.js';
import { homeScreen } from './home.js';
import { gameScreen } from './game.js';
import { gamesScreen, leaderboardScreen, meScreen } from './lists.js';

let leave = null;

function screenFor(path) {
  const game = path.match(/^\/g\/([A-Za-z0-9_-]+)\/?$/);
  if (game) return (main) => gameScreen(main, game[1]);
  if (path === '/games') return gamesScreen;
  if (path === '/leaderboard') return leaderboardScreen;
  if (path === '/me') return meScreen;
  return homeScreen;
}

/** Shows the screen for the current address; the previous one stops first. */
function render() {
  leave?.();
  leave = null;
  const main = document.getElementById('main');
  main.replaceChildren();
  leave = screenFor(location.pathname)(main) || null;
  for (const a of document.querySelectorAll('header nav a')) {
    a.classList.toggle('active', a.getAttribute('href') === location.pathname);
  }
}

document.addEventListener('click', (e) => {
  const a = e.target.closest('a[href]');
  if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return;
  const href = a.getAttribute('href');
  if (!/^\/(g\/[A-Za-z0-9_-]+|games|leaderboard|me)?$/.test(href)) return;
  e.preventDefault();
  navigate(href);
});
window.addEventListener('popstate', render);
window.addEventListener('gobang:navigate', render);

document.getElementById('lang').addEventListener('click', () => {
  setLang(lang() === 'zh' ? 'en' : 'zh');
  applyStatic();
  render();
});

applyStatic();
render();
