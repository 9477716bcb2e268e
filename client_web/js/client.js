// A table's messages: the snapshot, the table events in seq order, the private messages, and
// what a refusal means for this page (a spent seat token, a replaced connection...).
import { identityRefusal, sessionAnswer } from "./account.js";
import { applySnapshot, EVENTS, PRIVATE } from "./events.js";
import { errorText, ruleText, t } from "./i18n.js";
import { reconnectNow, sayHello, send, sequenced } from "./net.js";
import { optionRefused } from "./option.js";
import { followMove } from "./room.js";
import { KEY, store } from "./store.js";
import { showError } from "./ui.js";

// Connection hooks of a friends table (hello with the seat token or the invite, then join).
export function tableHooks(extra) {
  const hooks = {
    open() {
      const s = store.state;
      const seatToken = localStorage.getItem(KEY.seat(s.table));
      s.net.usingSeatToken = Boolean(seatToken);
      sayHello({ nickname: s.nick || undefined, token: seatToken || s.invite || undefined });
      // with a seat token, hello brings us back to our seat; join(last_seq) then sends what we
      // missed (or a snapshot on a fresh page)
      send({ t: "join", table: s.table, last_seq: s.t.synced ? s.t.seq : undefined });
    },
    message: handleTableMessage,
    status: (key) => store.update((s) => {
      s.status = key;
    }),
    problem: showError,
    ...extra,
  };
  return hooks;
}

export function handleTableMessage(msg) {
  const s = store.state;
  if (msg.t === "welcome") {
    sessionAnswer(msg, s.net.memberSent); // a member's session may have ended
    return;
  }
  if (msg.t === "moved" && msg.invite && s.mode === "table") {
    followMove(msg); // a cash room's move: the new table's snapshot and seat follow
    return;
  }
  if (msg.t === "seated") {
    PRIVATE.seated(s.t, msg); // (another table's: only its token is kept, under its name)
    return;
  }
  if (msg.table !== undefined && msg.table !== s.table) return;
  if (msg.t === "snapshot") {
    applySnapshot(msg);
    return;
  }
  if (msg.seq !== undefined) {
    if (sequenced(s.t, msg) && EVENTS[msg.t]) EVENTS[msg.t](s.t, msg);
    return;
  }
  if (identityRefusal(msg)) {
    // a refused hello leaves this connection unauthenticated: start again without the name
    if (msg.code === "reserved_name" && s.mode === "table") reconnectNow(tableHooks());
    return;
  }
  if (msg.t === "error") {
    if (s.mode === "table") friendsError(msg);
    else refusal(msg);
    return;
  }
  if (PRIVATE[msg.t]) PRIVATE[msg.t](s.t, msg);
}

// A refused command: a pre-action box clears; a refused answer to our decision gives the
// controls back (the refusal changed nothing, cdc 9.5); then the refusal, in words, near
// the controls.
export function refusal(msg, prefix = "") {
  const tb = store.state.t;
  const room = store.state.room;
  if (tb.pre && msg.ref === tb.pre.id) tb.pre = null;
  optionRefused(tb, msg.ref); // the option box shows the server's state again
  if (room.asked && msg.ref === room.askId) room.asked = ""; // the change asked is refused
  if (tb.acted && msg.ref === tb.acted.id) {
    // a decision already closed (we answered it, or it changed): nothing to say
    if (msg.code === "stale_decision") return;
    tb.acted = null;
  }
  const rule = msg.rule ? ` (${ruleText(msg.rule)})` : "";
  showError(`${prefix}${errorText(msg.code, msg.message, store.state.lang)}${rule}`);
}

function friendsError(msg) {
  const s = store.state;
  const code = msg.code;
  if (s.net.usingSeatToken && ["token_replayed", "token_expired", "bad_token"].includes(code)) {
    // the stored seat token is spent: forget it and come back with the invite
    localStorage.removeItem(KEY.seat(s.table));
    s.net.usingSeatToken = false;
    s.t.you = null;
    showError(`${t("seatTokenRefused")}: ${code}`);
    reconnectNow(tableHooks());
    return;
  }
  if (code === "not_seated" && s.net.usingSeatToken) {
    localStorage.removeItem(KEY.seat(s.table)); // we no longer hold the seat: watch
    s.net.usingSeatToken = false;
  }
  if (code === "replaced") {
    s.net.stopped = true;
    showError(t("replaced"));
    return;
  }
  if (code === "not_authenticated" && !s.net.usingSeatToken && !s.invite) {
    s.net.stopped = true;
    showError(t("noInvite"));
    return;
  }
  if (code === "bad_token" && !s.invite) s.net.stopped = true;
  refusal(msg);
}
