// The tournament's clock on the page: the level's time left and, while late registration is
// open, what a started tournament waits for and until when, both counted down here between
// two `tournament` states (the server's `level_left` and `late_left`).

import { $ } from "./dom.js";
import { t } from "./i18n.js";
import { store } from "./store.js";

function clockText(seconds) {
  const x = Math.max(0, Math.ceil(seconds));
  const h = Math.floor(x / 3600);
  const mm = String(Math.floor((x % 3600) / 60)).padStart(h ? 2 : 1, "0");
  const ss = String(x % 60).padStart(2, "0");
  return h ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

// What a started tournament waits for while late registration is open, and until when
// (issue 29; cdc 1.8, fpc 2-2: to the end of level 2 by default): the level it closes with
// and the tournament clock's time left until then (`left`, seconds; the server's
// `late_left` counted down here). "" when it is not open. With one player left, the
// tournament ends only when it closes: say so, and to the director how to end it now.
export function lateWaitText(st, left, director, mine = false) {
  const open = st && st.late_left !== null && st.late_left !== undefined;
  if (!open || st.phase === "registering" || st.phase === "finished") return "";
  const time = st.paused ? t("latePaused") : t("lateLeft").replace("%t", clockText(left));
  const level = String(st.late_until_level ?? "");
  if ((st.players_left ?? 0) <= 1) {
    const text = t(mine ? "lateOneLeftYou" : "lateOneLeft").replace("%l", level).replace("%t", time);
    return director ? `${text} ${t("lateOneLeftDirector")}` : text;
  }
  return `${t("lateUntil").replace("%l", level)} (${time}).`;
}

// seconds of a state's clock value counted down since the state came (while its clock runs)
function countedDown(st, seconds) {
  const running = !st.paused && st.phase !== "registering";
  return seconds - (running ? (performance.now() - store.state.tour.at) / 1000 : 0);
}

// the level clock, counted down here between two states (and the late registration's)
export function tickTournament() {
  const T = store.state.tour;
  const st = T.state;
  let shown = "—";
  if (st && st.level_left !== null && st.level_left !== undefined) {
    if (st.phase !== "finished") shown = clockText(countedDown(st, st.level_left));
  }
  $("t-countdown").textContent = shown;
  const last = Boolean(T.mine && st && st.you && st.you.table); // the one left is the reader
  const late = st ? lateWaitText(st, countedDown(st, st.late_left ?? 0), Boolean(T.director), last) : "";
  $("t-late").hidden = !late;
  if ($("t-late").textContent !== late) $("t-late").textContent = late;
  if (T.director) {
    $("d-late").hidden = !late;
    if ($("d-late").textContent !== late) $("d-late").textContent = late;
  }
}
