// The casino's option at a cash table (issue 14, docs/cash.md "The option"). casino cash:
// « L'option est autorisée en Cash Game, il est possible de rentrer sur la table directement
// en option ». Seated at a table whose snapshot says `cash.option`, a box "post the option
// when first after the big blind" sends `option` {on}; it is checked when the snapshot's
// `cash.straddles` holds our seat (standing choices and entries in option), or as we asked
// once the server's private `notice` `option` took it. The buy-in form offers to come in
// « en option » (`sit` with `option`). Who posts the option, and when, is the server's.
import { $, show } from "./dom.js";
import { command } from "./net.js";
import { KEY, store } from "./store.js";

// Whether our seat posts the option when first after the big blind (what the server said,
// or what we asked while its answer is on the way).
export function optionOn(tb) {
  if (tb.optionAsk) return tb.optionAsk.on;
  return Boolean(tb.cash && tb.you !== null && (tb.cash.straddles || []).includes(tb.you));
}

function setStraddle(tb, on) {
  const seats = (tb.cash.straddles || []).filter((seat) => seat !== tb.you);
  if (on) seats.push(tb.you);
  tb.cash.straddles = seats.sort((a, b) => a - b);
}

// The server took our `option` (its `notice` `option`), from the next deal; on or off, an
// entry in option is no longer waited for as such (off gives it up; on makes it standing).
export function optionTaken(tb) {
  if (!tb.optionAsk || !tb.cash || tb.you === null) return;
  setStraddle(tb, tb.optionAsk.on);
  tb.optionAsk = null;
  sessionStorage.removeItem(KEY.optionEntry(store.state.table));
}

// Our `option` refused (cash.option: a table without the option): the box shows the
// server's state again.
export function optionRefused(tb, ref) {
  if (tb.optionAsk && tb.optionAsk.id === ref) tb.optionAsk = null;
}

// A deal (`hand_start`): an entry « en option » is over once we are dealt in (the server
// forgets it then: the option posted at this deal is the seat fee, or nothing is owed during
// the button's first round); a standing choice stays.
export function optionDealt(tb, msg) {
  const table = store.state.table;
  if (!tb.cash || tb.you === null || !sessionStorage.getItem(KEY.optionEntry(table))) return;
  if (!Object.keys(msg.stacks || {}).map(Number).includes(tb.you)) return;
  sessionStorage.removeItem(KEY.optionEntry(table));
  if (!tb.optionAsk) setStraddle(tb, false);
}

export function renderOption(s) {
  const tb = s.t;
  const seated = tb.you !== null && Boolean(tb.seats[tb.you]);
  if (!show($("option-box"), s.mode === "table" && Boolean(tb.cash && tb.cash.option) && seated)) return;
  const on = optionOn(tb);
  if ($("option-on").checked !== on) $("option-on").checked = on;
  $("option-box").dataset.on = String(on);
}

// The buy-in form (a seat chosen, or chips to add): "Come in with the option" where the
// table offers it, for a seat only.
export function offerEntry(cash, adding) {
  show($("buyin-option-box"), Boolean(cash && cash.option) && !adding);
  $("buyin-option").checked = false;
}

// `sit`'s `option`: true when the box is ticked (kept for the tab: optionDealt ends it).
export function entryChosen() {
  const on = !$("buyin-option-box").hidden && $("buyin-option").checked;
  if (on) sessionStorage.setItem(KEY.optionEntry(store.state.table), "1");
  return on || undefined;
}

export function setupOption() {
  $("option-on").addEventListener("change", () => {
    const on = $("option-on").checked;
    const id = command("option", { on });
    store.update((s) => void (s.t.optionAsk = id === null ? null : { id, on }));
  });
}
