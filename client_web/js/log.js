// The table's log: each line is made from the message that caused it, so that it is redrawn
// in the other language when the language changes, and kept for the tab (sessionStorage) so
// that a reload brings the log back.
import { cardsText } from "./cards.js";
import { $, button, el } from "./dom.js";
import { fmt, noteText, potName, rankName, ruleText, secs, t, tableLabel, words } from "./i18n.js";
import { KEY, store } from "./store.js";
import { openHistory } from "./history.js";

const KEEP = 200;

export function nameOf(seat) {
  if (seat === null || seat === undefined) return "?";
  const s = store.state.t.seats[seat];
  return s ? s.player : `${t("seat")} ${seat}`;
}

// Chips put in before the cards (the option: casino cash, two big blinds, live).
const POSTS = ["post_sb", "post_bb", "post_ante", "post_seat_fee", "post_missed_bb", "post_dead", "post_option"];

// A rule correction or interpretation worth showing to the whole table.
export const ruled = (msg) => Boolean(msg.note || msg.rule) && !["returned", ...POSTS].includes(msg.action);

export function describeAction(msg) {
  const names = words().actions;
  let text = `${nameOf(msg.seat)}: ${names[msg.action] || msg.action}`;
  if ([...POSTS, "returned"].includes(msg.action)) text += ` ${fmt(msg.added)}`;
  else if (["call", "bet", "raise", "allin"].includes(msg.action)) text += ` ${fmt(msg.to)}`;
  else if (msg.action === "pending" && msg.added) text += ` (${fmt(msg.added)})`;
  if (msg.action === "post_option") return text; // "Ana: posts the option 100" (its rule is the table's)
  const note = noteText(msg.note, store.state.lang, fmt);
  const rule = ruleText(msg.rule);
  if (note && rule) return `${text} — ${note} (${rule})`;
  if (note || rule) return `${text} — ${note || rule}`;
  return text;
}

// "You are seated at Table 2, seat 4 (seat draw)", "You are moved to Table 3... (balancing)"
export function movedText(m) {
  const key = ["seated", "late entry", "rebuy"].includes(m.reason) ? "seatedAt" : "movedTo";
  return t(key).replace("%t", tableLabel(m.table)).replace("%s", m.seat)
    .replace("%r", words().moveReasons[m.reason] || m.reason);
}

// "You move from Jeudi to Jeudi 2 (tables balanced by the host)": a cash room's move (the
// new table's name from the room's listing, else from its snapshot once it came)
export function roomMoveText(m) {
  const s = store.state;
  const name = m.name || (s.table === m.table && s.t.config ? s.t.config.name : m.table);
  return t("roomMoved").replace("%f", m.fromName || m.from).replace("%t", name)
    .replace("%r", words().roomReasons[m.reason] || m.reason);
}

// The server's own voices at a table: the director's notes (a tournament: rulings, words for
// the table) and the host's (a friends table), sent as chat lines without a seat
// (server.table.core). Nobody may take these names (server/accounts/names.py), and the page
// draws them apart all the same: a badge and a frame (style.css, `.log li.voice`) that no
// chat line can make, since a player's words are only ever text after his name and "says".
const VOICES = { director: "voiceDirector", host: "voiceHost" };
export const voiceOf = (m) =>
  (m.seat === null || m.seat === undefined) && Object.hasOwn(VOICES, m.player) ? m.player : null;

function chatLine(m) {
  const voice = voiceOf(m);
  if (voice) return [() => `${t(VOICES[voice])}: ${m.text}`, `voice voice-${voice}`];
  return [() => `${m.player} ${t("says")}: ${m.text}`, "chat"];
}

// "Ana calls the Time on Bob: 30 s to act, the last 5 s counted aloud" (cdc 3.5): a ruling
// the whole table reads; "time bank for Bob: 70 s"
function clockText(m) {
  if (m.kind !== "time") return `${t("clockBank")} ${nameOf(m.seat)}: ${secs(m.remaining_ms)}`;
  const text = timeRuling(m);
  return m.countdown_ms ? `${text}${t("clockCounted").replace("%n", secs(m.countdown_ms))}` : text;
}

// "Ana calls the Time on Bob: 30 s to act" (also in the middle of the table, for a while)
export function timeRuling(m) {
  if (m.by === null || m.by === undefined) return `${t("clockTime")} ${nameOf(m.seat)}: ${secs(m.remaining_ms)}`;
  return t("clockTimeBy").replace("%c", nameOf(m.by)).replace("%p", nameOf(m.seat)).replace("%s", secs(m.remaining_ms));
}

// Five-card draw: "Ana drew 2 cards", « Ana est servi » (the count everyone sees).
function drewLine(m) {
  const key = !m.count ? "stoodPatLog" : m.count === 1 ? "drewLog1" : "drewLog";
  const text = t(key).replace("%p", nameOf(m.seat)).replace("%n", m.count);
  return m.reshuffled ? text + t("reshuffledLog").replace("%n", m.reshuffled) : text;
}

// A voice's line: its badge (words of the page, never of the message) and its words.
function voiceItem(msg, cls) {
  const item = el("li", cls);
  item.dataset.voice = voiceOf(msg);
  item.setAttribute("role", "note");
  item.append(el("span", "voice-badge", t(VOICES[voiceOf(msg)])), el("span", "voice-text", msg.text));
  return item;
}

// kind -> (msg) -> [text maker, css class, hand record link]
const LINES = {
  seat: (m) => [() => {
    if (m.status === "seated") return `${m.player} ${t("seated")} ${m.seat}`;
    if (m.status === "busted") return `${m.player} ${t("busted")}`;
    // a cash table's rebuy or top-up (a tournament's: the director's correction)
    if (m.status === "stack" && store.state.t.cash) return `${m.player} ${t("stackCash").replace("%n", fmt(m.stack))}`;
    return `${m.player} ${words().status[m.status] || m.status}`;
  }],
  hand_start: (m) => [() => t("newHand").replace("%n", m.hand).replace("%b", m.button), "hand"],
  cut_prompt: (m) => [() => `${nameOf(m.seat)} ${t("cutPrompt")}`],
  action: (m) => [() => describeAction(m), ruled(m) ? "rule act" : "act"],
  board: (m) => [() => `${words().streets[m.street] || m.street}: ${cardsText(m.cards)}`, "hand"],
  drew: (m) => [() => drewLine(m), "act drew"],
  shown: (m) => [() => `${nameOf(m.seat)} ${t("shows")} ${cardsText(m.cards)}${m.rank ? ` (${rankName(m.rank, store.state.lang)})` : ""}`],
  pot: (m) => [() => `${potName(m.index, m.run)} ${fmt(m.amount)}: ` +
    m.winners.map((w, i) => `${nameOf(w)} ${t("wins")} ${fmt(m.shares[i])}`).join(", "), "win"],
  cancelled: (m) => [() => `${t("handNo")} ${m.hand}: ${t("cancelled")}`, "hand"],
  // "Hand N: [hand record]" where the page offers records (a friends table); else "Hand N ✓"
  record: (m) => [
    () => `${t("handNo")} ${m.hand}${store.state.mode === "table" ? ": " : " ✓"}`,
    "hand",
    m.hand,
  ],
  clock: (m) => [() => clockText(m), m.kind === "time" ? "notice time-call" : ""],
  chat: chatLine,
  moved: (m) => [() => movedText(m), "notice"],
  roomMove: (m) => [() => roomMoveText(m), "notice moved"],
  notice: (m) => [() => `⚑ ${noteText(m.text, store.state.lang, fmt)}${m.rule ? ` (${ruleText(m.rule)})` : ""}`, "notice"],
  proof: (m) => [() => `${t("handNo")} ${m.hand}: ${m.problems.length ? `✗ ${t("holeFailed")}: ${m.problems.join("; ")}` : `✓ ${t("holeVerified")}`}`,
    m.problems.length ? "notice" : "fair"],
};

// Log a line made from a message (inside a store update); returns its text maker.
export function say(kind, msg) {
  const s = store.state;
  const log = s.t.log;
  const serial = log.length ? log[log.length - 1][2] + 1 : 1;
  log.push([kind, msg, serial]);
  if (log.length > KEEP + 50) log.splice(0, log.length - KEEP);
  try {
    sessionStorage.setItem(KEY.log(s.table), JSON.stringify(log));
  } catch {
    // storage full or refused: the log is only for this page then
  }
  return LINES[kind](msg)[0];
}

export function restoreLog(name) {
  try {
    const kept = JSON.parse(sessionStorage.getItem(KEY.log(name))) || [];
    return kept.filter((entry) => Array.isArray(entry) && LINES[entry[0]] && entry.length === 3);
  } catch {
    return [];
  }
}

function logItem([kind, msg, serial]) {
  const [make, cls = "", hand = null] = LINES[kind](msg);
  const item = kind === "chat" && voiceOf(msg) ? voiceItem(msg, cls) : el("li", cls, make());
  item.dataset.n = String(serial);
  if (hand !== null && store.state.mode === "table") { // records are served to a friends table's invitees
    item.append(button("link", t("record"), () => openHistory(hand)));
  }
  return item;
}

// The log follows the newest line (the current hand) unless the person scrolled up to read
// older ones; scrolled back to the bottom, it follows again. Only a scroll of his own
// decides: a list redrawn, hidden (0 high) or resized keeps following (issue 29: a laptop's
// log stayed on hand 1 at hand 8 after a redraw left it scrolled to the top).
// (store.state.ui.logUp: the person scrolled up)
const nearBottom = (list) => list.scrollHeight - list.scrollTop - list.clientHeight < 40;

function toBottom(list) {
  if (store.state.ui.logUp || !list.clientHeight) return;
  list.scrollTop = list.scrollHeight;
  list.dataset.follow = "1";
}

function watchScroll(list) {
  if (list.dataset.watched) return;
  list.dataset.watched = "1";
  // (our own scrolls land at the bottom: they keep it following)
  list.addEventListener("scroll", () => {
    if (!list.clientHeight) return; // hidden: not a person's scroll
    store.state.ui.logUp = !nearBottom(list);
    list.dataset.follow = store.state.ui.logUp ? "0" : "1";
  }, { passive: true });
  // shown again or resized (a layout change, a rotated phone): still at the newest line
  new ResizeObserver(() => toBottom(list)).observe(list);
}

// Draw the lines not drawn yet (all of them again when the language or the table changed).
export function renderLog() {
  const s = store.state;
  const list = $("log");
  watchScroll(list);
  const log = s.t.log;
  // (drawn again once the table is known: the lines kept over a reload then have their names)
  const key = `${s.lang}|${s.table}|${s.t.config ? 1 : 0}`;
  const last = list.lastElementChild ? Number(list.lastElementChild.dataset.n) : 0;
  if (list.dataset.key !== key || (log.length && last > log[log.length - 1][2])) {
    if (list.dataset.key && list.dataset.key.split("|")[1] !== s.table) s.ui.logUp = false; // another table
    list.dataset.key = key;
    list.replaceChildren(...log.map(logItem));
  } else {
    const fresh = log.filter((entry) => entry[2] > last);
    if (!fresh.length) return;
    list.append(...fresh.map(logItem));
    while (list.children.length > KEEP + 50) list.firstElementChild.remove();
  }
  toBottom(list);
}
