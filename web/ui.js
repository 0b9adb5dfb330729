// Small DOM helpers: elements built from data (never from HTML strings, so a
// player's name is always text), the toast, time formatting.

import { t } from './i18n.js';

/** `h('button', {class: 'x', onclick: f}, 'text', child)` */
export function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v == null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') e.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(e.dataset, v);
    else if (v === true) e.setAttribute(k, '');
    else e.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c == null || c === false) continue;
    e.append(c instanceof Node ? c : String(c));
  }
  return e;
}

let toastTimer = null;

/** Shows a message for a few seconds; `kind` is `error` or `info`. */
export function toast(message, kind = 'error') {
  const box = document.getElementById('toast');
  if (!box) return;
  box.textContent = message;
  box.className = `toast ${kind}`;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.hidden = true; }, kind === 'error' ? 7000 : 3500);
}

/** The server's own words for a failed request. */
export function problemText(e) {
  if (e && e.code === 'NETWORK') return t('error.network');
  return e?.message || String(e);
}

/** `m:ss`, or `h:mm:ss` from an hour up. */
export function clockText(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const hh = Math.floor(s / 3600), mm = Math.floor((s % 3600) / 60), ss = s % 60;
  const two = (n) => String(n).padStart(2, '0');
  return hh ? `${hh}:${two(mm)}:${two(ss)}` : `${mm}:${two(ss)}`;
}
