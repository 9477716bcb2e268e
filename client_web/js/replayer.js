// A finished hand replayed from its signed record (docs/fairness.md, "The hand record"): a
// small felt with the seats, their stacks and bets, the board and the chips in the middle,
// stepped through the record's actions (buttons, arrow keys, or played), then the hands shown
// and each pot's winners. Everything comes from the record: the steps only add up its
// `added`, `returned` and `shares`; the pots are the record's (never computed here).
import { cardNode, cardsText } from "./cards.js";
import { $, button, el } from "./dom.js";
import { colon, fmt, potName, t, words } from "./i18n.js";
import { store } from "./store.js";

const STREETS = ["preflop", "flop", "turn", "river"];
const BOARD_AT = { preflop: 0, flop: 3, turn: 4, river: 5 };
const FORCED = ["post_sb", "post_bb", "post_ante", "post_seat_fee", "post_missed_bb", "post_dead", "post_option"];
const PLAY_MS = 1100;

// ---------------------------------------------------------------- the steps (pure)

function snapshot(kind, at, state, extra = {}) {
  return {
    kind,
    at,
    stacks: { ...state.stacks },
    bets: { ...state.bets },
    folded: [...state.folded],
    allin: [...state.allin],
    board: [...state.board],
    total: state.total,
    shown: state.shownNow ? { ...state.shown } : {},
    awarded: [...state.awarded],
    ...extra,
  };
}

// Deal the board up to `street` (one step per street dealt), gathering the bets.
function dealTo(street, state, record, steps) {
  const board = record.board || [];
  for (const next of STREETS.slice(STREETS.indexOf(state.street) + 1, STREETS.indexOf(street) + 1)) {
    state.street = next;
    state.bets = {};
    const cards = board.slice(state.board.length, BOARD_AT[next]);
    if (!cards.length) continue;
    state.board.push(...cards);
    steps.push(snapshot("board", next, state, { cards }));
  }
}

// Every step of the hand: the start, each action, the board as it came, the chips returned,
// the hands shown, each pot awarded. A step holds the whole felt (stepping back is free).
export function buildSteps(record) {
  const state = {
    stacks: Object.fromEntries((record.players || []).map((p) => [p.seat, p.stack])),
    bets: {},
    folded: new Set(),
    allin: new Set(),
    board: [],
    street: "preflop",
    total: 0,
    shown: record.shown || {},
    shownNow: false,
    awarded: [],
  };
  const steps = [snapshot("start", 0, state)];
  (record.actions || []).forEach((a, i) => {
    if (a.street !== state.street && STREETS.includes(a.street)) dealTo(a.street, state, record, steps);
    state.stacks[a.seat] -= a.added;
    state.total += a.added;
    if (!["post_ante", "post_dead"].includes(a.action)) state.bets[a.seat] = a.to; // straight in
    if (a.action === "fold") state.folded.add(a.seat);
    if (a.allin) state.allin.add(a.seat);
    steps.push(snapshot("action", i, state));
  });
  (record.returned || []).forEach((r, i) => {
    state.stacks[r.seat] += r.amount;
    state.total -= r.amount;
    state.bets[r.seat] = Math.max(0, (state.bets[r.seat] || 0) - r.amount);
    steps.push(snapshot("returned", i, state));
  });
  // hands shown at an all-in are turned up before the rest of the board (cdc 10.4)
  const runout = (record.board || []).length > BOARD_AT[state.street];
  const showNow = () => {
    if (!Object.keys(state.shown).length) return;
    state.shownNow = true;
    state.bets = {};
    steps.push(snapshot("shown", 0, state));
  };
  if (runout) showNow();
  dealTo("river", state, record, steps);
  if (!runout) showNow();
  state.bets = {};
  (record.pots || []).forEach((pot, i) => {
    for (const [seat, share] of pot.shares) state.stacks[seat] += share;
    state.total -= pot.amount;
    state.awarded.push(pot);
    steps.push(snapshot("pot", i, state));
  });
  return steps;
}

// ---------------------------------------------------------------- words

const nameOf = (record, seat) => ((record.players || []).find((p) => p.seat === seat) || {}).name || `${t("seat")} ${seat}`;
const potOf = (pot) => potName(pot.index, pot.run);
const cap = (text) => text.charAt(0).toUpperCase() + text.slice(1);

function actionText(record, a) {
  let text = `${a.name} ${words().actions[a.action] || a.action}`;
  if (FORCED.includes(a.action)) text += ` ${fmt(a.added)}`;
  else if (["call", "bet", "raise", "allin"].includes(a.action)) text += ` ${fmt(a.to)}`;
  return text;
}

export function stepText(record, step) {
  switch (step.kind) {
    case "start": return t("rpStart");
    case "action": return actionText(record, record.actions[step.at]);
    case "board": return `${colon(words().streets[step.at] || step.at)} ${cardsText(step.cards)}`;
    case "returned": {
      const r = record.returned[step.at];
      return `${r.name} ${words().actions.returned} ${fmt(r.amount)}`;
    }
    case "shown": return `${colon(t("showdown"))} ${Object.entries(step.shown).map(([seat, cards]) => `${nameOf(record, Number(seat))} ${cardsText(cards)}`).join(" · ")}`;
    case "pot": {
      const pot = record.pots[step.at];
      return `${colon(`${cap(potOf(pot))} (${fmt(pot.amount)})`)} ${pot.shares.map(([w, share]) => `${nameOf(record, w)} ${t("wins")} ${fmt(share)}`).join(", ")}`;
    }
    default: return "";
  }
}

// ---------------------------------------------------------------- the felt

// Our seat at the bottom (else the lowest), the others around an ellipse in seat order.
function seatPlace(record, seat, anchor) {
  const max = record.max_seats || 10;
  const k = (seat - anchor + max) % max;
  const angle = Math.PI / 2 + (2 * Math.PI * k) / max;
  return { x: 50 + 40 * Math.cos(angle), y: 50 + 38 * Math.sin(angle) };
}

// (five-card draw: five cards, ours as dealt)
function seatCards(step, seat, hole, you, dealt) {
  const row = el("div", dealt === 5 ? "cards rp-cards five" : "cards rp-cards");
  const shown = step.shown[seat];
  if (shown) row.append(...shown.map(cardNode));
  else if (seat === you && hole && hole.length === dealt) row.append(...hole.map(cardNode));
  else row.append(...Array.from({ length: dealt }, () => cardNode(null)));
  return row;
}

function seatNode(record, step, p, view) {
  const box = el("div", "rp-seat");
  const folded = step.folded.includes(p.seat);
  const won = step.awarded.some((pot) => pot.winners.includes(p.seat));
  box.dataset.seat = String(p.seat);
  box.dataset.stack = String(step.stacks[p.seat]);
  box.classList.toggle("folded", folded);
  box.classList.toggle("winner", won);
  box.classList.toggle("you", p.seat === view.you);
  const place = seatPlace(record, p.seat, view.anchor);
  box.style.left = `${place.x}%`;
  box.style.top = `${place.y}%`;
  if (!folded) box.append(seatCards(step, p.seat, view.hole, view.you, record.game === "draw" ? 5 : 2));
  box.append(el("div", "rp-name", p.name));
  const stack = el("div", "rp-stack", fmt(step.stacks[p.seat]));
  if (step.allin.includes(p.seat) && !folded && step.stacks[p.seat] === 0 && step.kind !== "pot") stack.textContent = t("allin");
  box.append(stack);
  if (record.button === p.seat) box.append(el("span", "rp-dealer", t("button")));
  box.setAttribute("aria-label", `${p.name}, ${fmt(step.stacks[p.seat])}${folded ? `, ${t("folded")}` : ""}`);
  return box;
}

function betNode(record, step, seat, view) {
  const place = seatPlace(record, seat, view.anchor);
  const chip = el("div", "rp-bet");
  chip.dataset.seat = String(seat);
  chip.dataset.bet = String(step.bets[seat]);
  chip.style.left = `${50 + (place.x - 50) * 0.55}%`;
  chip.style.top = `${50 + (place.y - 50) * 0.5}%`;
  chip.append(el("span", "chip-dot"), el("span", "", fmt(step.bets[seat])));
  return chip;
}

function middle(record, step) {
  const center = el("div", "rp-center");
  const board = el("div", "cards board rp-board");
  board.append(...step.board.map(cardNode));
  for (let i = step.board.length; i < (record.board || []).length; i++) board.append(cardNode(""));
  const total = el("div", "rp-total", `${t("rpPot")} ${fmt(step.total)}`);
  total.id = "rp-total";
  total.dataset.total = String(step.total);
  total.classList.toggle("gone", step.kind === "pot" && step.total === 0); // every chip awarded
  const pots = el("ul", "rp-pots");
  pots.id = "rp-pots";
  pots.dataset.amounts = JSON.stringify(step.awarded.map((p) => p.amount));
  for (const pot of step.awarded) {
    const winners = pot.winners.map((w) => nameOf(record, w)).join(", ");
    const item = el("li", "rp-pot", `${cap(potOf(pot))} ${fmt(pot.amount)} → ${winners}`);
    item.dataset.index = String(pot.index);
    pots.append(item);
  }
  center.append(board, total, pots);
  return center;
}

// ---------------------------------------------------------------- the dialog

function dialog() {
  let node = $("replay");
  if (node) return node;
  node = el("dialog", "replay");
  node.id = "replay";
  node.setAttribute("aria-labelledby", "rp-title");
  const head = el("div", "rp-head");
  const title = el("h2", "", "");
  title.id = "rp-title";
  const close = button("small", "", () => node.close());
  close.id = "rp-close";
  head.append(title, close);
  const felt = el("div", "rp-felt");
  felt.id = "rp-felt";
  felt.setAttribute("role", "group");
  const say = el("p", "rp-say");
  say.id = "rp-say";
  say.setAttribute("aria-live", "polite");
  const bar = el("div", "rp-controls");
  for (const [id, text, go] of [["rp-first", "«", () => goTo(0)], ["rp-prev", "‹", () => goTo(current() - 1)],
    ["rp-play", "▶", togglePlay], ["rp-next", "›", () => goTo(current() + 1)], ["rp-last", "»", () => goTo(Infinity)]]) {
    const b = button("rp-button", text, () => {
      if (id !== "rp-play") stopPlay();
      go();
    });
    b.id = id;
    bar.append(b);
  }
  const where = el("span", "rp-where");
  where.id = "rp-where";
  const keys = el("span", "hint rp-keys");
  keys.id = "rp-keys";
  bar.append(where, keys);
  node.append(head, felt, say, bar);
  // the keys work wherever the focus is while the replayer is open (a button that became
  // disabled at the last step loses the focus to the page)
  document.addEventListener("keydown", (event) => {
    if (node.open) onKey(event);
  });
  node.addEventListener("close", stopPlay);
  document.body.append(node);
  return node;
}

function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const moves = { ArrowLeft: -1, ArrowRight: 1 };
  if (event.key in moves) {
    stopPlay();
    goTo(current() + moves[event.key]);
  } else if (event.key === "Home" || event.key === "End") {
    stopPlay();
    goTo(event.key === "Home" ? 0 : Infinity);
  } else if (event.key === " " && !(event.target instanceof HTMLButtonElement)) {
    togglePlay();
  } else {
    return;
  }
  event.preventDefault();
}

const replay = () => store.state.ui.replay;
const current = () => (replay() ? replay().step : 0);

function goTo(n) {
  const r = replay();
  if (!r) return;
  r.step = Math.max(0, Math.min(r.steps.length - 1, n));
  if (r.step === r.steps.length - 1) stopPlay();
  render();
  if (document.activeElement && document.activeElement.disabled) $("rp-play").focus();
}

function stopPlay() {
  const r = replay();
  if (r && r.timer) {
    clearInterval(r.timer);
    r.timer = null;
    render();
  }
}

function togglePlay() {
  const r = replay();
  if (!r) return;
  if (r.timer) {
    stopPlay();
    return;
  }
  if (r.step === r.steps.length - 1) r.step = 0;
  r.timer = setInterval(() => goTo(current() + 1), PLAY_MS);
  render();
}

function render() {
  const r = replay();
  if (!r) return;
  const { record } = r;
  const step = r.steps[r.step];
  const node = $("replay");
  node.dataset.step = String(r.step);
  node.dataset.steps = String(r.steps.length);
  node.dataset.kind = step.kind;
  node.dataset.at = String(step.at);
  $("rp-title").textContent = t("rpTitle").replace("%n", record.hand);
  $("rp-close").textContent = t("close");
  const felt = $("rp-felt");
  felt.setAttribute("aria-label", t("tableWord"));
  const seats = (record.players || []).map((p) => seatNode(record, step, p, r.view));
  const bets = Object.keys(step.bets).map(Number).filter((s) => step.bets[s] > 0).map((s) => betNode(record, step, s, r.view));
  felt.replaceChildren(el("div", "rp-oval"), middle(record, step), ...seats, ...bets);
  $("rp-say").textContent = stepText(record, step);
  $("rp-where").textContent = t("rpStep").replace("%i", r.step + 1).replace("%n", r.steps.length);
  $("rp-keys").textContent = t("rpKeys");
  const labels = { "rp-first": "rpFirst", "rp-prev": "rpPrev", "rp-next": "rpNext", "rp-last": "rpLast", "rp-play": r.timer ? "rpPause" : "rpPlay" };
  for (const [id, key] of Object.entries(labels)) {
    $(id).setAttribute("aria-label", t(key));
    $(id).title = t(key);
  }
  $("rp-play").textContent = r.timer ? "❚❚" : "▶";
  $("rp-play").classList.toggle("playing", Boolean(r.timer));
  $("rp-first").disabled = $("rp-prev").disabled = r.step === 0;
  $("rp-next").disabled = $("rp-last").disabled = r.step === r.steps.length - 1;
}

// Open the replayer on a record; `entry`/`seat`: our own cards, shown face up at our seat.
export function openReplay(record, entry = {}, seat = null) {
  const node = dialog();
  stopPlay();
  const players = (record.players || []).map((p) => p.seat);
  const you = players.includes(seat) ? seat : null;
  const anchor = you ?? (players.length ? Math.min(...players) : 1);
  store.state.ui.replay = { record, steps: buildSteps(record), step: 0, timer: null, view: { you, anchor, hole: entry.hole || null } };
  render();
  if (!node.open) node.showModal();
  $("rp-next").focus();
}
