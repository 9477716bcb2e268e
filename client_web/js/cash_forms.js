// A cash player's forms (issue 29): the buy-in at a chosen seat, adding chips at our seat (a
// rebuy or a top-up), and leaving with our chips (the cash-out, confirmed with the server's
// amount). Each form says its range and why on the page itself (no browser bubble): the
// limits are the server's (the snapshot's `cash`: min_buy_in, max_buy_in, min_stack, unit,
// rebuy, session_cap); the server still decides and its refusal is shown as any other.
import { tableHooks } from "./client.js";
import { $, show } from "./dom.js";
import { inHand } from "./events.js";
import { fmt, t } from "./i18n.js";
import { command, reconnectNow } from "./net.js";
import { entryChosen, offerEntry } from "./option.js";
import { KEY, store } from "./store.js";

// "%lo to %hi" words with their numbers, formatted in the page's language.
export const fill = (key, values) =>
  Object.entries(values).reduce((text, [k, v]) => text.replaceAll(`%${k}`, typeof v === "number" ? fmt(v) : v), t(key));

// What is wrong with `raw` as an amount from lo to hi by multiples of unit ("" when nothing).
export function amountProblem(raw, { lo, hi, unit }) {
  const n = Number(raw);
  if (raw === "" || !Number.isInteger(n) || n <= 0) return t("amountWhole");
  if (n < lo) return fill("amountLow", { n, lo });
  if (n > hi) return fill("amountHigh", { n, hi });
  if (unit > 1 && n % unit) return fill("amountUnit", { n, unit });
  return "";
}

const unitOf = (cash) => cash.unit || 1;
const myEntry = (s) => (s.t.cash.ledger || []).find((x) => (s.t.you !== null ? x.seat === s.t.you : x.player === s.nick && x.seat === null));

// What this session still allows us to buy (fpc: 5,000 a session in all), or null.
function sessionLeft(s) {
  const cap = s.t.cash.session_cap;
  if (!cap) return null;
  const mine = myEntry(s);
  return { cap, left: Math.max(0, cap - (mine ? mine.bought : 0)) };
}

// ------------------------------------------------------------------ the buy-in

function buyInRange(s) {
  const cash = s.t.cash;
  const unit = unitOf(cash);
  const session = sessionLeft(s);
  const hi = session ? Math.min(cash.max_buy_in, session.left) : cash.max_buy_in;
  return { lo: cash.min_buy_in, hi: Math.floor(hi / unit) * unit, unit, session };
}

// A free seat chosen at a cash table: the form with the table's limits, said in words.
export function openBuyIn(seat) {
  const s = store.state;
  const range = buyInRange(s);
  const input = $("buyin");
  input.min = String(range.lo);
  input.max = String(range.hi);
  input.step = String(range.unit);
  if (!input.value) input.value = String(range.lo);
  const limits = { min: range.lo, max: s.t.cash.max_buy_in, unit: range.unit };
  let hint = fill(range.unit > 1 ? "buyInRangeUnit" : "buyInRange", limits);
  if (range.session) hint += ` ${fill("buyInCap", range.session)}`;
  $("buyin-hint").textContent = hint;
  $("buyin-error").textContent = "";
  offerEntry(s.t.cash, false); // casino cash: « rentrer sur la table directement en option »
  const form = $("buyin-form");
  form.dataset.seat = String(seat);
  form.hidden = false;
  form.scrollIntoView({ block: "nearest" });
  input.focus();
}

// The buy-in form sent: checked against the limits first (the page says what is wrong).
export function submitBuyIn() {
  const s = store.state;
  const form = $("buyin-form");
  const problem = s.t.cash ? amountProblem($("buyin").value.trim(), buyInRange(s)) : "";
  $("buyin-error").textContent = problem;
  if (problem) {
    $("buyin").focus();
    return;
  }
  form.hidden = true;
  const seat = Number(form.dataset.seat);
  command("sit", { seat, token: s.invite, buy_in: Number($("buyin").value), option: entryChosen() });
}

// ------------------------------------------------------------------ adding chips

const dealtIn = (tb) => inHand(tb) && tb.dealt.has(tb.you);

// What we may add now: {lo, hi, unit, key (the hint's words), values}; hi < lo: nothing.
export function addRange(s) {
  const tb = s.t;
  const cash = tb.cash;
  const stack = tb.seats[tb.you].stack;
  const unit = unitOf(cash);
  const least = Math.max(cash.min_buy_in, cash.min_stack || 0);
  const session = sessionLeft(s);
  let hi = cash.max_buy_in - stack;
  if (session) hi = Math.min(hi, session.left);
  hi = Math.floor(hi / unit) * unit;
  const lo = Math.ceil(Math.max(unit, least - stack) / unit) * unit;
  const values = { lo, hi, stack, min: least, max: cash.max_buy_in, unit };
  let key = stack === 0 ? "rebuyRange" : unit > 1 ? "addRangeUnit" : "addRange";
  if (hi < lo) key = session && session.left < lo ? "addSessionDone" : "addAtMax";
  if (session) values.cap = session.cap;
  return { lo, hi, unit, key, values };
}

// Whether the Add chips button is offered: seated at a cash table, and under fpc only once
// out of chips (« une recave n'est pas possible tant que l'on possède des jetons »).
export function canAdd(s) {
  const tb = s.t;
  const me = tb.you !== null ? tb.seats[tb.you] : null;
  if (!(tb.cash && me && s.mode === "table")) return false;
  if (me.stack === 0 && dealtIn(tb)) return false; // all-in in the hand: not out of chips yet
  return tb.cash.rebuy !== "busted" || me.stack === 0;
}

function openAdd() {
  const s = store.state;
  if (!canAdd(s)) return;
  const range = addRange(s);
  $("add-amount").value = range.hi >= range.lo ? String(range.lo) : "";
  $("add-error").textContent = "";
  $("add-form").hidden = false;
  renderAdd(s);
  $("add-form").scrollIntoView({ block: "nearest" });
  if (range.hi >= range.lo) $("add-amount").focus();
}

function submitAdd(event) {
  event.preventDefault();
  const s = store.state;
  if (!canAdd(s)) return;
  const range = addRange(s);
  const problem = range.hi < range.lo ? fill(range.key, range.values) : amountProblem($("add-amount").value.trim(), range);
  $("add-error").textContent = problem;
  if (problem) return;
  const amount = Number($("add-amount").value);
  $("add-form").hidden = true;
  store.update((st) => {
    st.t.addQueued = amount; // sent between hands (renderAdd): during a hand, when it ends
  });
}

// The form's words, and a queued amount sent once no hand holds our seat.
export function renderAdd(s) {
  const tb = s.t;
  const can = canAdd(s);
  show($("add-chips"), can);
  if (!can) $("add-form").hidden = true;
  if (tb.you === null || !tb.cash) tb.addQueued = null; // (all-in meanwhile: still sent after)
  $("add-chips").textContent = can && tb.seats[tb.you].stack === 0 ? t("rebuyTitle") : t("addTitle");
  if (tb.addQueued && can && !dealtIn(tb) && s.net.ws) {
    command("add_chips", { amount: tb.addQueued });
    const mine = myEntry(s); // the session's purchases (fpc's cap), until the next snapshot
    if (mine) mine.bought += tb.addQueued;
    tb.addQueued = null;
  }
  if (show($("add-queued"), Boolean(tb.addQueued))) $("add-queued").textContent = fill("addQueued", { n: tb.addQueued });
  if ($("add-form").hidden) return;
  const range = addRange(s);
  const busted = tb.seats[tb.you].stack === 0;
  $("add-title").textContent = busted ? t("rebuyTitle") : t("addTitle");
  $("add-amount").min = String(range.lo);
  $("add-amount").max = String(Math.max(range.lo, range.hi));
  $("add-amount").step = String(range.unit);
  const open = range.hi >= range.lo;
  $("add-amount").disabled = !open;
  $("add-ok").disabled = !open;
  $("add-ok").textContent = dealtIn(tb) ? t("addLater") : t("addOk");
  $("add-hint").textContent = `${fill(range.key, range.values)}${open && dealtIn(tb) ? ` ${t("addInHand")}` : ""}`;
}

// ------------------------------------------------------------------ leaving: the cash-out

// Leave a cash table with our whole stack (« la décave ne peut être partielle »). The server
// stops sending us the table at once; the page watches it again with the invite (a new
// connection) and says what was cashed out: the ledger's amount once the seat is free.
function leaveCash(event) {
  const s = store.state;
  const tb = s.t;
  if (!event.target.closest("#leave") || !tb.cash || tb.you === null || !tb.seats[tb.you]) return;
  event.stopPropagation(); // controls.js's leave is a friends table's
  const me = tb.seats[tb.you];
  if (!confirm(fill("leaveCashConfirm", { n: me.stack }))) return;
  const pending = dealtIn(tb);
  command("leave", {});
  localStorage.removeItem(KEY.seat(s.table));
  store.update((st) => {
    const t2 = st.t;
    t2.departed = { seat: t2.you, name: me.player, stack: me.stack, pending, cashed: pending ? null : me.stack };
    t2.lastSeat = t2.you;
    Object.assign(t2, { you: null, hole: [], turn: null, pre: null, cut: null, addQueued: null, runsOffer: null });
    st.net.usingSeatToken = false;
  });
  $("add-form").hidden = true;
  $("buyin-form").hidden = true;
  reconnectNow(tableHooks()); // watch the table again (hello with the invite)
}

// The cash-out as the ledger wrote it: the last cash-out line under our name.
async function confirmCashOut(table, departed) {
  const s = store.state;
  const url = `/api/tables/${encodeURIComponent(table)}/ledger.csv?t=${encodeURIComponent(s.invite)}`;
  try {
    const response = await fetch(url);
    if (!response.ok) return;
    const lines = (await response.text()).split("\n\n")[0].split("\n").map((line) => line.split(","));
    const out = lines.filter((x) => x[1] === "cash_out" && x[3] === departed.name).pop();
    store.update(() => {
      if (out) departed.cashed = Number(out[4]);
      departed.confirmed = true;
    });
  } catch {
    // offline for a moment: the page's own amount stays
  }
}

function renderDeparted(s) {
  const tb = s.t;
  const d = tb.departed;
  if (!show($("left-box"), Boolean(d && s.mode === "table" && tb.you === null))) return;
  const x = tb.seats[d.seat];
  const still = x && x.player === d.name;
  if (d.pending && still) d.stack = x.stack; // the hand's end says his last stack
  if (!still && tb.synced && !d.asked) {
    // the seat is free (`seat` `left`): the ledger has the cash-out
    Object.assign(d, { pending: false, cashed: d.stack, asked: true });
    confirmCashOut(s.table, d);
  }
  let text = t("leftPending");
  if (!d.pending) text = d.cashed ? fill("leftCashed", { n: d.cashed }) : t("leftNothing");
  $("left-text").textContent = text;
  $("left-box").dataset.cashed = d.pending ? "" : String(d.cashed);
  $("left-box").dataset.confirmed = String(Boolean(d.confirmed));
  show($("left-again"), !d.pending);
}

// The host's new limits or blinds change what one may bring (server/table/hosting.py): said
// at the table as a host line; the page asks for a fresh snapshot, whose `cash` has them.
function followHostOrders(s) {
  const tb = s.t;
  if (!tb.cash || !tb.synced) return;
  const lines = tb.log.filter(([kind, m]) => kind === "chat" && m.player === "host" && m.seat == null);
  const last = lines.length ? lines[lines.length - 1] : null;
  const serial = last ? last[2] : 0;
  if (tb.hostSerial === undefined) tb.hostSerial = serial; // lines from before this page
  if (serial <= tb.hostSerial) return;
  tb.hostSerial = serial;
  if (/^(buy-ins from|blinds) /.test(last[1].text || "")) command("resync", { last_seq: 2 ** 52 });
}

export function renderCashForms(s) {
  followHostOrders(s);
  renderAdd(s);
  renderDeparted(s);
  const tb = s.t;
  const me = tb.you !== null ? tb.seats[tb.you] : null;
  // a cash player out of chips keeps his seat: a rebuy, not "under the big blind"
  if (me && tb.cash && me.stack === 0 && !$("bust").hidden) $("bust").textContent = t("bustedCash");
  if (tb.you !== null) tb.departed = null; // seated again
}

export function setupCashForms() {
  $("add-chips").addEventListener("click", openAdd);
  $("add-form").addEventListener("submit", submitAdd);
  $("add-cancel").addEventListener("click", () => {
    $("add-form").hidden = true;
  });
  $("me").addEventListener("click", leaveCash, true); // before controls.js's own listener
  $("left-lobby").addEventListener("click", () => window.dispatchEvent(new Event("brasseur:lobby")));
}
