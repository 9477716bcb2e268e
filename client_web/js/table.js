// The table view: seats around the felt (ours at the bottom), each seat's bet in front of it,
// the board, the pots as the server gives them, and whose turn it is. Positions are computed
// from the felt's real size, so that nothing overlaps at any screen size: the seats on an
// ellipse, each bet on the way from its seat to the middle where it does not touch the board,
// the pot or another seat.
import { cardNode } from "./cards.js";
import { openBuyIn, submitBuyIn } from "./cash_forms.js";
import { $, button, el } from "./dom.js";
import { drawsNow, drewTag, isDraw } from "./draw.js";
import { inHand } from "./events.js";
import { colon, fmt, potName, t } from "./i18n.js";
import { nameOf } from "./log.js";
import { command } from "./net.js";
import { store } from "./store.js";
import { showError } from "./ui.js";

export function renderHeader(s) {
  const cfg = s.t.config;
  if (!cfg) return;
  const [sb, bb, ante] = cfg.blinds;
  // five-card draw says so (and pot limit), a hold'em table as it always did
  const game = isDraw(s.t) ? `${t("drawGame")} · ${s.t.structure === "pot_limit" ? `${t("potLimit")} · ` : ""}` : "";
  const info = `${cfg.profile} · ${game}${fmt(sb)}/${fmt(bb)}${ante ? ` (ante ${fmt(ante)})` : ""}` +
    (s.t.hand ? ` · ${t("handNo")} ${s.t.hand}` : "");
  if (s.mode === "table") {
    $("title").textContent = cfg.name;
    document.title = `${cfg.name} — Brasseur`;
  }
  $("info").textContent = info;
}

function seatAngle(s, n) {
  const max = s.t.config.max_seats;
  const anchor = s.t.you ?? s.t.lastSeat ?? 1; // our seat at the bottom (still after a bust)
  const k = (n - anchor + max) % max;
  return Math.PI / 2 + (2 * Math.PI * k) / max;
}

// Sit at a free seat of a friends table (a nickname first: the table shows it).
function sit(n) {
  const s = store.state;
  if (!s.invite) {
    showError(t("noInvite"));
    return;
  }
  if (!s.nick) {
    showError(t("nickFirst"));
    $("nick-form").hidden = false;
    $("nick").focus();
    return;
  }
  if (s.t.cash) {
    openBuyIn(n); // a cash table: the chips bought come with the seat (cash_forms.js)
    return;
  }
  command("sit", { seat: n, token: s.invite });
}

// The buy-in form of a cash table: sit at the seat chosen with the amount typed.
export const buyIn = submitBuyIn;

function freeSeat(s, n) {
  const box = el("div", "seat free");
  box.dataset.seat = String(n);
  if (s.mode === "table" && s.t.you === null && s.t.config) {
    const label = t("sitAt").replace("%n", n);
    const b = button("sit", "+", () => sit(n));
    b.setAttribute("aria-label", label);
    b.title = label;
    box.append(b);
  } else {
    box.classList.add("dot");
    box.setAttribute("aria-hidden", "true");
  }
  return box;
}

function seatTags(tb, n, x) {
  const tags = [];
  if (x.busted) tags.push(t("outOfChips"));
  else if (x.short) tags.push(t("short"));
  else if (tb.allin.has(n) && !tb.folded.has(n) && inHand(tb)) tags.push(t("allin"));
  // absent at the deal (cdc 4.1): a dead hand, never dealt cards, is not a fold
  const dead = tb.dead.has(n) || (inHand(tb) && !tb.dealt.has(n));
  if (tb.folded.has(n) && inHand(tb) && !dead) tags.push(t("folded"));
  if (x.sittingOut) tags.push(t("sittingOut"));
  else if (dead && inHand(tb) && !x.busted && !x.short) tags.push(t("notDealt")); // (first: a seat is narrow)
  if (!x.connected && !x.busted) tags.push(t("away"));
  if (x.leaving) tags.push(t("leaving"));
  return tags;
}

function seatNode(s, n) {
  const tb = s.t;
  const x = tb.seats[n];
  if (!x) return freeSeat(s, n);
  const box = el("div", "seat");
  box.dataset.seat = String(n);
  box.dataset.player = x.player;
  box.dataset.stack = String(x.stack);
  const acting = n === tb.toAct && tb.phase === "betting";
  const drawing = acting && drawsNow(tb, n);
  const you = n === tb.you;
  box.classList.toggle("you", you);
  box.classList.toggle("acting", acting);
  box.classList.toggle("drawing", drawing);
  box.classList.toggle("folded", tb.folded.has(n));
  box.classList.toggle("away", !x.connected);
  box.classList.toggle("busted", Boolean(x.busted));
  box.classList.toggle("winner", tb.awards.some((p) => p.winners.includes(n)));
  box.setAttribute("aria-label", `${t("seat")} ${n}: ${x.player}${you ? ` (${t("you")})` : ""}, ${fmt(x.stack)}`);
  const cards = tb.cards[n];
  // others' cards above their seat (face down, or shown); ours are in the dock
  if (cards && !tb.folded.has(n) && !you) {
    const row = el("div", isDraw(tb) ? "cards five" : "cards");
    if (cards.length) {
      row.append(...cards.map((card) => {
        const node = cardNode(card);
        node.classList.add("face");
        return node;
      }));
    } else row.append(...Array.from({ length: isDraw(tb) ? 5 : 2 }, () => cardNode(null)));
    box.append(row);
  }
  const name = el("div", "player", x.player);
  name.title = x.player;
  box.append(name);
  const line = el("div", "stack", fmt(x.stack));
  if ((inHand(tb) || tb.phase === "between") && tb.dealt.has(n)) {
    if (tb.blindSeats.sb === n) line.prepend(el("span", "tag sb", t("sbTag")), " ");
    if (tb.blindSeats.bb === n) line.prepend(el("span", "tag bb", t("bbTag")), " ");
  }
  box.append(line);
  const tags = seatTags(tb, n, x);
  if (tags.length) box.append(el("div", "tags", tags.join(" · ")));
  // five-card draw: how many cards the seat drew, as everyone sees at a live table (a line
  // of its own, wrapped on a narrow seat rather than cut)
  if (isDraw(tb) && tb.drew[n] !== undefined && inHand(tb) && !tb.folded.has(n)) {
    const drew = el("div", "drew", drewTag(tb.drew[n]));
    drew.dataset.count = String(tb.drew[n]);
    box.append(drew);
  }
  if (acting) {
    const timer = el("div", "timer seat-timer");
    timer.append(el("span", "bar"), el("span", "secs"));
    box.append(timer);
  }
  if (tb.button === n) {
    const dealer = el("span", "dealer", t("button"));
    dealer.title = t("dealerButton");
    box.append(dealer);
  }
  return box;
}

function renderSeats(s) {
  const seats = $("seats");
  seats.replaceChildren();
  const tb = s.t;
  if (!tb.config) return;
  for (let n = 1; n <= tb.config.max_seats; n++) {
    const box = seatNode(s, n);
    box.dataset.angle = String(seatAngle(s, n));
    seats.append(box);
    const bet = tb.bets[n];
    if (bet && tb.seats[n]) {
      const chip = el("div", "bet");
      chip.dataset.seat = String(n);
      chip.dataset.bet = String(bet);
      chip.append(el("span", "chip-dot"), el("span", "bet-amount", fmt(bet)));
      seats.append(chip);
    }
  }
}


function renderCenter(s) {
  const tb = s.t;
  const live = inHand(tb);
  const board = [...tb.board];
  // (five-card draw has no board: the middle is the pot and whose turn it is)
  if (tb.config && (live || board.length) && !isDraw(tb)) while (board.length < 5) board.push("");
  $("board").replaceChildren(...board.map(cardNode));
  const potNode = $("pot");
  potNode.textContent = live && tb.potTotal > 0 ? `${t("pot")} ${fmt(tb.potTotal)}` : "";
  potNode.dataset.total = String(live ? tb.potTotal : 0);
  // the pots as the server has them: a side pot only when the server says there is one
  const list = $("pots");
  const pots = tb.awards.length
    ? [...tb.awards].sort((a, b) => (a.run || 1) - (b.run || 1) || a.index - b.index)
    : (live ? tb.pots || [] : []).map((p, index) => ({ ...p, index }));
  list.dataset.amounts = JSON.stringify(pots.map((p) => p.amount));
  list.replaceChildren(
    ...(pots.length > 1 ? pots : []).map((p) => {
      const item = el("span", "side-pot", `${colon(potName(p.index, p.run))} ${fmt(p.amount)}`);
      item.dataset.amount = String(p.amount);
      return item;
    }),
  );
  let turn = "";
  if (tb.config && tb.phase === "cut" && tb.cut) turn = `${nameOf(tb.cut.seat)} ${t("cutting")}`;
  else if (tb.config && tb.toAct !== null && tb.phase === "betting" && drawsNow(tb, tb.toAct)) {
    turn = tb.toAct === tb.you ? t("yourDraw") : t("drawing").replace("%p", nameOf(tb.toAct));
  } else if (tb.config && tb.toAct !== null && tb.phase === "betting") {
    turn = tb.toAct === tb.you ? t("yourTurn") : `${colon(t("toAct"))} ${nameOf(tb.toAct)}`;
  } else if (tb.config && tb.phase === "waiting") {
    // a cash table may wait for short stacks to add chips rather than for players
    const short = Object.values(tb.seats).filter((x) => x.short).map((x) => x.player);
    turn = short.length ? t("waitingChips").replace("%p", short.join(", ")) : t("waiting");
    // a cash table with opening hours, closed (fpc cash: « Les tables ouvrent à partir de 20h00 »)
    if (tb.cash && tb.cash.open === false) turn = t("closedHours").replace("%h", tb.cash.hours);
  }
  $("turn").textContent = turn;
  $("turn").classList.toggle("mine", tb.toAct === tb.you && tb.phase === "betting");
  $("winners").textContent = tb.awards
    .map((p) => p.winners.map((w, i) => `${nameOf(w)} ${t("wins")} ${fmt(p.shares[i])}`).join(", "))
    .join(" · ");
  const ruling = $("ruling");
  const showRuling = tb.ruling && tb.ruling.until > performance.now();
  ruling.hidden = !showRuling;
  if (showRuling) ruling.textContent = tb.ruling.make();
}

// ------------------------------------------------------------------ placing things on the felt

const overlap = (a, b) =>
  Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) *
  Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));

const rectAt = (x, y, w, h) => ({ left: x - w / 2, top: y - h / 2, right: x + w / 2, bottom: y + h / 2 });

function grow(r, m) {
  return { left: r.left - m, top: r.top - m, right: r.right + m, bottom: r.bottom + m };
}

// A node's box relative to the felt (a seat with its cards above it).
function boxOf(node, origin) {
  const r = node.getBoundingClientRect();
  const box = { left: r.left - origin.left, top: r.top - origin.top, right: r.right - origin.left, bottom: r.bottom - origin.top };
  for (const child of node.querySelectorAll(".cards, .dealer")) {
    const c = child.getBoundingClientRect();
    box.left = Math.min(box.left, c.left - origin.left);
    box.top = Math.min(box.top, c.top - origin.top);
    box.right = Math.max(box.right, c.right - origin.left);
    box.bottom = Math.max(box.bottom, c.bottom - origin.top);
  }
  return box;
}

function placeSeats(felt, W, H) {
  const seats = [...felt.querySelectorAll(".seat")];
  const occupied = seats.filter((n) => !n.classList.contains("free"));
  // (ours, at the bottom, may be wider: its width does not narrow the ellipse)
  const sw = Math.max(60, ...occupied.filter((n) => !n.classList.contains("you")).map((n) => n.offsetWidth));
  const sh = Math.max(34, ...occupied.map((n) => n.offsetHeight));
  const up = occupied.reduce((m, n) => Math.max(m, n.querySelector(".cards")?.offsetHeight || 0), 0);
  const rx = Math.max(10, W / 2 - sw / 2 - 3);
  const top = up + sh / 2 + 3;
  const bottom = H - sh / 2 - 3;
  const ry = Math.max(10, (bottom - top) / 2);
  const cy = (top + bottom) / 2;
  for (const node of seats) {
    const angle = Number(node.dataset.angle);
    node.style.left = `${W / 2 + rx * Math.cos(angle)}px`;
    node.style.top = `${cy + ry * Math.sin(angle)}px`;
  }
  const bg = felt.querySelector(".felt-bg");
  bg.style.inset = `${Math.round(cy - ry)}px ${Math.round(W / 2 - rx)}px ${Math.round(H - cy - ry)}px`;
  return cy;
}

// Each bet along the line from its seat to the middle, nearest its seat, where it touches
// neither the board and pots, nor a seat, nor another bet; else beside its seat.
function placeBets(felt, W, H, cy) {
  const origin = felt.getBoundingClientRect();
  const center = grow(boxOf($("center"), origin), 4);
  const seatBoxes = {};
  for (const node of felt.querySelectorAll(".seat")) seatBoxes[node.dataset.seat] = grow(boxOf(node, origin), 2);
  const taken = [center, ...Object.values(seatBoxes)];
  const bounds = { left: 0, top: 0, right: W, bottom: H };
  for (const bet of felt.querySelectorAll(".bet")) {
    const w = bet.offsetWidth;
    const h = bet.offsetHeight;
    const seat = seatBoxes[bet.dataset.seat];
    const sx = (seat.left + seat.right) / 2;
    const sy = (seat.top + seat.bottom) / 2;
    const candidates = [];
    for (let k = 20; k >= 4; k--) candidates.push([W / 2 + ((sx - W / 2) * k) / 20, cy + ((sy - cy) * k) / 20]);
    const toCenterY = sy > cy ? -1 : 1;
    candidates.push([sx, toCenterY > 0 ? seat.bottom + h / 2 + 2 : seat.top - h / 2 - 2]);
    candidates.push([sx < W / 2 ? seat.right + w / 2 + 2 : seat.left - w / 2 - 2, sy]);
    candidates.push([sx, toCenterY > 0 ? seat.top - h / 2 - 2 : seat.bottom + h / 2 + 2]);
    let best = null;
    for (const [x, y] of candidates) {
      const r = rectAt(x, y, w, h);
      const outside = r.left < bounds.left || r.top < bounds.top || r.right > bounds.right || r.bottom > bounds.bottom;
      const cost = taken.reduce((sum, o) => sum + overlap(r, o), 0) + (outside ? 1e6 : 0);
      if (!best || cost < best.cost) best = { r, cost };
      if (cost === 0) break;
    }
    bet.style.left = `${best.r.left}px`;
    bet.style.top = `${best.r.top}px`;
    taken.push(grow(best.r, 2));
  }
}

// The middle (board, pot, whose turn): on the seats' centre line, or a little above or below
// it where the seats leave room (a tall phone has seats at mid-height), its cards made
// smaller only when no place is free. The place found is kept for the same felt, seats and
// middle: it is searched again only when they change.
function fitCenter(felt, cy, W, H) {
  const center = $("center");
  const seatNodes = [...felt.querySelectorAll(".seat")];
  const inside = [...center.children].map((c) => (c.hidden || !c.childNodes.length ? 0 : c.childNodes.length)).join(".");
  const key = `${W}x${H}|${inside}|${seatNodes.map((n) => `${n.dataset.seat}:${n.offsetWidth}x${n.offsetHeight}`).join(",")}`;
  const fit = store.state.ui.fit || {};
  if (fit.key === key) {
    center.style.top = fit.top;
    if (fit.width) center.style.setProperty("--board-w", fit.width);
    else center.style.removeProperty("--board-w");
    return;
  }
  center.style.removeProperty("--board-w");
  const origin = felt.getBoundingClientRect();
  const seats = seatNodes.map((node) => grow(boxOf(node, origin), 3));
  const step = H * 0.045;
  let top = cy;
  search: for (let i = 0; i < 16; i++) {
    const w = center.offsetWidth;
    const h = center.offsetHeight;
    for (const k of [0, -1, 1, -2, 2, -3, 3, -4, 4]) {
      const y = cy + k * step;
      const r = rectAt(W / 2, y, w, h);
      if (r.top < 0 || r.bottom > H) continue;
      if (!seats.some((seat) => overlap(r, seat) > 0)) {
        top = y;
        break search;
      }
    }
    const card = $("board").querySelector(".card");
    const width = card ? card.offsetWidth : 0;
    if (width <= 22) break;
    center.style.setProperty("--board-w", `${width - 2}px`);
  }
  center.style.top = `${top}px`;
  // only a drawn board decides (the first drawing may come before the cards)
  if ($("board").querySelector(".card")) {
    store.state.ui.fit = { key, top: center.style.top, width: center.style.getPropertyValue("--board-w") };
  }
}

export function layoutFelt() {
  const felt = $("felt");
  const W = felt.clientWidth;
  const H = felt.clientHeight;
  if (!W || !H || !store.state.t.config) return;
  const cy = placeSeats(felt, W, H);
  fitCenter(felt, cy, W, H);
  placeBets(felt, W, H, cy);
}

export function renderTable() {
  const s = store.state;
  renderHeader(s);
  renderSeats(s);
  renderCenter(s);
  layoutFelt();
}
