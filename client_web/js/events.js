// The table as the server tells it: a snapshot replaces everything, then each table event
// (in seq order) and each private message changes the store's table `t`. Nothing here
// computes a rule: pots, options and amounts are the server's (docs/protocol.md).
import { DRAW_EVENTS, drawBegins, drawHandStart, drawSnapshot } from "./draw.js";
import { checkHoleProof } from "./fairness.js";
import { say, ruled, timeRuling } from "./log.js";
import { optionDealt, optionTaken } from "./option.js";
import { KEY, saveJSON, store } from "./store.js";

const LIVE = ["cut", "betting", "showdown"];
const FORCED = ["pending", "post_sb", "post_bb", "post_ante", "post_seat_fee", "post_missed_bb", "post_dead", "post_option", "returned"];

export const inHand = (t) => LIVE.includes(t.phase);

// A rule correction, shown in the middle of the table for a few seconds.
export function flash(t, makeText) {
  t.ruling = { make: makeText, until: performance.now() + 9000 };
}

function saveProofs(t) {
  const keys = Object.keys(t.proofs).map(Number).sort((a, b) => b - a);
  for (const k of keys.slice(60)) delete t.proofs[k];
  saveJSON(KEY.proofs(store.state.table), t.proofs);
}

function proofEntry(t, hand) {
  if (!t.proofs[hand]) t.proofs[hand] = {};
  return t.proofs[hand];
}

export function setClock(t, seat, kind, remainingMs, thinkingMs) {
  const now = performance.now();
  const fresh = !t.clock || t.clock.seat !== seat || t.clock.kind !== "action";
  if (thinkingMs !== undefined) t.thinkStart = now - thinkingMs;
  else if (kind === "action" && fresh) t.thinkStart = now;
  t.clock = { seat, kind, deadline: now + remainingMs, total: Math.max(remainingMs, 1) };
}

// Our options: a `turn` or the snapshot's `menu`. A decision answered already (the same
// `decision` offered again: a reconnection, another player's gesture) stays answered, so
// that we never act twice on one decision; a new decision opens the controls.
function takeTurn(t, options) {
  const key = options.decision !== undefined && options.decision !== null
    ? `${options.hand}:${options.decision}`
    : `${options.hand}:n${t.turnNo + 1}`;
  const same = t.turn && t.turn.key === key;
  t.turn = { ...options, key };
  if (!same) t.turnNo += 1;
  if (t.acted && t.acted.key !== key) t.acted = null;
}

export function applySnapshot(msg) {
  const st = msg.state;
  const t = store.state.t;
  t.synced = true;
  t.resyncing = false;
  t.seq = msg.seq;
  t.config = {
    name: st.name,
    profile: st.profile,
    blinds: st.blinds,
    ante_format: st.ante_format,
    max_seats: st.max_seats,
    denominations: st.denominations || [],
    actionSeconds: st.action_seconds ?? 30,
    timeCallAfter: st.time_call_after ?? 60,
  };
  t.cash = st.cash ?? null; // a cash table: limits, ledger (docs/cash.md)
  t.runIt = st.run_it ?? 1; // runs offered when two players are all-in before the turn
  t.you = st.you ?? null;
  t.hand = st.hand;
  t.phase = st.phase;
  t.button = st.button ?? null;
  t.seats = {};
  for (const x of st.seats) {
    t.seats[x.seat] = {
      player: x.player,
      stack: x.stack,
      connected: x.connected,
      sittingOut: x.sitting_out,
      leaving: false,
      wasHere: x.connected,
      busted: false,
      // a cash table: chips under the least one is dealt in with (casino: the big blind)
      short: Boolean(st.cash && (st.cash.short || []).includes(x.seat)),
    };
  }
  const live = LIVE.includes(st.phase);
  t.board = st.board || [];
  t.bets = {};
  for (const [seat, amount] of Object.entries(st.bets || {})) t.bets[Number(seat)] = amount;
  t.folded = new Set(st.folded || []);
  t.dead = new Set(st.dead || []); // absent at the deal: a dead hand, never dealt cards
  t.dealt = new Set(live ? Object.keys(st.bets || st.start_stacks || {}).map(Number) : []);
  t.allin = new Set();
  t.cards = {};
  for (const seat of t.dealt) {
    t.cards[seat] = [];
    if (t.seats[seat] && t.seats[seat].stack === 0 && !t.folded.has(seat)) t.allin.add(seat);
  }
  for (const [seat, cards] of Object.entries(st.shown || {})) t.cards[Number(seat)] = cards;
  t.blindSeats = { sb: st.small_blind ?? null, bb: st.big_blind ?? null };
  t.hole = st.hole || [];
  t.awards = [];
  t.pots = live ? st.pots || [] : null;
  t.potTotal = live ? st.pot_total ?? (st.pots || []).reduce((sum, p) => sum + p.amount, 0) : 0;
  // (five-card draw: after our draw the snapshot's cards are no longer those dealt)
  if (live && t.you !== null && t.hole.length && !(st.drew && st.drew[t.you])) proofEntry(t, st.hand).hole = t.hole;
  t.toAct = st.to_act ?? null;
  if (st.menu && t.you !== null) takeTurn(t, { ...st.menu, seat: t.you, hand: st.hand });
  else t.turn = null;
  drawSnapshot(t, st); // five-card draw: the game, the draws, whose draw it is
  t.clock = null;
  // the Time called on the player to act (cdc 3.5): by whom, and its countdown
  const called = st.time_called;
  t.timeCalled = Boolean(called);
  t.timeCall = called ? { seat: t.toAct, by: called.by ?? null, countdownMs: called.countdown_ms || 0 } : null;
  if (t.toAct !== null && st.clock_remaining_ms !== undefined) {
    setClock(t, t.toAct, called ? "time" : "action", st.clock_remaining_ms, st.thinking_ms);
  }
  t.cut = null;
  t.pre = null;
  t.showable = false;
  if (t.you !== null) t.bustedMe = false;
}

// Seats that busted stay on view (with their cards) until the next hand starts.
function clearBusted(t) {
  for (const [seat, x] of Object.entries(t.seats)) if (x.busted) delete t.seats[seat];
}

const seatStatus = {
  busted(t, msg, x) {
    x.stack = 0;
    if (t.cash) {
      x.short = true; // a cash table keeps the seat until its player rebuys or leaves
      return;
    }
    x.busted = true;
    if (msg.seat === t.you) {
      t.lastSeat = t.you;
      t.you = null;
      t.bustedMe = true;
      t.turn = null;
      localStorage.removeItem(KEY.seat(store.state.table));
    }
  },
  // a cash player whose chips are under the big blind (casino: no cards): he adds chips or leaves
  short(t, msg, x) {
    x.stack = msg.stack;
    x.short = true;
  },
  left(t, msg) {
    delete t.seats[msg.seat];
    delete t.requests[msg.seat]; // a change asked of the host: gone with the player
    if (msg.seat === t.you) {
      t.you = null;
      localStorage.removeItem(KEY.seat(store.state.table));
    }
  },
};

// Table events, in seq order.
export const EVENTS = {
  seat(t, msg) {
    const known = t.seats[msg.seat];
    const special = seatStatus[msg.status];
    if (special) {
      say("seat", msg);
      special(t, msg, known || (t.seats[msg.seat] = { player: msg.player, stack: 0, connected: false }));
      return;
    }
    const x = known && !known.busted ? known : { player: msg.player, stack: msg.stack, connected: false, sittingOut: false, leaving: false };
    const wasAway = Boolean(known) && known.wasHere && !known.connected;
    x.player = msg.player ?? x.player;
    // mid-hand, a seat event carries the stack the seat had when the hand started (the
    // server updates it at the hand's end): the live stack comes from the actions
    if (!(known && inHand(t) && t.dealt.has(msg.seat))) x.stack = msg.stack;
    if (msg.status === "connected") x.connected = x.wasHere = true;
    if (msg.status === "disconnected") {
      x.connected = false;
      x.wasHere = true;
    }
    if (msg.status === "sitting_out") x.sittingOut = true;
    if (msg.status === "sitting_in") x.sittingOut = false;
    if (msg.status === "leaving") x.leaving = true;
    if (msg.status === "stack") x.short = false; // chips added (the server tells a short stack again)
    if (msg.status === "seated") {
      x.busted = false;
      delete t.requests[msg.seat]; // the host approved it
    }
    t.seats[msg.seat] = x;
    if (msg.status !== "connected" || wasAway) say("seat", msg);
  },

  hand_start(t, msg) {
    clearBusted(t);
    t.hand = msg.hand;
    // a tournament's blinds go up with the levels: each hand says its own
    if (t.config && Array.isArray(msg.blinds) && msg.blinds.length >= 2) t.config.blinds = msg.blinds;
    t.phase = "cut";
    t.button = msg.button;
    t.blindSeats = { sb: msg.small_blind ?? null, bb: msg.big_blind };
    t.dealt = new Set(Object.keys(msg.stacks).map(Number));
    for (const [seat, stack] of Object.entries(msg.stacks)) if (t.seats[seat]) t.seats[seat].stack = stack;
    Object.assign(t, {
      board: [], runs: {}, runsOffer: null, bets: {}, pots: [], potTotal: 0, folded: new Set(), dead: new Set(), allin: new Set(), cards: {}, hole: [],
      awards: [], turn: null, acted: null, toAct: null, clock: null, cut: null, pre: null, showable: false,
      ruling: null, tray: [], bustedMe: false, timeCalled: false, timeCall: null,
    });
    drawHandStart(t);
    optionDealt(t, msg); // an entry in option ends once dealt in (casino cash)
    t.proofs[msg.hand] = { commitment: msg.commitment }; // a new server may reuse numbers
    saveProofs(t);
    say("hand_start", msg);
  },

  cut_prompt(t, msg) {
    t.cut = { seat: msg.seat, deadline: performance.now() + msg.deadline_ms, at: 1 + Math.floor(Math.random() * 51) };
    proofEntry(t, msg.hand).cutter = msg.seat; // who cut: said by the fairness check (history.js)
    saveProofs(t);
    say("cut_prompt", msg);
  },

  hole(t, msg) {
    t.cut = null;
    t.phase = "betting";
    t.cards[msg.seat] = [];
    if (msg.cards.length && msg.seat === t.you) {
      t.hole = msg.cards;
      proofEntry(t, msg.hand).hole = msg.cards;
      proofEntry(t, msg.hand).seat = msg.seat;
      saveProofs(t);
    } else if (msg.cards.length && t.you === null) {
      // a commentary rail (spectators a hand behind): the finished hand's cards, face up
      t.cards[msg.seat] = msg.cards;
    }
  },

  action(t, msg) {
    const seat = msg.seat;
    const a = msg.action;
    t.cut = null;
    if (t.phase === "cut") t.phase = "betting";
    if (t.seats[seat]) t.seats[seat].stack = msg.stack;
    if (a === "returned") {
      t.potTotal -= msg.added;
      t.bets[seat] = Math.max(0, (t.bets[seat] || 0) - msg.added);
    } else {
      t.potTotal += msg.added;
      // the round's bet of the seat is its `to` (antes go straight to the pot)
      if (!["post_ante", "post_dead", "muck", "dead_hand"].includes(a)) t.bets[seat] = msg.to;
    }
    if (a === "fold" || a === "dead_hand") t.folded.add(seat);
    if (a === "dead_hand") t.dead.add(seat); // absent at the deal: not dealt in
    // (a commentary rail keeps the cards it was given: what a commentary is for)
    if (a === "muck" && !(t.you === null && (t.cards[seat] || []).length)) t.cards[seat] = undefined;
    if (msg.allin) t.allin.add(seat);
    if (seat === t.toAct && !FORCED.includes(a)) {
      t.toAct = null; // the next clock_event says who speaks next
      if (seat === t.you) t.turn = null;
    }
    if (seat === t.you && !FORCED.includes(a) && a !== "muck") t.pre = null;
    const text = say("action", msg);
    if (ruled(msg)) flash(t, text);
  },

  board(t, msg) {
    if (msg.run) {
      // a run of the board after the first (run it twice, fpc multi-bordes)
      t.runs[msg.run] = (t.runs[msg.run] || []).concat(msg.cards);
      t.runsOffer = null;
      say("board", msg);
      return;
    }
    t.runsOffer = null;
    t.board = t.board.concat(msg.cards);
    t.bets = {};
    t.toAct = null;
    // the pots once the round's bets are gathered: the server's (absent from older servers:
    // then only the total is known, never a side pot of our own making)
    t.pots = Array.isArray(msg.pots) ? msg.pots : null;
    say("board", msg);
  },

  shown(t, msg) {
    t.cards[msg.seat] = msg.cards;
    t.phase = "showdown";
    say("shown", msg);
  },

  pot(t, msg) {
    t.potTotal -= msg.amount;
    t.awards.push(msg);
    t.bets = {};
    say("pot", msg);
  },

  hand_end(t, msg) {
    for (const [seat, stack] of Object.entries(msg.stacks)) if (t.seats[seat]) t.seats[seat].stack = stack;
    // a winner without a call may show (cdc 10.1); the server refuses anyone else
    const live = [...t.dealt].filter((seat) => !t.folded.has(seat));
    t.showable = t.you !== null && !msg.cancelled && live.length === 1 && live[0] === t.you &&
      !(t.cards[t.you] || []).length;
    Object.assign(t, { phase: "between", toAct: null, turn: null, clock: null, cut: null, pre: null, bets: {}, potTotal: 0, tray: [] });
    if (msg.cancelled) say("cancelled", msg);
    if (msg.record) {
      if (!t.hands.includes(msg.hand)) {
        t.hands.push(msg.hand);
        t.hands = t.hands.slice(-200);
        saveJSON(KEY.hands(store.state.table), t.hands);
      }
      say("record", msg);
    }
  },

  clock_event(t, msg) {
    t.toAct = msg.seat;
    t.phase = "betting";
    if (msg.kind === "action") Object.assign(t, { timeCalled: false, timeCall: null });
    if (msg.kind === "time") {
      // a ruling for the whole table: who called the Time on whom, and its countdown
      t.timeCalled = true;
      t.timeCall = { seat: msg.seat, by: msg.by ?? null, countdownMs: msg.countdown_ms || 0 };
    }
    setClock(t, msg.seat, msg.kind, msg.remaining_ms);
    if (msg.kind !== "action") {
      say("clock", msg);
      if (msg.kind === "time") flash(t, () => timeRuling(msg)); // (its countdown: the clock's)
    }
  },

  chat_event(t, msg) {
    say("chat", msg);
  },
  ...DRAW_EVENTS, // five-card draw: drew, drawn
};

// Private messages (no seq).
export const PRIVATE = {
  turn(t, msg) {
    if (msg.hand !== t.hand) return;
    if (msg.draw) drawBegins(t); // our draw: the first round's bets are in the pot
    takeTurn(t, msg);
    t.toAct = msg.seat;
    t.phase = "betting";
    t.pre = null; // our turn came: a pre-action has bound (then no turn) or was released
    if (!t.clock || t.clock.seat !== msg.seat) setClock(t, msg.seat, "action", msg.remaining_ms);
  },
  seated(t, msg) {
    // the token of the seat's own table (it rotates at every login: keep the newest); a
    // seat at another table (a cash room's move, docs/protocol.md) changes nothing here
    const table = msg.table ?? store.state.table;
    localStorage.setItem(KEY.seat(table), msg.token);
    if (table !== store.state.table) return;
    t.you = msg.seat;
    t.lastSeat = msg.seat;
    t.bustedMe = false;
  },
  seat_request(t, msg) {
    // a player asks to sit at a table whose host approves, or (`to`) a seated player of a
    // casino cash room asks to change table: the host's panel lists it
    t.requests[msg.seat] = { player: msg.player, buyIn: msg.buy_in ?? null, to: msg.to || null };
  },
  notice(t, msg) {
    const text = say("notice", msg);
    if (msg.kind === "runs_offered") t.runsOffer = t.hand;
    if (msg.kind === "option") optionTaken(t); // our `option`, from the next deal
    if (msg.kind === "oot_recorded" && t.pre) t.pre.status = "recorded";
    if (["oot_bound", "oot_released", "oot_discarded"].includes(msg.kind)) {
      t.pre = null; // bound: the action follows; released or discarded: the box is cleared
      if (msg.kind !== "oot_bound") flash(t, text);
    }
  },
  hole_proof(t, msg) {
    // the openings of our own cards: checked against the commitment of hand_start
    const entry = proofEntry(t, msg.hand);
    entry.proof = { root: msg.root, cut: msg.cut, openings: msg.openings };
    const hole = entry.hole || (msg.hand === t.hand && !t.drew[t.you] ? t.hole : null);
    const table = store.state.table;
    saveProofs(t);
    checkHoleProof(entry.proof, entry.commitment || null, hole, entry.received ?? null).then((problems) => {
      store.update((s) => {
        if (s.table !== table) return;
        entry.check = { ok: problems.length === 0, problems, committed: Boolean(entry.commitment) };
        saveProofs(s.t);
        say("proof", { hand: msg.hand, problems });
      });
    });
  },
};

// Our own bet and stack, and the largest bet of the round.
export const maxBet = (t) => Math.max(0, ...Object.values(t.bets));
export const myStack = (t) => (t.you !== null && t.seats[t.you] ? t.seats[t.you].stack : 0);

