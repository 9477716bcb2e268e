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
const POSTS = ["post_sb", "post_bb", "post_ante", "post_seat_fee", "post_dead", "post_option"];

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
    return `${m.player} ${words().status[m.status] || m.status}`;
  }],
  hand_start: (m) => [() => t("newHand").replace("%n", m.hand).replace("%b", m.button), "hand"],
  cut_prompt: (m) => [() => `${nameOf(m.seat)} ${t("cutPrompt")}`],
  action: (m) => [() => describeAction(m), ruled(m) ? "rule act" : "act"],
  board: (m) => [() => `${words().streets[m.street] || m.street}: ${cardsText(m.cards)}`, "hand"],
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
  clock: (m) => [() => `${m.kind === "time" ? t("clockTime") : t("clockBank")} ${nameOf(m.seat)}: ${secs(m.remaining_ms)}`,
    m.kind === "time" ? "notice" : ""],
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

// Draw the lines not drawn yet (all of them again when the language or the table changed).
export function renderLog() {
  const s = store.state;
  const list = $("log");
  const log = s.t.log;
  const key = `${s.lang}|${s.table}`;
  const last = list.lastElementChild ? Number(list.lastElementChild.dataset.n) : 0;
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  if (list.dataset.key !== key || (log.length && last > log[log.length - 1][2])) {
    list.dataset.key = key;
    list.replaceChildren(...log.map(logItem));
  } else {
    list.append(...log.filter((entry) => entry[2] > last).map(logItem));
    while (list.children.length > KEEP + 50) list.firstElementChild.remove();
  }
  if (atBottom || list.dataset.key !== key) list.scrollTop = list.scrollHeight;
}
