// Messages for the person at the page: a refusal or a problem is shown near the controls
// (the dock at a table, the top of the page elsewhere) until it is closed or replaced.
import { store } from "./store.js";

export function showError(text) {
  store.update((s) => {
    s.error = text;
  });
}

export function clearError() {
  store.update((s) => {
    s.error = "";
  });
}

// Whether what a list shows changed since it was drawn (the state may come many times a
// second, and a list redrawn under the pointer loses the click).
export function changed(name, value) {
  const drawn = store.state.ui.drawn;
  const key = JSON.stringify([store.state.lang, value]);
  if (drawn[name] === key) return false;
  drawn[name] = key;
  return true;
}

// A badge (phase, paused...) with its kind in data-badge.
export function badgeNode(el, cls, text, kind) {
  const node = el("span", `badge ${cls}`, text);
  node.dataset.badge = kind;
  return node;
}
