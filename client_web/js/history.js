// The hand history dialog: each finished hand's signed record, checked in the browser
// (fairness.js: every opened card against the commitment received before the cut, the
// signature, our own cards, the chips), said first in plain words (fairwords.js), the
// technical details folded below; and the hand replayed on a small felt (replayer.js).
import { cardNode } from "./cards.js";
import { $, button, el } from "./dom.js";
import { verifyRecord } from "./fairness.js";
import { mark, plainSentences } from "./fairwords.js";
import { fmt, potName, t, words } from "./i18n.js";
import { openReplay } from "./replayer.js";
import { KEY, saveJSON, store } from "./store.js";

export function openHistory(hand) {
  const tb = store.state.t;
  const dialog = $("history");
  const list = $("history-list");
  list.replaceChildren();
  if (!tb.hands.length) list.append(el("p", "hint", t("noHands")));
  for (const n of [...tb.hands].sort((a, b) => b - a).slice(0, 30)) {
    const b = button("hand-pick", `${t("handNo")} ${n}`, () => showHand(n));
    b.dataset.hand = String(n);
    list.append(b);
  }
  const last = hand ?? (tb.hands.length ? Math.max(...tb.hands) : null);
  $("history-hand").value = last ? String(last) : "";
  $("history-result").replaceChildren();
  store.state.ui.shownHand = null;
  if (!dialog.open) dialog.showModal();
  if (last) showHand(last);
}

async function fetchRecord(table, n) {
  const token = store.state.invite || localStorage.getItem(KEY.seat(table)) || "";
  const response = await fetch(`/api/hands/${encodeURIComponent(table)}/${n}.json?t=${encodeURIComponent(token)}`);
  if (!response.ok) throw new Error(`${response.status}: ${(await response.text()).trim()}`);
  return response.json();
}

async function showHand(n) {
  const s = store.state;
  const table = s.table;
  const out = $("history-result");
  s.ui.wantHand = n;
  out.replaceChildren(el("p", "hint", t("loading")));
  let record;
  try {
    record = await fetchRecord(table, n);
  } catch (err) {
    if (s.ui.wantHand === n) out.replaceChildren(el("p", "bad", String(err.message || err)));
    return;
  }
  const entry = s.t.proofs[n] || {};
  const seat = entry.seat ?? (entry.proof ? s.t.you : null);
  const result = await verifyRecord(record, {
    commitment: entry.commitment || null,
    holeProof: entry.proof || null,
    seat,
    hole: entry.hole || null,
  });
  if (s.ui.wantHand !== n || s.table !== table) return; // another hand was asked meanwhile
  s.ui.shownHand = { record, result, entry, seat, lang: s.lang };
  out.replaceChildren(recordView(s.ui.shownHand));
}

function cardsRow(label, cards) {
  const row = el("div", "row");
  const list = el("span", "cards small");
  list.append(...cards.map(cardNode));
  row.append(el("span", "", label), list);
  return row;
}

// The plain sentences, each a check that ran: ✓, ✗ with what it means, or – (not checkable).
function sentencesView(record, result, entry, seat) {
  const list = el("ul", "fair-words");
  for (const said of plainSentences(record, result, entry, seat)) {
    const item = el("li", said.ok === false ? "bad" : said.ok ? "good" : "muted");
    item.dataset.fair = said.key;
    item.dataset.ok = String(said.ok);
    item.append(el("span", "fair-text", `${said.text} `), el("span", "mark", mark(said.ok)));
    if (said.why) item.append(el("span", "why", said.why));
    list.append(item);
  }
  return list;
}

// What was checked, technically: each check of fairness.js, the root, the cut, the openings.
function detailsView(record, result) {
  const details = el("details", "fair-details");
  details.append(el("summary", "", t("fairDetails")));
  const checks = el("ul", "checks");
  for (const c of result.checks) {
    const item = el("li", c.ok === false ? "bad" : c.ok ? "good" : "muted", `${mark(c.ok)} ${t(c.key)}${c.detail ? ` (${c.detail})` : ""}`);
    item.dataset.check = c.key;
    item.dataset.ok = String(c.ok);
    checks.append(item);
  }
  details.append(checks);
  const chips = el("p", `chips-check ${result.chips.ok ? "good" : "bad"}`, `${mark(result.chips.ok)} ${t("chkChips")}${result.chips.detail ? ` (${result.chips.detail})` : ""}`);
  chips.dataset.ok = String(result.chips.ok);
  details.append(chips);
  const tech = el("dl", "tech");
  const pair = (label, value) => tech.append(el("dt", "", label), el("dd", "", value));
  pair(t("fwRoot"), record.root || "");
  pair(t("fwCommitment"), result.commitment || t("fwNotReceived"));
  pair(t("fwCutAt"), String(record.cut));
  pair(t("fwKey"), record.public_key || "");
  details.append(tech);
  const openings = el("ul", "openings");
  for (const o of record.opened || []) {
    openings.append(el("li", "", `${o.position} · ${o.card} · ${t("fwSalt")} ${o.salt} · ${t("fwProof")} ${(o.proof || []).map((p) => p[0]).join("")}`));
  }
  details.append(el("p", "hint", t("fwOpenings")), openings);
  return details;
}

function storyView(record) {
  const box = el("div", "story");
  const names = Object.fromEntries((record.players || []).map((p) => [String(p.seat), p.name]));
  box.append(el("p", "", `${t("players")}: ${(record.players || []).map((p) => `${p.name} (${t("seat")} ${p.seat}${p.seat === record.button ? `, ${t("button")}` : ""}) ${fmt(p.stack)}`).join(" · ")}`));
  if (record.game !== "draw") box.append(cardsRow(`${t("board")}:`, record.board || [])); // (draw: no board)
  const streets = {};
  for (const a of record.actions || []) (streets[a.street] = streets[a.street] || []).push(a);
  const verbs = words().actions;
  for (const [street, actions] of Object.entries(streets)) {
    const said = actions.map((a) => {
      const amount = a.added && !["check", "fold"].includes(a.action)
        ? ` ${fmt(["call", "bet", "raise", "allin"].includes(a.action) ? a.to : a.added)}` : "";
      return `${a.name} ${verbs[a.action] || a.action}${amount}`;
    });
    box.append(el("p", "street", `${words().streets[street] || street}: ${said.join(", ")}`));
  }
  for (const [seat, cards] of Object.entries(record.shown || {})) box.append(cardsRow(`${t("showdown")}: ${names[seat] || seat}`, cards));
  for (const p of record.pots || []) {
    const name = potName(p.index, p.run);
    box.append(el("p", "win", `${name} ${fmt(p.amount)}: ${p.shares.map(([w, share]) => `${names[String(w)] || w} ${t("wins")} ${fmt(share)}`).join(", ")}`));
  }
  return box;
}

function recordView({ record, result, entry, seat }) {
  const box = el("div", "record");
  box.dataset.hand = String(record.hand);
  const head = el("div", "record-head");
  const verdict = el("p", `verdict ${result.ok ? "good" : "bad"}`, `${t("handNo")} ${record.hand} — ${result.ok ? t("fairOk") : t("fairBad")}`);
  verdict.dataset.ok = String(result.ok);
  const replay = button("primary small replay-open", t("rpOpen"), () => openReplay(record, entry, seat));
  replay.dataset.hand = String(record.hand);
  head.append(verdict, replay);
  box.append(head, sentencesView(record, result, entry, seat), detailsView(record, result), storyView(record));
  return box;
}

// The cut we made ourselves: the plain words check that the deal used it.
function rememberCut() {
  const tb = store.state.t;
  if (!tb.cut || tb.cut.seat !== tb.you) return;
  const entry = tb.proofs[tb.hand] || (tb.proofs[tb.hand] = {});
  entry.myCut = Number($("cut-at").value) % 52;
  saveJSON(KEY.proofs(store.state.table), tb.proofs);
}

// The language changed while a record is shown: say it again in the new one.
function redraw(s) {
  const shown = s.ui.shownHand;
  if (!shown || shown.lang === s.lang || !$("history").open) return;
  shown.lang = s.lang;
  $("history-result").replaceChildren(recordView(shown));
}

export function setupHistory() {
  $("history-open").addEventListener("click", () => openHistory(null));
  $("history-close").addEventListener("click", () => $("history").close());
  $("history-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const n = Math.floor(Number($("history-hand").value));
    if (n > 0) showHand(n);
  });
  $("cut").addEventListener("click", rememberCut);
  store.subscribe(redraw);
}
