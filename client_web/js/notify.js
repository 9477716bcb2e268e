// Telling a player that it is his turn when he is not looking at the page (issue 29): the
// sound (sound.js) is not enough for someone in another tab. While the page is hidden at our
// turn the tab's title says "▶ Your turn"; a phone vibrates at each new decision (where the
// browser can); and, if the person asked for it with the bell button (the browser asks his
// permission first), a browser notification is shown when the page is hidden. The choice is
// kept in localStorage. Each vibration and notification is counted on <body>
// (data-turn-vibrations, data-turn-notices) for people and tests.
import { myChoices } from "./controls.js";
import { $ } from "./dom.js";
import { t } from "./i18n.js";
import { KEY, store } from "./store.js";
import { showError } from "./ui.js";

const supported = () => typeof window.Notification === "function";
const wanted = () => localStorage.getItem(KEY.notify) === "1" && supported() && Notification.permission === "granted";
const phone = () => typeof navigator.vibrate === "function" && matchMedia("(pointer: coarse)").matches;

function count(key) {
  const data = document.body.dataset;
  data[key] = String(Number(data[key] || 0) + 1);
}

// The title as the page set it, without our mark ("▶ Your turn · Jeudi — Brasseur").
function plainTitle() {
  const ui = store.state.ui;
  const title = document.title;
  return ui.turnMark && title.startsWith(ui.turnMark) ? title.slice(ui.turnMark.length) : title;
}

function tableName(s) {
  return (s.t.config && s.t.config.name) || s.table;
}

// A new decision of ours: the phone vibrates; hidden, the notification (if asked for).
function alertTurn(s, c) {
  // (a browser vibrates only once the page was touched: asked before, it complains)
  const touched = !navigator.userActivation || navigator.userActivation.hasBeenActive;
  if (phone() && touched) {
    try {
      if (navigator.vibrate([180, 90, 180])) count("turnVibrations");
    } catch {
      // refused (no gesture yet): the title and the sound remain
    }
  }
  if (!document.hidden || !wanted()) return;
  try {
    const note = new Notification(`${t("turnTitle")} · ${tableName(s)}`, {
      body: t("notifyBody").replace("%n", s.t.hand).replace("%t", tableName(s)),
      tag: `brasseur-turn-${s.table}`,
      lang: s.lang,
    });
    note.onclick = () => {
      window.focus();
      note.close();
    };
    s.ui.turnNote = note;
    count("turnNotices");
  } catch {
    // a browser that only notifies from a service worker (Chrome on Android): the title remains
  }
}

// Called after each drawing and when the page is shown or hidden.
export function renderTurnNotice() {
  const s = store.state;
  const ui = s.ui;
  const c = s.table ? myChoices(s.t) : null;
  if (c && ui.turnAlerted !== c.key) {
    ui.turnAlerted = c.key;
    alertTurn(s, c);
  }
  if (!c && ui.turnNote) {
    ui.turnNote.close(); // answered (here or by the clock): the notification is stale
    ui.turnNote = null;
  }
  const plain = plainTitle();
  ui.turnMark = c && document.hidden ? `${t("turnTitle")} · ` : "";
  const title = `${ui.turnMark}${plain}`;
  if (document.title !== title) document.title = title;
  renderBell();
}

function renderBell() {
  const s = store.state;
  const bell = $("notify");
  bell.hidden = !supported() || !s.table || s.t.you === null; // (a player's turn only)
  const on = wanted();
  const drawn = `${on}|${s.lang}`;
  if (bell.dataset.drawn === drawn) return;
  bell.dataset.drawn = drawn;
  bell.setAttribute("aria-pressed", String(on));
  bell.setAttribute("aria-label", t("notifyLabel"));
  bell.title = on ? t("notifyOff") : t("notifyOn");
  bell.innerHTML = `<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M12 3a6 6 0 0 0-6 6v4l-2 3h16l-2-3V9a6 6 0 0 0-6-6zM10 19a2 2 0 0 0 4 0" fill="${on ? "currentColor" : "none"}" stroke="currentColor" stroke-width="2" stroke-linejoin="round"/></svg>`;
}

function setWanted(on) {
  localStorage.setItem(KEY.notify, on ? "1" : "0");
  store.update();
}

// The bell: on asks the browser's permission (a click is the gesture it needs); off stops.
async function toggle() {
  if (wanted()) {
    setWanted(false);
    return;
  }
  let permission = Notification.permission;
  if (permission === "default") {
    try {
      permission = await Notification.requestPermission();
    } catch {
      permission = "denied";
    }
  }
  if (permission !== "granted") {
    setWanted(false);
    showError(t("notifyDenied"));
    return;
  }
  setWanted(true);
}

export function setupTurnNotice() {
  $("notify").addEventListener("click", toggle);
  document.addEventListener("visibilitychange", () => {
    const ui = store.state.ui;
    if (!document.hidden && ui.turnNote) {
      ui.turnNote.close(); // back at the page: it says it is our turn
      ui.turnNote = null;
    }
    store.update();
  });
  renderBell();
}
