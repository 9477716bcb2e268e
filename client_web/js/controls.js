// The dock: our cards, the cut, the action controls (the options of our `turn`, as the server
// computed them), the pre-actions before our turn, and the seat's buttons (time bank, Time,
// show, sit out, leave). Keyboard: F fold, C check or call, R the amount (Enter raises),
// A all-in; each key puts the focus on its control, Enter or Space confirms.
import { cardNode } from "./cards.js";
import { $, show } from "./dom.js";
import { drawsNow, renderDraw, setupDraw } from "./draw.js";
import { inHand, maxBet, myStack } from "./events.js";
import { fmt, t } from "./i18n.js";
import { command } from "./net.js";
import { KEY, store } from "./store.js";
import { renderTalk } from "./talk.js";

// Our open decision, if we have not answered it yet.
export function myChoices(tb) {
  const turn = tb.turn;
  if (!turn || tb.you === null || tb.phase !== "betting" || turn.hand !== tb.hand || tb.toAct !== tb.you) return null;
  if (tb.acted && tb.acted.key === turn.key) return null;
  return turn;
}

// Answer our decision: the `act` carries the decision's id (when the server gives one), and
// the controls close until the next decision, so that we never act twice on one decision.
export function act(fields) {
  const tb = store.state.t;
  const c = myChoices(tb);
  const decision = c && c.decision !== undefined && c.decision !== null ? { decision: c.decision } : {};
  const id = command("act", { hand: tb.hand, ...decision, ...fields });
  if (id !== null && c) {
    store.now(() => {
      tb.acted = { key: c.key, id };
    });
  }
  return id;
}

// The smallest chip: raises are counted in it, so that they can be pushed in chips.
const unit = (tb) => (tb.config && tb.config.denominations.length ? tb.config.denominations[0] : 1);

function clampRaise(tb, value, c) {
  const u = unit(tb);
  const v = Math.round(value / u) * u;
  return Math.max(c.min_raise_to, Math.min(c.max_raise_to, v));
}

// Pot-sized raise: call, then raise by the pot after the call (what "pot" means online).
function potRaiseTo(tb, fraction, c) {
  const mine = tb.bets[tb.you] || 0;
  const call = c.call || 0;
  return clampRaise(tb, mine + call + (tb.potTotal + call) * fraction, c);
}

function setAmount(value) {
  $("amount").value = String(value);
  $("slider").value = String(value);
}

const amount = () => Math.floor(Number($("amount").value)) || 0;

// A raise to `v` puts in all our chips: the most the turn allows, which at pot limit is the
// pot (not all-in) unless our chips are fewer.
const allIn = (tb, c, v) =>
  v >= c.max_raise_to && (tb.structure !== "pot_limit" || c.max_raise_to >= myStack(tb) + (tb.bets[tb.you] || 0));

function raiseLabel(tb, c) {
  const v = amount();
  if (allIn(tb, c, v)) return `${t("allinBtn")} ${fmt(c.max_raise_to)}`;
  return `${maxBet(tb) > 0 ? t("raiseTo") : t("betTo")} ${fmt(v)}`;
}

function renderActions(s, c) {
  const tb = s.t;
  $("actions").dataset.turn = String(tb.turnNo);
  if (!show($("actions"), c)) return;
  const pendingAmount = c.pending === "amount";
  const callAllin = c.call > 0 && c.call >= myStack(tb);
  show($("fold"), c.can_fold && !pendingAmount);
  show($("check"), c.can_check && !pendingAmount);
  show($("call"), !c.can_check && !pendingAmount && c.call > 0);
  // calling all one's chips is one button, never "call" and "all-in" side by side
  $("call").textContent = `${t("call")} ${fmt(c.call)}${callAllin ? ` · ${t("allin")}` : ""}`;
  $("call").dataset.amount = String(c.call);
  show($("raise"), c.can_raise);
  show($("sizing"), c.can_raise && c.min_raise_to < c.max_raise_to);
  if (c.can_raise) {
    for (const id of ["slider", "amount"]) {
      $(id).min = String(c.min_raise_to);
      $(id).max = String(c.max_raise_to);
    }
    $("slider").step = String(unit(tb));
    if (s.ui.amountFor !== c.key || !(amount() >= c.min_raise_to && amount() <= c.max_raise_to)) {
      s.ui.amountFor = c.key;
      setAmount(c.min_raise_to);
    }
    $("raise").textContent = raiseLabel(tb, c);
    $("raise").classList.toggle("allin", allIn(tb, c, amount()));
    // pot limit: the largest raise is the pot's (the "max" button), all-in only when short
    $("q-max").textContent = t(tb.structure === "pot_limit" ? "maxSize" : "allinBtn");
  }
}

function preAllowed(tb) {
  return (
    tb.you !== null && tb.phase === "betting" && tb.dealt.has(tb.you) && !tb.folded.has(tb.you) &&
    !tb.allin.has(tb.you) && tb.toAct !== null && tb.toAct !== tb.you && !drawsNow(tb, tb.toAct)
  );
}

function renderPre(tb, c) {
  const pre = preAllowed(tb) || Boolean(tb.pre);
  if (!show($("pre"), pre && !c)) return;
  const toCall = Math.min(maxBet(tb) - (tb.bets[tb.you] || 0), myStack(tb));
  $("pre-call-label").textContent = toCall > 0 ? `${t("preCall")} ${fmt(toCall)}` : t("preCall");
  for (const [kind, id] of [["checkfold", "pre-checkfold"], ["call", "pre-call"], ["fold", "pre-fold"]]) {
    $(id).checked = Boolean(tb.pre && tb.pre.kind === kind);
    $(id).disabled = Boolean(tb.pre);
  }
  $("pre-status").textContent = tb.pre ? (tb.pre.status === "recorded" ? t("preRecorded") : t("preSent")) : "";
}

function renderMeLine(s) {
  const tb = s.t;
  const seated = tb.you !== null;
  const me = seated ? tb.seats[tb.you] : null;
  let label = "";
  if (me) label = `${me.player} · ${fmt(me.stack)}`;
  else if (tb.bustedMe) label = t("bustedYou");
  else if (tb.config) {
    // a tournament's rail may be a hand behind (the director's commentary mode)
    const st = s.mode === "tournament" && s.tour.state;
    label = st && st.spectators === "commentary" ? t("watchingDelayed") : t("watching");
  }
  $("me-label").textContent = label;
  $("hole").replaceChildren(...tb.hole.map(cardNode));
  const check = tb.proofs[tb.hand] && tb.proofs[tb.hand].check;
  $("hole-check").textContent = check && tb.phase === "between" ? (check.ok ? `✓ ${t("holeVerified")}` : `✗ ${t("holeFailed")}`) : "";
}

function renderMisc(s, c) {
  const tb = s.t;
  const seated = tb.you !== null;
  const bankUsed = tb.clock && tb.clock.seat === tb.you && tb.clock.kind !== "action";
  show($("bank"), c && !bankUsed && !tb.timeCalled);
  show($("show"), tb.showable && tb.phase === "between");
  show($("sitout"), seated);
  show($("keys-hint"), c);
  show($("call-director"), seated && s.mode === "tournament");
  show($("leave"), (seated && s.mode === "table") || (tb.bustedMe && s.mode === "table"));
  const me = tb.seats[tb.you];
  $("sitout").textContent = me && me.sittingOut ? t("sitIn") : t("sitOut");
  // busted at a friends table: sit again (a new starting stack) or leave
  const bust = tb.bustedMe && s.mode === "table";
  // a cash table: our chips are under the big blind (or gone): no cards until we add some
  const short = Boolean(me && me.short && tb.cash && s.mode === "table");
  if (show($("bust"), bust || short)) $("bust").textContent = t(short ? "shortHint" : "bustedHint");
  renderTime(s);
}

// The Time may be called on a player who has thought for `time_call_after` (cdc 3.5): the
// button shows from then on (redrawn by the clock's tick).
export function renderTime(s) {
  const tb = s.t;
  const me = tb.seats[tb.you];
  const thinking = performance.now() - tb.thinkStart;
  const after = ((tb.config && tb.config.timeCallAfter) || 60) * 1000;
  const someoneThinks = tb.phase === "betting" && tb.toAct !== null && tb.toAct !== tb.you && me && me.connected !== false;
  show($("time"), Boolean(someoneThinks && !tb.timeCalled && tb.clock && tb.clock.seat === tb.toAct && thinking >= after));
}

export function renderControls() {
  const s = store.state;
  const tb = s.t;
  const open = myChoices(tb);
  // (five-card draw: our draw is a decision of its own, in draw.js's panel)
  const c = open && open.draw ? null : open;
  renderMeLine(s);
  renderDraw(s, open);
  show($("cut-panel"), tb.cut && tb.cut.seat === tb.you && tb.phase === "cut" && tb.you !== null);
  if (tb.cut && !s.ui.cutSet) {
    $("cut-at").value = String(tb.cut.at);
    s.ui.cutSet = true;
  }
  if (!tb.cut) s.ui.cutSet = false;
  renderActions(s, c);
  renderPre(tb, c);
  renderTalk(s, c, inHand(tb));
  renderMisc(s, c);
  if (open && !s.ui.wasMyTurn) bringControlsIntoView(open.draw ? "draw-panel" : "actions");
  s.ui.wasMyTurn = Boolean(open);
}

// Our turn came while the page was scrolled (to the log, on a phone): the controls come back
// into view, unless the player is typing somewhere.
function bringControlsIntoView(id) {
  const active = document.activeElement;
  if (active && ["INPUT", "TEXTAREA", "SELECT"].includes(active.tagName)) return;
  const box = $(id).getBoundingClientRect();
  if (box.top < 0 || box.bottom > window.innerHeight) $(id).scrollIntoView({ block: "nearest" });
}

// ------------------------------------------------------------------ pre-actions

// Out-of-turn declarations (ONLINE_RULES, cdc 9.3): an act before our turn is recorded and
// binds if the action has not changed. At most one per turn; the box clears when released.
function preAction(kind, box) {
  const tb = store.state.t;
  if (!box.checked) {
    box.checked = Boolean(tb.pre && tb.pre.kind === kind); // a recorded declaration binds
    return;
  }
  if (tb.pre || !preAllowed(tb)) {
    box.checked = false;
    return;
  }
  const facing = maxBet(tb) > (tb.bets[tb.you] || 0);
  const verb = kind === "call" ? "call" : kind === "fold" ? "fold" : facing ? "fold" : "check";
  const id = command("act", { hand: tb.hand, verb });
  if (id === null) {
    box.checked = false;
    return;
  }
  store.now(() => {
    tb.pre = { kind, status: "sent", id };
  });
}

// ------------------------------------------------------------------ input

function sized(f) {
  return () => {
    const tb = store.state.t;
    const c = myChoices(tb);
    if (!c || !c.can_raise) return;
    setAmount(f(tb, c));
    $("raise").textContent = raiseLabel(tb, c);
    $("raise").classList.toggle("allin", allIn(tb, c, amount()));
  };
}

function raise() {
  const tb = store.state.t;
  const c = myChoices(tb);
  const v = amount();
  if (!c || !(v > 0)) return;
  if (allIn(tb, c, v)) act({ verb: "allin" });
  // a declaration "raise to N" (form total): the total of the betting round
  else act({ verb: maxBet(tb) > 0 ? "raise" : "bet", amount: v, form: "total" });
}

function focusKey(key) {
  const c = myChoices(store.state.t);
  if (!c) return false;
  const visible = (id) => !$(id).hidden && !$(id).closest("[hidden]");
  const target = {
    f: ["fold"],
    c: ["check", "call"],
    r: ["amount", "raise"],
    a: ["q-max"],
  }[key];
  const id = target && target.find(visible);
  if (!id) return false;
  if (key === "a") {
    $("q-max").click();
    $("raise").focus();
    return true;
  }
  $(id).focus();
  if (id === "amount") $("amount").select();
  return true;
}

function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target.id === "amount" && event.key === "Enter") {
    event.preventDefault();
    raise();
    return;
  }
  const typing = target.isContentEditable || ["TEXTAREA", "SELECT"].includes(target.tagName) ||
    (target.tagName === "INPUT" && !["range", "checkbox", "button"].includes(target.type));
  if (typing || document.querySelector("dialog[open]")) return;
  if (focusKey(event.key.toLowerCase())) event.preventDefault();
}

export function setupControls() {
  setupDraw();
  $("fold").addEventListener("click", () => act({ verb: "fold" }));
  $("check").addEventListener("click", () => act({ verb: "check" }));
  $("call").addEventListener("click", () => act({ verb: "call" }));
  $("raise").addEventListener("click", raise);
  $("q-min").addEventListener("click", sized((tb, c) => c.min_raise_to));
  $("q-half").addEventListener("click", sized((tb, c) => potRaiseTo(tb, 0.5, c)));
  $("q-pot").addEventListener("click", sized((tb, c) => potRaiseTo(tb, 1, c)));
  $("q-max").addEventListener("click", sized((tb, c) => c.max_raise_to));
  $("slider").addEventListener("input", sized(() => Number($("slider").value)));
  $("amount").addEventListener("input", () => {
    const tb = store.state.t;
    const c = myChoices(tb);
    $("slider").value = $("amount").value;
    if (!c) return;
    $("raise").textContent = raiseLabel(tb, c);
    $("raise").classList.toggle("allin", allIn(tb, c, amount()));
  });
  $("bank").addEventListener("click", () => command("timebank", { hand: store.state.t.hand }));
  $("time").addEventListener("click", () => command("clock", { hand: store.state.t.hand }));
  $("show").addEventListener("click", () => {
    command("show", { hand: store.state.t.hand });
    store.now((s) => {
      s.t.showable = false;
    });
  });
  $("cut").addEventListener("click", () => {
    command("cut", { hand: store.state.t.hand, position: Number($("cut-at").value) % 52 });
  });
  $("sitout").addEventListener("click", () => {
    const tb = store.state.t;
    const me = tb.seats[tb.you];
    command(me && me.sittingOut ? "sitin" : "sitout", {});
  });
  $("call-director").addEventListener("click", () => {
    // a dispute or a question: the call waits in the director's console for a ruling
    const why = prompt(t("callDirectorWhy"));
    if (why === null) return;
    command("call_director", { hand: store.state.t.hand || undefined, text: why.trim().slice(0, 300) });
  });
  $("leave").addEventListener("click", leave);
  $("pre-checkfold").addEventListener("change", (e) => preAction("checkfold", e.target));
  $("pre-call").addEventListener("change", (e) => preAction("call", e.target));
  $("pre-fold").addEventListener("change", (e) => preAction("fold", e.target));
  document.addEventListener("keydown", onKey);
}

// Leave a friends table: with our chips (at once between hands, else at the hand's end); a
// player who busted only stops watching and goes back to the lobby.
function leave() {
  const s = store.state;
  if (s.t.bustedMe && s.t.you === null) {
    command("leave", {});
    window.dispatchEvent(new Event("brasseur:lobby")); // main.js: the lobby, in this page
    return;
  }
  if (!confirm(t("leaveConfirm"))) return;
  command("leave", {});
  localStorage.removeItem(KEY.seat(s.table));
}

