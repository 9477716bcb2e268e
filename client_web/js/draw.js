// Five-card draw at a table (docs/protocol.md "Five-card draw"): our five cards, tapped to
// mark those we throw away (at most the turn's `max_discard`), one button that sends the
// `draw` ("Discard 2" or "Stand pat"), and how many cards each seat drew (`drew`), on its
// seat and in the log; the cards we received (`drawn`) take the places of those we threw.
// The table's draw state (t.game, t.drew, t.discard, t.received, t.drawPhase) is the
// store's; nothing here decides a rule: the server says who draws and how many may go.
import { cardNode } from "./cards.js";
import { $, show } from "./dom.js";
import { t } from "./i18n.js";
import { say } from "./log.js";
import { command } from "./net.js";
import { store } from "./store.js";

export const isDraw = (tb) => tb.game === "draw";

// ------------------------------------------------------------------ pure: the marks, the words

// The cards marked after a tap on `card`: unmarked if it was, else marked while fewer than
// `max` are; the order of the hand kept (the `draw` names them as dealt).
export function toggleMark(hand, marked, card, max) {
  if (marked.includes(card)) return marked.filter((c) => c !== card);
  if (marked.length >= max || !hand.includes(card)) return marked;
  return hand.filter((c) => c === card || marked.includes(c));
}

// Our five cards after the draw, each received card where a discarded one was (the server's
// `cards` say which five; only their places are ours to choose).
export function placeReceived(hole, discarded, received, cards) {
  const next = [...received];
  const placed = hole.map((c) => (discarded.includes(c) ? next.shift() : c));
  const same = placed.length === cards.length && !next.length && cards.every((c) => placed.includes(c));
  return same ? placed : [...cards];
}

export const drawButtonText = (n) => (n ? t("discardN").replace("%n", n) : t("standPat"));

// "drew 2" / « a pris 2 cartes », "stood pat" / « servi »: under a seat.
export function drewTag(count) {
  if (!count) return t("stoodPat");
  return (count === 1 ? t("drew1") : t("drewN")).replace("%n", count);
}

// ------------------------------------------------------------------ the table's state

// A snapshot: the game, the draws made so far, whose draw it is (`to_act` is absent then).
export function drawSnapshot(tb, st) {
  tb.game = st.game || "holdem";
  tb.structure = st.structure || "no_limit";
  tb.drew = {};
  for (const [seat, count] of Object.entries(st.drew || {})) tb.drew[Number(seat)] = count;
  tb.discard = [];
  tb.received = [];
  tb.drawPhase = st.drawing !== undefined && st.drawing !== null;
  if (tb.drawPhase) {
    tb.toAct = st.drawing;
    tb.phase = "betting";
  }
}

export function drawHandStart(tb) {
  Object.assign(tb, { drew: {}, discard: [], received: [], drawPhase: false });
}

// The first betting round is over: its bets join the pot (there is no board to say so).
export function drawBegins(tb) {
  if (tb.drawPhase) return;
  tb.drawPhase = true;
  tb.bets = {};
  tb.pots = null;
}

// A draw is underway and `seat` has not drawn yet.
export const drawsNow = (tb, seat) => isDraw(tb) && tb.drawPhase && seat !== null && tb.drew[seat] === undefined &&
  Object.keys(tb.drew).length < [...tb.dealt].filter((n) => !tb.folded.has(n)).length;

export const DRAW_EVENTS = {
  drew(tb, msg) {
    drawBegins(tb);
    tb.drew[msg.seat] = msg.count;
    if (msg.seat === tb.toAct) tb.toAct = null;
    if (msg.seat === tb.you) tb.turn = null;
    say("drew", msg);
  },
  drawn(tb, msg) {
    if (msg.seat !== tb.you || !msg.cards.length) return;
    tb.hole = placeReceived(tb.hole, msg.discarded, msg.received, msg.cards);
    // (the hand's hole_proof opens them too: fairness.js checks them against these)
    if (tb.proofs[msg.hand]) tb.proofs[msg.hand].received = [...msg.received];
    tb.received = [...msg.received];
    tb.discard = [];
  },
};

// ------------------------------------------------------------------ the dock at our draw

function tap(card) {
  const tb = store.state.t;
  const c = tb.turn;
  if (!c || !c.draw) return;
  store.now(() => {
    tb.discard = toggleMark(c.cards || tb.hole, tb.discard, card, c.max_discard ?? 5);
  });
}

// Our five cards: buttons to tap at our draw (pressed: marked to discard), else faces, the
// cards just received outlined.
function holeNodes(tb, c) {
  const cards = c ? c.cards || tb.hole : tb.hole;
  return cards.map((card) => {
    const face = cardNode(card);
    if (!c) {
      face.classList.toggle("received", tb.received.includes(card));
      return face;
    }
    const marked = tb.discard.includes(card);
    const node = document.createElement("button");
    node.type = "button";
    node.className = `pick${marked ? " marked" : ""}`;
    node.dataset.card = card;
    node.setAttribute("aria-pressed", String(marked));
    node.setAttribute("aria-label", `${face.getAttribute("aria-label")}${marked ? `, ${t("marked")}` : ""}`);
    face.removeAttribute("role");
    face.removeAttribute("aria-label");
    node.addEventListener("click", () => tap(card));
    node.append(face);
    return node;
  });
}

// The dock at a draw table (called by controls.js with our open decision, or null).
export function renderDraw(s, c) {
  const tb = s.t;
  const draw = isDraw(tb);
  const mine = Boolean(draw && c && c.draw);
  $("hole").classList.toggle("five", draw);
  $("me").classList.toggle("drawing", mine);
  if (draw) $("hole").replaceChildren(...holeNodes(tb, mine ? c : null));
  if (!show($("draw-panel"), mine)) return;
  const max = c.max_discard ?? 5;
  const n = tb.discard.length;
  $("draw-hint").textContent = t("drawHint").replace("%n", max);
  $("draw-count").textContent = t("drawMarked").replace("%n", n).replace("%max", max);
  $("draw-count").dataset.count = String(n);
  $("draw-send").textContent = drawButtonText(n);
  $("draw-send").dataset.count = String(n);
}

// Send our draw: the cards marked (none: stand pat), answering the turn's decision; the
// panel closes until the next decision (a refusal gives it back: client.js).
function sendDraw() {
  const tb = store.state.t;
  const c = tb.turn;
  if (!c || !c.draw || (tb.acted && tb.acted.key === c.key)) return;
  const decision = c.decision !== undefined && c.decision !== null ? { decision: c.decision } : {};
  const id = command("draw", { hand: tb.hand, cards: [...tb.discard], ...decision });
  if (id === null) return;
  store.now(() => {
    tb.acted = { key: c.key, id };
  });
}

export function setupDraw() {
  $("draw-send").addEventListener("click", sendDraw);
}
