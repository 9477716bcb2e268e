// Brasseur in the browser: the lobby (create a friends table, join by link, tournaments), the
// table, and a tournament (its clock, tables and payouts, the player's table followed through
// every move, the director's console). Plain ES modules, no build step. The wire protocol is
// docs/protocol.md (msgpack maps over a binary websocket); the server computes every rule:
// this page never re-implements them.
import { decode, encode } from "./vendor/msgpack/dist.esm/index.mjs";
import { WORDS, errorText, noteText, rankName, ruleText } from "./i18n.js";
import { parseDeclaration } from "./declare.js";
import { checkHoleProof, verifyRecord } from "./fairness.js";
import { layerPots } from "./pots.js";

const PROTOCOL_VERSION = 1;
const params = new URLSearchParams(location.search);
const TOURNAMENT = params.get("tournament") || "";
const DIRECTOR = TOURNAMENT ? params.get("director") || "" : "";
// the table shown: fixed by the link for a friends table; in a tournament, the player's table
// (it changes when the director moves him) or a table watched
let TABLE = TOURNAMENT ? "" : params.get("table") || "";
const MODE = TOURNAMENT ? "tournament" : TABLE ? "table" : "lobby";
const INVITE = MODE === "table" ? params.get("invite") || "" : "";
const KEY = {
  get seat() {
    return `brasseur.seat.${TABLE}`;
  },
  get hand() {
    return `brasseur.hand.${TABLE}`; // the hand in progress: start stacks, blinds (for a reload)
  },
  get proofs() {
    return `brasseur.proofs.${TABLE}`; // commitments, hole cards and hole proofs by hand
  },
  get hands() {
    return `brasseur.hands.${TABLE}`; // hands finished with a record
  },
  tables: "brasseur.tables",
  nick: "brasseur.nick",
  lang: "brasseur.lang",
  tournament: (id) => `brasseur.tournament.${id}`, // {token, player}: a registration
  register: (id) => `brasseur.register.${id}`, // (session) register when the page opens
};

// ------------------------------------------------------------------ language

let lang = localStorage.getItem(KEY.lang) ||
  ((navigator.languages || [navigator.language || ""]).some((l) => /^fr\b/i.test(l)) ? "fr" : "en");
const t = (key) => WORDS[lang][key] ?? WORDS.en[key] ?? key;
const fmt = (n) => Number(n).toLocaleString(lang === "fr" ? "fr-FR" : "en-US");

// ------------------------------------------------------------------ small helpers

const $ = (id) => document.getElementById(id);

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

function loadJSON(key, fallback) {
  try {
    const value = JSON.parse(localStorage.getItem(key));
    return value ?? fallback;
  } catch {
    return fallback;
  }
}

const saveJSON = (key, value) => localStorage.setItem(key, JSON.stringify(value));

const SUITS = { s: "♠", h: "♥", d: "♦", c: "♣" };
const SUIT_NAMES = {
  en: { s: "spades", h: "hearts", d: "diamonds", c: "clubs" },
  fr: { s: "pique", h: "cœur", d: "carreau", c: "trèfle" },
};
const rankText = (card) => (card[0] === "T" ? "10" : card[0]);

// A card face drawn with CSS and a Unicode suit; null draws its back.
function cardNode(card) {
  if (!card) {
    const back = el("span", "card back");
    back.setAttribute("aria-label", "?");
    return back;
  }
  const suit = card[1];
  const node = el("span", `card suit-${suit}${suit === "h" || suit === "d" ? " red" : ""}`);
  node.dataset.card = card;
  node.setAttribute("aria-label", `${rankText(card)} ${SUIT_NAMES[lang][suit]}`);
  node.append(el("span", "rank", rankText(card)), el("span", "suit", SUITS[suit]));
  return node;
}

const cardsText = (cards) => cards.map((c) => rankText(c) + SUITS[c[1]]).join(" ");

function nameOf(seat) {
  if (seat === null || seat === undefined) return "?";
  const s = S.seats[seat];
  return s ? s.player : `${t("seat")} ${seat}`;
}

function showError(text) {
  $("error-text").textContent = text;
  $("error").hidden = false;
}

function setStatus(key) {
  S.status = key;
  $("status").textContent = key ? t(key) : "";
}

// Static words of the page: data-i18n (text), data-i18n-ph (placeholder), -title, -label.
function translatePage() {
  document.documentElement.lang = lang;
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of document.querySelectorAll("[data-i18n-ph]")) node.placeholder = t(node.dataset.i18nPh);
  for (const node of document.querySelectorAll("[data-i18n-title]")) node.title = t(node.dataset.i18nTitle);
  for (const node of document.querySelectorAll("[data-i18n-label]")) {
    node.setAttribute("aria-label", t(node.dataset.i18nLabel));
  }
  $("lang").textContent = lang === "fr" ? "EN" : "FR";
  $("lang").title = t("language");
  $("declare-form").title = t("declareHint");
  if (S.status) $("status").textContent = t(S.status);
}

// ------------------------------------------------------------------ known tables (lobby)

function rememberTable(table, name, invite) {
  if (!table || !invite) return;
  const tables = loadJSON(KEY.tables, []).filter((x) => x.table !== table);
  tables.unshift({ table, name: name || table, invite, at: Date.now() });
  saveJSON(KEY.tables, tables.slice(0, 20));
}

const inviteLink = (table, invite) =>
  `${location.origin}/?table=${encodeURIComponent(table)}&invite=${encodeURIComponent(invite)}`;

// ================================================================== the table

// What this page knows of the table shown (reset when a tournament player changes table).
function freshTable() {
  return {
    synced: false,
    resyncing: false,
    seq: 0,
    config: null, // name, profile, blinds [sb, bb, ante], ante_format, max_seats, denominations
    you: null,
    seats: {}, // seat -> {player, stack, connected, sittingOut, leaving, wasHere}
    phase: "waiting", // waiting, cut, betting, showdown, between
    hand: 0,
    button: null,
    blindSeats: { sb: null, bb: null },
    dealt: new Set(),
    start: {}, // seat -> stack at hand start (for the pots)
    dead: 0, // dead money (button / big blind antes)
    deadBy: {},
    board: [],
    bets: {},
    folded: new Set(),
    allin: new Set(),
    cards: {}, // seat -> [] face down, or the cards shown
    hole: [],
    snapshotPots: null, // pots of a snapshot when the contributions are unknown
    potTotal: 0,
    awards: [], // pots awarded this hand
    turn: null,
    turnNo: 0, // counts our turns (each decision), for people and tests following the page
    toAct: null,
    clock: null, // {seat, kind, deadline, total}
    thinkStart: 0,
    timeCalled: false,
    cut: null, // {seat, deadline}
    ruling: null, // {text, until}
    pre: null, // {kind, status: "sent" | "recorded", id}
    tray: [],
    showable: false, // we may show our cards (hand over, we were dealt in)
    proofs: loadJSON(KEY.proofs, {}), // hand -> {commitment, hole, seat, proof, check}
    hands: loadJSON(KEY.hands, []),
    log: [],
  };
}

const S = {
  invite: INVITE,
  nick: localStorage.getItem(KEY.nick) || "",
  status: "",
  ws: null,
  stopped: false,
  retry: 0,
  usingSeatToken: false,
  nextId: 1,
  ...freshTable(),
};

// ------------------------------------------------------------------ connection

function send(message) {
  if (!S.ws || S.ws.readyState !== WebSocket.OPEN) return false;
  S.ws.send(encode(message, { ignoreUndefined: true }));
  return true;
}

function command(type, fields) {
  const id = S.nextId++;
  return send({ t: type, table: TABLE, id, ...fields }) ? id : null;
}

const wsUrl = () => `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/ws`;

function connect() {
  if (S.stopped || (MODE === "table" && !S.nick)) return;
  setStatus("connecting");
  // a tournament table may run on another server process: moved{url} sends us there
  const ws = new WebSocket(T.url || wsUrl());
  ws.binaryType = "arraybuffer";
  S.ws = ws;
  ws.onopen = () => {
    S.retry = 0;
    setStatus("connected");
    if (MODE === "tournament") {
      tournamentHello();
      return;
    }
    const seatToken = localStorage.getItem(KEY.seat);
    S.usingSeatToken = Boolean(seatToken);
    send({ t: "hello", version: PROTOCOL_VERSION, nickname: S.nick, token: seatToken || S.invite || undefined });
    // with a seat token, hello brings us back to our seat; join(last_seq) then sends what we
    // missed (or a snapshot on a fresh page)
    send({ t: "join", table: TABLE, last_seq: S.synced ? S.seq : undefined });
  };
  ws.onmessage = (event) => {
    if (ws !== S.ws) return;
    let message;
    try {
      message = decode(new Uint8Array(event.data));
    } catch (err) {
      showError(`bad frame from the server: ${err}`);
      return;
    }
    handle(message);
    render();
    if (MODE === "tournament") renderTournament();
  };
  ws.onclose = () => {
    if (ws !== S.ws) return;
    S.ws = null;
    if (S.stopped) {
      setStatus("stopped");
      return;
    }
    setStatus("offline");
    S.retry = Math.min(S.retry + 1, 5);
    setTimeout(connect, 1000 * S.retry);
  };
}

function reconnectNow() {
  const old = S.ws;
  S.ws = null;
  if (old) old.close();
  connect();
}

// ------------------------------------------------------------------ incoming messages

function handle(msg) {
  if (MODE === "tournament" && tournamentMessage(msg)) return;
  if (msg.table !== undefined && msg.table !== TABLE) return;
  if (msg.t === "snapshot") {
    applySnapshot(msg);
    return;
  }
  if (msg.seq !== undefined) {
    if (!S.synced || msg.seq <= S.seq) return; // before our snapshot, or a replay we have
    if (msg.seq > S.seq + 1) {
      if (!S.resyncing) command("resync", { last_seq: S.seq });
      S.resyncing = true;
      return;
    }
    S.resyncing = false;
    S.seq = msg.seq;
    const handler = EVENTS[msg.t];
    if (handler) handler(msg);
    return;
  }
  const handler = PRIVATE[msg.t];
  if (handler) handler(msg);
}

function saveProofs() {
  const keys = Object.keys(S.proofs).map(Number).sort((a, b) => b - a);
  for (const k of keys.slice(60)) delete S.proofs[k];
  saveJSON(KEY.proofs, S.proofs);
}

function proofEntry(hand) {
  if (!S.proofs[hand]) S.proofs[hand] = {};
  return S.proofs[hand];
}

const PRIVATE = {
  welcome() {},
  pong() {},
  turn(msg) {
    // our legal options, computed by the server
    if (msg.hand !== S.hand) return;
    S.turn = msg;
    S.turnNo += 1;
    S.toAct = msg.seat;
    S.phase = "betting";
    S.pre = null; // our turn came: a pre-action has bound (then no turn) or was released
    if (!S.clock || S.clock.seat !== msg.seat) setClock(msg.seat, "action", msg.remaining_ms);
  },
  seated(msg) {
    S.you = msg.seat;
    localStorage.setItem(KEY.seat, msg.token); // it rotates at every login: keep the newest
  },
  notice(msg) {
    const text = say("notice", msg);
    if (msg.kind === "oot_recorded" && S.pre) S.pre.status = "recorded";
    if (["oot_bound", "oot_released", "oot_discarded"].includes(msg.kind)) {
      S.pre = null; // bound: the action follows; released or discarded: the box is cleared
      if (msg.kind !== "oot_bound") flash(text);
    }
  },
  hole_proof(msg) {
    // the openings of our own cards: check them against the commitment of hand_start
    const entry = proofEntry(msg.hand);
    entry.proof = { root: msg.root, cut: msg.cut, openings: msg.openings };
    const hole = entry.hole || (msg.hand === S.hand ? S.hole : null);
    checkHoleProof(entry.proof, entry.commitment || null, hole).then((problems) => {
      entry.check = { ok: problems.length === 0, problems, committed: Boolean(entry.commitment) };
      saveProofs();
      say("proof", { hand: msg.hand, problems });
      render();
    });
    saveProofs();
  },
  error(msg) {
    const code = msg.code;
    if (MODE === "tournament") {
      tournamentError(msg);
      return;
    }
    if (S.usingSeatToken && ["token_replayed", "token_expired", "bad_token"].includes(code)) {
      // the stored seat token is spent: forget it and come back with the invite
      localStorage.removeItem(KEY.seat);
      S.usingSeatToken = false;
      S.you = null;
      showError(`${t("seatTokenRefused")}: ${code}`);
      reconnectNow();
      return;
    }
    if (code === "not_seated" && S.usingSeatToken) {
      localStorage.removeItem(KEY.seat); // we no longer hold the seat: watch
      S.usingSeatToken = false;
    }
    if (code === "replaced") {
      S.stopped = true;
      showError(t("replaced"));
      return;
    }
    if (code === "not_authenticated" && !S.usingSeatToken && !S.invite) {
      S.stopped = true;
      showError(t("noInvite"));
      return;
    }
    if (code === "bad_token" && !S.invite) S.stopped = true;
    if (S.pre && msg.ref === S.pre.id) S.pre = null;
    const rule = msg.rule ? ` (${ruleText(msg.rule)})` : "";
    showError(`${errorText(code, msg.message, lang)}${rule}`);
  },
};

function applySnapshot(msg) {
  const st = msg.state;
  S.synced = true;
  S.resyncing = false;
  S.seq = msg.seq;
  S.config = {
    name: st.name,
    profile: st.profile,
    blinds: st.blinds,
    ante_format: st.ante_format,
    max_seats: st.max_seats,
    denominations: st.denominations || [],
  };
  S.you = st.you ?? null;
  S.hand = st.hand;
  S.phase = st.phase;
  S.button = st.button ?? null;
  S.seats = {};
  for (const s of st.seats) {
    S.seats[s.seat] = {
      player: s.player,
      stack: s.stack,
      connected: s.connected,
      sittingOut: s.sitting_out,
      leaving: false,
      wasHere: s.connected,
    };
  }
  const live = ["cut", "betting", "showdown"].includes(st.phase);
  S.board = st.board || [];
  S.bets = {};
  for (const [seat, amount] of Object.entries(st.bets || {})) S.bets[Number(seat)] = amount;
  S.folded = new Set(st.folded || []);
  S.allin = new Set();
  S.cards = {};
  S.hole = st.hole || [];
  S.awards = [];
  // the hand in progress as this browser saw it start (a reload keeps it)
  const saved = loadJSON(KEY.hand, null);
  const known = live && saved && saved.hand === st.hand;
  S.dealt = new Set(live ? (st.bets ? Object.keys(st.bets).map(Number) : known ? Object.keys(saved.start).map(Number) : []) : []);
  S.start = known ? Object.fromEntries(Object.entries(saved.start).map(([k, v]) => [Number(k), v])) : {};
  S.blindSeats = known ? saved.blinds : { sb: null, bb: null };
  S.dead = 0;
  S.deadBy = {};
  for (const seat of S.dealt) {
    S.cards[seat] = [];
    if (S.seats[seat] && S.seats[seat].stack === 0 && !S.folded.has(seat)) S.allin.add(seat);
  }
  for (const [seat, cards] of Object.entries(st.shown || {})) S.cards[Number(seat)] = cards;
  S.snapshotPots = known ? null : st.pots || null;
  S.potTotal = st.pot_total ?? (st.pots || []).reduce((sum, p) => sum + p.amount, 0);
  if (live && S.you !== null && S.hole.length) proofEntry(st.hand).hole = S.hole;
  S.toAct = st.to_act ?? null;
  S.turn = st.menu ? { ...st.menu, seat: S.you, hand: st.hand } : null;
  if (S.turn) S.turnNo += 1;
  S.clock = null;
  if (S.toAct !== null && st.clock_remaining_ms !== undefined) setClock(S.toAct, "action", st.clock_remaining_ms);
  S.cut = null;
  S.pre = null;
  S.showable = false;
  rememberTable(TABLE, st.name, S.invite);
  renderLog(); // the names of the seats are known now (a restored log needs them)
}

function setClock(seat, kind, remainingMs) {
  const now = performance.now();
  if (kind === "action" && (!S.clock || S.clock.seat !== seat || S.clock.kind !== "action")) {
    S.thinkStart = now;
  }
  S.clock = { seat, kind, deadline: now + remainingMs, total: Math.max(remainingMs, 1) };
}

// Who contributed what this hand: start stack minus what is behind (returned chips come back).
function contributions() {
  const out = {};
  for (const seat of S.dealt) {
    const s = S.seats[seat];
    if (S.start[seat] === undefined || !s) return null;
    out[seat] = S.start[seat] - s.stack - (S.deadBy[seat] || 0);
  }
  return out;
}

function computePots() {
  const contrib = contributions();
  if (!contrib) return S.snapshotPots || [];
  return layerPots(contrib, S.folded, S.dead);
}

// Table events, in seq order.
const EVENTS = {
  seat(msg) {
    const known = S.seats[msg.seat];
    if (msg.status === "busted" || msg.status === "left") {
      say("seat", msg);
      delete S.seats[msg.seat];
      if (msg.seat === S.you && msg.status === "left") S.you = null;
      return;
    }
    const s = known || { player: msg.player, stack: msg.stack, connected: false, sittingOut: false, leaving: false };
    const wasAway = Boolean(known) && known.wasHere && !known.connected;
    s.player = msg.player;
    // mid-hand, a seat event carries the stack the seat had when the hand started (the
    // server updates it at the hand's end): the live stack comes from the actions
    if (!(known && inHand() && S.dealt.has(msg.seat))) s.stack = msg.stack;
    if (msg.status === "connected") s.connected = s.wasHere = true;
    if (msg.status === "disconnected") {
      s.connected = false;
      s.wasHere = true;
    }
    if (msg.status === "sitting_out") s.sittingOut = true;
    if (msg.status === "sitting_in") s.sittingOut = false;
    if (msg.status === "leaving") s.leaving = true;
    S.seats[msg.seat] = s;
    if (msg.status !== "connected" || wasAway) say("seat", msg);
  },

  hand_start(msg) {
    S.hand = msg.hand;
    // a tournament's blinds go up with the levels: each hand says its own
    if (S.config && Array.isArray(msg.blinds) && msg.blinds.length >= 2) S.config.blinds = msg.blinds;
    S.phase = "cut";
    S.button = msg.button;
    S.blindSeats = { sb: msg.small_blind ?? null, bb: msg.big_blind };
    S.dealt = new Set(Object.keys(msg.stacks).map(Number));
    S.start = {};
    for (const [seat, stack] of Object.entries(msg.stacks)) {
      S.start[Number(seat)] = stack;
      if (S.seats[seat]) S.seats[seat].stack = stack;
    }
    S.dead = 0;
    S.deadBy = {};
    S.board = [];
    S.bets = {};
    S.folded = new Set();
    S.allin = new Set();
    S.cards = {};
    S.hole = [];
    S.snapshotPots = null;
    S.potTotal = 0;
    S.awards = [];
    S.turn = null;
    S.toAct = null;
    S.clock = null;
    S.cut = null;
    S.pre = null;
    S.showable = false;
    S.ruling = null;
    S.tray = [];
    S.proofs[msg.hand] = { commitment: msg.commitment }; // a new server may reuse numbers
    saveProofs();
    if (S.you !== null) saveJSON(KEY.hand, { hand: msg.hand, start: msg.stacks, blinds: S.blindSeats });
    say("hand_start", msg);
  },

  cut_prompt(msg) {
    S.cut = { seat: msg.seat, deadline: performance.now() + msg.deadline_ms };
    $("cut-at").value = String(1 + Math.floor(Math.random() * 51));
    say("cut_prompt", msg);
  },

  hole(msg) {
    S.cut = null;
    S.phase = "betting";
    S.cards[msg.seat] = [];
    if (msg.cards.length && msg.seat === S.you) {
      S.hole = msg.cards;
      proofEntry(msg.hand).hole = msg.cards;
      proofEntry(msg.hand).seat = msg.seat;
      saveProofs();
    }
  },

  action(msg) {
    const seat = msg.seat;
    const a = msg.action;
    S.cut = null;
    if (S.phase === "cut") S.phase = "betting";
    if (S.seats[seat]) S.seats[seat].stack = msg.stack;
    if (a === "returned") {
      S.potTotal -= msg.added;
      S.bets[seat] = Math.max(0, (S.bets[seat] || 0) - msg.added);
    } else {
      S.potTotal += msg.added;
      if (a === "post_ante" && ["button", "big_blind"].includes(S.config && S.config.ante_format)) {
        S.dead += msg.added; // dead money, not a contribution (cdc 4.2)
        S.deadBy[seat] = (S.deadBy[seat] || 0) + msg.added;
      }
      if (!["post_ante", "muck", "dead_hand"].includes(a)) S.bets[seat] = msg.to;
    }
    if (a === "fold" || a === "dead_hand") S.folded.add(seat);
    if (a === "muck") S.cards[seat] = undefined;
    if (msg.allin) S.allin.add(seat);
    if (seat === S.toAct && !["pending", "post_sb", "post_bb", "post_ante", "returned"].includes(a)) {
      S.toAct = null; // the next clock_event says who speaks next
      if (seat === S.you) S.turn = null;
    }
    if (seat === S.you && !["pending", "post_sb", "post_bb", "post_ante", "returned", "muck"].includes(a)) S.pre = null;
    // a rule correction ("two 1000 chips facing 1200: call...") is shown to the whole table
    const text = say("action", msg);
    if (ruled(msg)) flash(text);
  },

  board(msg) {
    S.board = S.board.concat(msg.cards);
    S.bets = {};
    S.toAct = null;
    say("board", msg);
  },

  shown(msg) {
    S.cards[msg.seat] = msg.cards;
    S.phase = "showdown";
    say("shown", msg);
  },

  pot(msg) {
    S.potTotal -= msg.amount;
    S.awards.push(msg);
    S.bets = {};
    say("pot", msg);
  },

  hand_end(msg) {
    for (const [seat, stack] of Object.entries(msg.stacks)) {
      if (S.seats[seat]) S.seats[seat].stack = stack;
    }
    // a winner without a call may show (cdc 10.1); the server refuses anyone else
    const live = [...S.dealt].filter((seat) => !S.folded.has(seat));
    S.showable = S.you !== null && !msg.cancelled && live.length === 1 && live[0] === S.you &&
      !(S.cards[S.you] || []).length;
    S.phase = "between";
    S.toAct = null;
    S.turn = null;
    S.clock = null;
    S.cut = null;
    S.pre = null;
    S.bets = {};
    S.potTotal = 0;
    S.tray = [];
    localStorage.removeItem(KEY.hand);
    if (msg.cancelled) say("cancelled", msg);
    if (msg.record) {
      if (!S.hands.includes(msg.hand)) {
        S.hands.push(msg.hand);
        S.hands = S.hands.slice(-200);
        saveJSON(KEY.hands, S.hands);
      }
      say("record", msg);
    }
  },

  clock_event(msg) {
    S.toAct = msg.seat;
    S.phase = "betting";
    if (msg.kind === "action") S.timeCalled = false;
    if (msg.kind === "time") S.timeCalled = true;
    setClock(msg.seat, msg.kind, msg.remaining_ms);
    if (msg.kind !== "action") say("clock", msg);
  },

  chat_event(msg) {
    say("chat", msg);
  },
};

function describeAction(msg) {
  const words = WORDS[lang].actions;
  let text = `${nameOf(msg.seat)}: ${words[msg.action] || msg.action}`;
  if (["post_sb", "post_bb", "post_ante", "returned"].includes(msg.action)) text += ` ${fmt(msg.added)}`;
  else if (["call", "bet", "raise", "allin"].includes(msg.action)) text += ` ${fmt(msg.to)}`;
  else if (msg.action === "pending" && msg.added) text += ` (${fmt(msg.added)})`;
  const note = noteText(msg.note, lang, fmt);
  const rule = ruleText(msg.rule);
  if (note && rule) return `${text} — ${note} (${rule})`;
  if (note || rule) return `${text} — ${note || rule}`;
  return text;
}

// A rule correction, shown in the middle of the table for a few seconds.
function flash(makeText) {
  S.ruling = { make: makeText, until: performance.now() + 9000 };
}

// ------------------------------------------------------------------ acting

const inHand = () => ["cut", "betting", "showdown"].includes(S.phase);
const maxBet = () => Math.max(0, ...Object.values(S.bets));
const betFacing = () => maxBet() > 0;
const myStack = () => (S.you !== null && S.seats[S.you] ? S.seats[S.you].stack : 0);

function myChoices() {
  const turn = S.turn;
  if (!turn || S.phase !== "betting" || turn.hand !== S.hand || S.toAct !== S.you) return null;
  return turn;
}

function act(fields) {
  return command("act", { hand: S.hand, ...fields });
}

// The round a raise is counted in: the smallest chip, so that amounts can be pushed in chips.
const unit = () => (S.config && S.config.denominations.length ? S.config.denominations[0] : 1);

function clampRaise(value, c) {
  const u = unit();
  let v = Math.round(value / u) * u;
  v = Math.max(c.min_raise_to, Math.min(c.max_raise_to, v));
  return v;
}

// Pot-sized raise: call, then raise by the pot after the call (what "pot" means online).
function potRaiseTo(fraction, c) {
  const mine = S.bets[S.you] || 0;
  const call = c.call || 0;
  const pot = S.potTotal + call;
  return clampRaise(mine + call + pot * fraction, c);
}

function setAmount(value) {
  $("amount").value = String(value);
  $("slider").value = String(value);
}

// ------------------------------------------------------------------ pre-actions

// Out-of-turn declarations (ONLINE_RULES, cdc 9.3): an act before our turn is recorded and
// binds if the action has not changed. At most one per turn; the box clears when released.
function preAction(kind, box) {
  if (!box.checked) {
    box.checked = Boolean(S.pre && S.pre.kind === kind); // a recorded declaration binds
    return;
  }
  if (S.pre || !preAllowed()) {
    box.checked = false;
    return;
  }
  const facing = maxBet() > (S.bets[S.you] || 0);
  const verb = kind === "call" ? "call" : kind === "fold" ? "fold" : facing ? "fold" : "check";
  const id = act({ verb });
  if (id === null) {
    box.checked = false;
    return;
  }
  S.pre = { kind, status: "sent", id };
  render();
}

function preAllowed() {
  return (
    S.you !== null && S.phase === "betting" && S.dealt.has(S.you) && !S.folded.has(S.you) &&
    !S.allin.has(S.you) && S.toAct !== null && S.toAct !== S.you
  );
}

// ------------------------------------------------------------------ log

const secs = (ms) => `${Math.round(ms / 1000)} ${t("sec")}`;
const ruled = (msg) => Boolean(msg.note || msg.rule) && !["returned", "post_sb", "post_bb", "post_ante"].includes(msg.action);

// The log's lines, from the messages that make them: redrawn in the other language when it
// changes, and kept for the tab (sessionStorage) so that a reload brings the log back.
// kind -> (msg) -> [text maker, css class, hand record link]
const LINES = {
  seat: (m) => [() => {
    if (m.status === "seated") return `${m.player} ${t("seated")} ${m.seat}`;
    if (m.status === "busted") return `${m.player} ${t("busted")}`;
    return `${m.player} ${WORDS[lang].status[m.status] || m.status}`;
  }],
  hand_start: (m) => [() => t("newHand").replace("%n", m.hand).replace("%b", m.button), "hand"],
  cut_prompt: (m) => [() => `${nameOf(m.seat)} ${t("cutPrompt")}`],
  action: (m) => [() => describeAction(m), ruled(m) ? "rule act" : "act"],
  board: (m) => [() => `${WORDS[lang].streets[m.street] || m.street}: ${cardsText(m.cards)}`, "hand"],
  shown: (m) => [() => `${nameOf(m.seat)} ${t("shows")} ${cardsText(m.cards)}${m.rank ? ` (${rankName(m.rank, lang)})` : ""}`],
  pot: (m) => [() => `${m.index === 0 ? t("mainPot") : `${t("sidePot")} ${m.index}`} ${fmt(m.amount)}: ` +
    m.winners.map((w, i) => `${nameOf(w)} ${t("wins")} ${fmt(m.shares[i])}`).join(", "), "win"],
  cancelled: (m) => [() => `${t("handNo")} ${m.hand}: ${t("cancelled")}`, "hand"],
  record: (m) => [() => `${t("handNo")} ${m.hand}: `, "hand", m.hand],
  clock: (m) => [() => `${m.kind === "time" ? t("clockTime") : t("clockBank")} ${nameOf(m.seat)}: ${secs(m.remaining_ms)}`,
    m.kind === "time" ? "notice" : ""],
  chat: (m) => [() => `${m.player} ${t("says")}: ${m.text}`, "chat"],
  moved: (m) => [() => t("movedTo").replace("%t", tableLabel(m.table)).replace("%s", m.seat)
    .replace("%r", WORDS[lang].moveReasons[m.reason] || m.reason), "notice"],
  notice: (m) => [() => `⚑ ${noteText(m.text, lang, fmt)}${m.rule ? ` (${ruleText(m.rule)})` : ""}`, "notice"],
  proof: (m) => [() => `${t("handNo")} ${m.hand}: ${m.problems.length ? `✗ ${t("holeFailed")}: ${m.problems.join("; ")}` : `✓ ${t("holeVerified")}`}`,
    m.problems.length ? "notice" : "fair"],
};

const logKey = () => `brasseur.log.${TABLE}`;
let kept = [];

// Log a line made from a message; returns its text maker.
function say(kind, msg) {
  const [make, cls = "", hand = null] = LINES[kind](msg);
  addLog(make, cls, hand);
  kept.push([kind, msg]);
  if (kept.length > 250) kept = kept.slice(-200);
  try {
    sessionStorage.setItem(logKey(), JSON.stringify(kept));
  } catch {
    // storage full or refused: the log is only for this page then
  }
  return make;
}

function restoreLog() {
  try {
    kept = JSON.parse(sessionStorage.getItem(logKey())) || [];
  } catch {
    kept = [];
  }
  for (const [kind, msg] of kept) {
    if (!LINES[kind]) continue;
    const [make, cls = "", hand = null] = LINES[kind](msg);
    addLog(make, cls, hand);
  }
}

function addLog(make, cls = "", hand = null) {
  const entry = { make, cls, hand };
  S.log.push(entry);
  if (S.log.length > 300) S.log.shift();
  const log = $("log");
  log.append(logItem(entry));
  while (log.children.length > 300) log.firstChild.remove();
  log.scrollTop = log.scrollHeight;
}

function logItem(entry) {
  const item = el("li", entry.cls, entry.make());
  if (entry.hand !== null && MODE === "table") { // records are served to a friends table's invitees
    const button = el("button", "link", t("record"));
    button.type = "button";
    button.addEventListener("click", () => openHistory(entry.hand));
    item.append(button);
  }
  return item;
}

function renderLog() {
  const log = $("log");
  log.replaceChildren(...S.log.map(logItem));
  log.scrollTop = log.scrollHeight;
}

// ------------------------------------------------------------------ rendering

function render() {
  if (!TABLE) return;
  const cfg = S.config;
  if (cfg) {
    const [sb, bb, ante] = cfg.blinds;
    const info = `${cfg.profile} · ${fmt(sb)}/${fmt(bb)}${ante ? ` (ante ${fmt(ante)})` : ""}` +
      (S.hand ? ` · ${t("handNo")} ${S.hand}` : "");
    if (MODE === "tournament") {
      // the header shows the tournament; the table's own heading says which table this is
      const mine = TABLE === T.myTable;
      const heading = $("table-name");
      heading.replaceChildren(
        el("span", "t-table-label", tableLabel(TABLE)),
        el("span", "t-table-tag", mine ? (S.you !== null ? `${t("yourTable")} · ${t("seat")} ${S.you}` : t("yourTable")) : t("watchingTable")),
        el("span", "t-table-info", info),
      );
      heading.dataset.table = TABLE;
    } else {
      $("title").textContent = cfg.name;
      document.title = `${cfg.name} — Brasseur`;
      $("info").textContent = info;
    }
  }
  if (MODE === "table") $("nick-form").hidden = Boolean(S.nick) && (S.you !== null || Boolean(S.config));
  $("table-view").dataset.table = TABLE;
  $("table-name").hidden = MODE !== "tournament" || !cfg;
  // hand records are served to holders of a friends table's invite
  $("history-open").hidden = !cfg || (MODE !== "table" && MODE !== "tournament");
  renderSeats();
  renderCenter();
  renderMe();
  tick();
}

// Seats around an oval, ours at the bottom; bets between the seat and the middle, the
// dealer button beside the bet of its seat.
function seatAngle(n) {
  const max = S.config.max_seats;
  const anchor = S.you ?? 1;
  const k = (n - anchor + max) % max;
  return Math.PI / 2 + (2 * Math.PI * k) / max;
}

function place(node, angle, fx, fy) {
  node.style.left = `${50 + fx * Math.cos(angle)}%`;
  node.style.top = `${50 + fy * Math.sin(angle)}%`;
}

function renderSeats() {
  const seats = $("seats");
  seats.replaceChildren();
  if (!S.config) return;
  const narrow = $("felt").clientWidth < 600;
  const [rx, ry] = narrow ? [37, 42] : [43, 41];
  for (let n = 1; n <= S.config.max_seats; n++) {
    const angle = seatAngle(n);
    const box = seatNode(n);
    place(box, angle, rx, ry);
    seats.append(box);
    const bet = S.bets[n];
    if (bet) {
      const chip = el("div", "bet");
      chip.dataset.seat = String(n);
      chip.dataset.bet = String(bet);
      chip.append(el("span", "chip-dot"), el("span", "bet-amount", fmt(bet)));
      place(chip, angle, rx * 0.6, ry * 0.56);
      seats.append(chip);
    }
    if (S.button === n) {
      const dealer = el("div", "dealer", t("button"));
      dealer.title = "dealer";
      place(dealer, angle + (narrow ? 0.42 : 0.3), rx * 0.66, ry * 0.62);
      seats.append(dealer);
    }
  }
}

function seatNode(n) {
  const s = S.seats[n];
  const box = el("div", "seat");
  box.dataset.seat = String(n);
  if (!s) {
    box.classList.add("free");
    box.append(el("div", "seat-no", `${t("seat")} ${n}`));
    if (MODE === "table" && S.you === null && S.config && S.nick) {
      const b = el("button", "sit", t("sitHere"));
      b.type = "button";
      b.addEventListener("click", () => sit(n));
      box.append(b);
    } else {
      box.append(el("div", "muted", t("free")));
    }
    return box;
  }
  box.dataset.player = s.player;
  box.dataset.stack = String(s.stack);
  const acting = n === S.toAct && S.phase === "betting";
  if (n === S.you) box.classList.add("you");
  if (acting) box.classList.add("acting");
  if (S.folded.has(n)) box.classList.add("folded");
  if (!s.connected) box.classList.add("away");
  const head = el("div", "seat-head");
  head.append(el("span", "seat-no", `${n}`));
  if (inHand() || S.phase === "between") {
    if (S.blindSeats.sb === n && S.dealt.has(n)) head.append(el("span", "tag sb", t("sbTag")));
    if (S.blindSeats.bb === n && S.dealt.has(n)) head.append(el("span", "tag bb", t("bbTag")));
  }
  box.append(head);
  box.append(el("div", "player", s.player + (n === S.you ? ` (${t("you")})` : "")));
  box.append(el("div", "stack", fmt(s.stack)));
  const tags = [];
  if (S.allin.has(n) && !S.folded.has(n) && inHand()) tags.push(t("allin"));
  if (S.folded.has(n) && inHand()) tags.push(t("folded"));
  if (!s.connected) tags.push(t("away"));
  if (s.sittingOut) tags.push(t("sittingOut"));
  if (s.leaving) tags.push(t("leaving"));
  if (tags.length) box.append(el("div", "tags", tags.join(" · ")));
  const cards = S.cards[n];
  if (cards && !S.folded.has(n)) {
    const row = el("div", "cards small");
    if (cards.length) row.append(...cards.map(cardNode));
    else if (n !== S.you) row.append(cardNode(null), cardNode(null));
    else row.append(...S.hole.map(cardNode));
    box.append(row);
  }
  if (acting) {
    const timer = el("div", "timer seat-timer");
    timer.append(el("span", "bar"), el("span", "secs"));
    box.append(timer);
  }
  return box;
}

function renderCenter() {
  $("board").replaceChildren(...S.board.map(cardNode));
  const potNode = $("pot");
  const pots = inHand() ? computePots() : [];
  potNode.textContent = inHand() && S.potTotal > 0 ? `${t("pot")} ${fmt(S.potTotal)}` : "";
  potNode.dataset.total = String(inHand() ? S.potTotal : 0);
  const list = $("pots");
  list.replaceChildren();
  if (pots.length > 1) {
    pots.forEach((p, i) => {
      const item = el("span", "side-pot", `${i === 0 ? t("mainPot") : `${t("sidePot")} ${i}`} ${fmt(p.amount)}`);
      item.dataset.amount = String(p.amount);
      list.append(item);
    });
  }
  let turn = "";
  if (!S.config) turn = "";
  else if (S.phase === "cut" && S.cut) turn = `${nameOf(S.cut.seat)} ${t("cutting")}`;
  else if (S.toAct !== null && S.phase === "betting") {
    turn = S.toAct === S.you ? t("yourTurn") : `${t("toAct")} : ${nameOf(S.toAct)}`.replace(" :", lang === "fr" ? " :" : ":");
  } else if (S.phase === "waiting") turn = t("waiting");
  $("turn").textContent = turn;
  $("turn").classList.toggle("mine", S.toAct === S.you && S.phase === "betting");
  $("winners").textContent = S.awards
    .map((p) => p.winners.map((w, i) => `${nameOf(w)} ${t("wins")} ${fmt(p.shares[i])}`).join(", "))
    .join(" · ");
  const ruling = $("ruling");
  const showRuling = S.ruling && S.ruling.until > performance.now();
  ruling.hidden = !showRuling;
  if (showRuling) ruling.textContent = S.ruling.make();
}

function renderMe() {
  const cfg = S.config;
  const seated = S.you !== null;
  $("me-label").textContent = !seated ? (cfg ? t("watching") : "") : S.hole.length ? `${t("yourCards")} :`.replace(" :", lang === "fr" ? " :" : ":") : "";
  $("hole").replaceChildren(...S.hole.map(cardNode));
  const check = S.proofs[S.hand] && S.proofs[S.hand].check;
  $("hole-check").textContent = check && S.phase === "between" ? (check.ok ? `✓ ${t("holeVerified")}` : `✗ ${t("holeFailed")}`) : "";

  // the cut
  const cutMine = S.cut && S.cut.seat === S.you && S.phase === "cut";
  $("cut-panel").hidden = !cutMine;

  // my turn
  const c = myChoices();
  $("actions").hidden = !c;
  $("actions").dataset.turn = String(S.turnNo);
  if (c) {
    const pendingAmount = c.pending === "amount";
    $("call").textContent = `${t("call")} ${fmt(c.call)}`;
    $("raise").textContent = betFacing() ? t("raiseTo") : t("betTo");
    $("fold").hidden = !c.can_fold || pendingAmount;
    $("check").hidden = !c.can_check || pendingAmount;
    $("call").hidden = c.can_check || pendingAmount || c.call <= 0;
    $("raise").hidden = !c.can_raise;
    $("allin").hidden = !(c.can_raise || c.call >= myStack()) || c.pending === "call_or_fold";
    $("sizing").hidden = !c.can_raise;
    if (c.can_raise) {
      for (const id of ["slider", "amount"]) {
        $(id).min = String(c.min_raise_to);
        $(id).max = String(c.max_raise_to);
      }
      $("slider").step = String(unit());
      const current = Number($("amount").value);
      if (!wasMyTurn || !(current >= c.min_raise_to && current <= c.max_raise_to)) setAmount(c.min_raise_to);
      $("raise").textContent = `${betFacing() ? t("raiseTo") : t("betTo")} ${fmt(Number($("amount").value))}`;
    }
    const bankUsed = S.clock && S.clock.seat === S.you && S.clock.kind !== "action";
    $("bank").hidden = Boolean(bankUsed) || S.timeCalled;
  }
  wasMyTurn = Boolean(c);

  // pre-actions, when it is someone else's turn in a hand we play
  const pre = preAllowed() || Boolean(S.pre);
  $("pre").hidden = !pre || Boolean(c);
  if (pre) {
    const mine = S.bets[S.you] || 0;
    const toCall = Math.min(maxBet() - mine, myStack());
    $("pre-call-label").textContent = toCall > 0 ? `${t("preCall")} ${fmt(toCall)}` : t("preCall");
    for (const [kind, id] of [["checkfold", "pre-checkfold"], ["call", "pre-call"], ["fold", "pre-fold"]]) {
      const box = $(id);
      box.checked = Boolean(S.pre && S.pre.kind === kind);
      box.disabled = Boolean(S.pre);
    }
    $("pre-status").textContent = S.pre ? (S.pre.status === "recorded" ? t("preRecorded") : t("preSent")) : "";
  }

  // talking and chips: the live-table way to act
  const talk = seated && S.phase === "betting" && S.dealt.has(S.you) && !S.folded.has(S.you) && !S.allin.has(S.you);
  $("talk").hidden = !talk;
  if (talk) {
    $("declare").disabled = !c;
    $("declare-send").disabled = !c;
    renderTray(Boolean(c));
    updatePreview();
  }

  // the Time, showing, sitting out
  const someoneThinks = S.phase === "betting" && S.toAct !== null && seated && S.toAct !== S.you;
  $("time").hidden = !someoneThinks;
  $("time").disabled = S.timeCalled;
  $("show").hidden = !(S.showable && S.phase === "between");
  $("sitout").hidden = !seated;
  $("call-director").hidden = !seated || MODE !== "tournament";
  $("leave").hidden = !seated || MODE === "tournament"; // a tournament seat is left by busting
  const me = S.seats[S.you];
  $("sitout").textContent = me && me.sittingOut ? t("sitIn") : t("sitOut");
}
let wasMyTurn = false;

const CHIP_COLOURS = { 1: "white", 5: "red", 25: "green", 100: "black", 500: "purple", 1000: "yellow", 5000: "orange", 25000: "blue", 100000: "grey" };

function chipNode(value, tag = "button") {
  const chip = el(tag, `chip chip-${CHIP_COLOURS[value] || "grey"}`, value >= 1000 ? `${value / 1000}k` : String(value));
  chip.dataset.value = String(value);
  if (tag === "button") chip.type = "button";
  return chip;
}

function renderTray(enabled) {
  const denominations = (S.config && S.config.denominations) || [];
  const staged = S.tray.reduce((a, b) => a + b, 0);
  const left = myStack() - staged;
  const box = $("tray-chips");
  box.replaceChildren();
  for (const value of denominations) {
    const chip = chipNode(value);
    chip.disabled = !enabled || value > left;
    chip.title = fmt(value);
    chip.addEventListener("click", () => {
      S.tray.push(value);
      render();
    });
    box.append(chip);
  }
  const pile = $("tray-staged");
  pile.replaceChildren();
  const counts = {};
  for (const v of S.tray) counts[v] = (counts[v] || 0) + 1;
  for (const v of Object.keys(counts).map(Number).sort((a, b) => b - a)) {
    const group = el("button", "staged");
    group.type = "button";
    group.dataset.value = String(v);
    group.append(chipNode(v, "span"), el("span", "count", `× ${counts[v]}`));
    group.addEventListener("click", () => {
      S.tray.splice(S.tray.lastIndexOf(v), 1);
      render();
    });
    pile.append(group);
  }
  $("tray-total").textContent = staged ? `= ${fmt(staged)}` : "";
  $("push").disabled = !enabled || !staged;
  $("tray-clear").disabled = !staged;
}

// What a parsed declaration will send, in words: "→ relance à 4 000", "→ montant « 5 »".
function sayText(d) {
  const w = WORDS[lang].said;
  if (d.amount === undefined) return `→ ${w[d.verb]}`;
  const amount = d.form === "abbreviated" ? `« ${d.amount} »` : fmt(d.amount);
  if (d.verb === "raise" || d.verb === "bet") {
    const verb = d.form === "plus" ? w.plus : d.verb === "raise" ? w.raiseTo : w.bet;
    return `→ ${verb} ${amount}`;
  }
  return `→ ${w[d.verb]} ${amount}`;
}

function updatePreview() {
  const text = $("declare").value;
  const bb = S.config ? S.config.blinds[1] : 100;
  const d = text.trim() ? parseDeclaration(text, bb) : null;
  let preview = text.trim() ? (d ? sayText(d) : `✗ ${t("notUnderstood")}`) : "";
  if (d && S.tray.length) preview += ` + ${fmt(S.tray.reduce((a, b) => a + b, 0))} (${t("withChips")})`;
  $("declare-preview").textContent = preview;
}

// the countdowns, redrawn four times a second without rebuilding the page
function tick() {
  if (MODE === "tournament") tickTournament();
  if (!TABLE) return;
  const c = S.clock;
  let text = "";
  let urgent = false;
  let fraction = 0;
  if (S.phase === "betting" && S.toAct !== null && c && c.seat === S.toAct) {
    const left = Math.max(0, c.deadline - performance.now());
    text = `${Math.ceil(left / 1000)} ${t("sec")}`;
    if (c.kind === "bank") text = `${t("bank")} ${text}`;
    if (c.kind === "time") text = `Time ${text}`;
    urgent = c.kind !== "action" || left <= 5000;
    fraction = left / c.total;
  }
  for (const node of document.querySelectorAll(".seat-timer")) {
    node.querySelector(".secs").textContent = text;
    node.querySelector(".bar").style.width = `${Math.round(fraction * 100)}%`;
    node.classList.toggle("urgent", urgent);
  }
  $("my-clock").textContent = S.toAct === S.you && text ? text : "";
  $("my-clock").classList.toggle("urgent", urgent);
  if (S.cut) {
    $("cut-timer").textContent = `${Math.ceil(Math.max(0, S.cut.deadline - performance.now()) / 1000)} ${t("sec")}`;
  }
  if (S.ruling && S.ruling.until <= performance.now() && !$("ruling").hidden) $("ruling").hidden = true;
}

// ------------------------------------------------------------------ hand history

function openHistory(hand) {
  const dialog = $("history");
  const list = $("history-list");
  list.replaceChildren();
  if (!S.hands.length) list.append(el("p", "hint", t("noHands")));
  for (const n of [...S.hands].sort((a, b) => b - a).slice(0, 30)) {
    const b = el("button", "hand-pick", `${t("handNo")} ${n}`);
    b.type = "button";
    b.dataset.hand = String(n);
    b.addEventListener("click", () => showHand(n));
    list.append(b);
  }
  const last = hand ?? (S.hands.length ? Math.max(...S.hands) : null);
  $("history-hand").value = last ? String(last) : "";
  $("history-result").replaceChildren();
  if (!dialog.open) dialog.showModal();
  if (last) showHand(last);
}

async function showHand(n) {
  const out = $("history-result");
  out.replaceChildren(el("p", "hint", t("loading")));
  const token = S.invite || localStorage.getItem(KEY.seat) || "";
  let record;
  try {
    const response = await fetch(`/api/hands/${encodeURIComponent(TABLE)}/${n}.json?t=${encodeURIComponent(token)}`);
    if (!response.ok) {
      out.replaceChildren(el("p", "bad", `${response.status}: ${(await response.text()).trim()}`));
      return;
    }
    record = await response.json();
  } catch (err) {
    out.replaceChildren(el("p", "bad", String(err)));
    return;
  }
  const entry = S.proofs[n] || {};
  const seat = entry.seat ?? (entry.proof ? S.you : null);
  const result = await verifyRecord(record, {
    commitment: entry.commitment || null,
    holeProof: entry.proof || null,
    seat,
    hole: entry.hole || null,
  });
  out.replaceChildren(recordView(record, result));
}

function recordView(record, result) {
  const box = el("div", "record");
  box.dataset.hand = String(record.hand);
  const verdict = el("p", `verdict ${result.ok ? "good" : "bad"}`, `${t("handNo")} ${record.hand} — ${result.ok ? `✓ ${t("fairOk")}` : `✗ ${t("fairBad")}`}`);
  verdict.dataset.ok = String(result.ok);
  box.append(verdict);
  const checks = el("ul", "checks");
  for (const c of result.checks) {
    const mark = c.ok === true ? "✓" : c.ok === false ? "✗" : "–";
    const item = el("li", c.ok === false ? "bad" : c.ok ? "good" : "muted", `${mark} ${t(c.key)}${c.detail ? ` (${c.detail})` : ""}`);
    item.dataset.check = c.key;
    item.dataset.ok = String(c.ok);
    checks.append(item);
  }
  box.append(checks);
  const names = Object.fromEntries((record.players || []).map((p) => [String(p.seat), p.name]));
  const players = el("p", "", `${t("players")}: ${(record.players || []).map((p) => `${p.name} (${t("seat")} ${p.seat}${p.seat === record.button ? `, ${t("button")}` : ""}) ${fmt(p.stack)}`).join(" · ")}`);
  box.append(players);
  const board = el("div", "row");
  board.append(el("span", "", `${t("board")}:`), el("span", "cards small", ""));
  board.lastChild.append(...(record.board || []).map(cardNode));
  box.append(board);
  const streets = {};
  for (const a of record.actions || []) (streets[a.street] = streets[a.street] || []).push(a);
  const words = WORDS[lang].actions;
  for (const [street, actions] of Object.entries(streets)) {
    box.append(el("p", "street", `${WORDS[lang].streets[street] || street}: ${actions.map((a) => `${a.name} ${words[a.action] || a.action}${a.added && !["check", "fold"].includes(a.action) ? ` ${fmt(["call", "bet", "raise", "allin"].includes(a.action) ? a.to : a.added)}` : ""}`).join(", ")}`));
  }
  for (const [s, cards] of Object.entries(record.shown || {})) {
    const row = el("div", "row");
    row.append(el("span", "", `${t("showdown")}: ${names[s] || s}`), el("span", "cards small"));
    row.lastChild.append(...cards.map(cardNode));
    box.append(row);
  }
  for (const p of record.pots || []) {
    box.append(el("p", "win", `${p.index === 0 ? t("mainPot") : `${t("sidePot")} ${p.index}`} ${fmt(p.amount)}: ${p.shares.map(([w, share]) => `${names[String(w)] || w} ${t("wins")} ${fmt(share)}`).join(", ")}`));
  }
  return box;
}

// ------------------------------------------------------------------ user input (table)

function sit(seat) {
  if (!S.invite) {
    showError(t("noInvite"));
    return;
  }
  command("sit", { seat, token: S.invite });
}

function setupTable() {
  $("fold").addEventListener("click", () => act({ verb: "fold" }));
  $("check").addEventListener("click", () => act({ verb: "check" }));
  $("call").addEventListener("click", () => act({ verb: "call" }));
  $("allin").addEventListener("click", () => act({ verb: "allin" }));
  $("raise").addEventListener("click", () => {
    const c = myChoices();
    const amount = Math.floor(Number($("amount").value));
    if (!c || !(amount > 0)) return;
    // a declaration "raise to N" (form total): the total of the betting round
    act({ verb: betFacing() ? "raise" : "bet", amount, form: "total" });
  });
  const sized = (f) => () => {
    const c = myChoices();
    if (c && c.can_raise) setAmount(f(c));
    render();
  };
  $("q-min").addEventListener("click", sized((c) => c.min_raise_to));
  $("q-half").addEventListener("click", sized((c) => potRaiseTo(0.5, c)));
  $("q-pot").addEventListener("click", sized((c) => potRaiseTo(1, c)));
  $("q-max").addEventListener("click", sized((c) => c.max_raise_to));
  $("slider").addEventListener("input", () => {
    $("amount").value = $("slider").value;
    render();
  });
  $("amount").addEventListener("input", () => {
    $("slider").value = $("amount").value;
    const c = myChoices();
    if (c) $("raise").textContent = `${betFacing() ? t("raiseTo") : t("betTo")} ${fmt(Number($("amount").value) || 0)}`;
  });
  $("bank").addEventListener("click", () => command("timebank", { hand: S.hand }));
  $("time").addEventListener("click", () => command("clock", { hand: S.hand }));
  $("show").addEventListener("click", () => {
    command("show", { hand: S.hand });
    S.showable = false;
    render();
  });
  $("cut").addEventListener("click", () => {
    command("cut", { hand: S.hand, position: Number($("cut-at").value) % 52 });
  });
  $("sitout").addEventListener("click", () => {
    const me = S.seats[S.you];
    command(me && me.sittingOut ? "sitin" : "sitout", {});
  });
  $("call-director").addEventListener("click", () => {
    // a dispute or a question: the call waits in the director's console for a ruling
    const why = prompt(t("callDirectorWhy"));
    if (why === null) return;
    command("call_director", { hand: S.hand || undefined, text: why.trim().slice(0, 300) });
  });
  $("leave").addEventListener("click", () => {
    if (!confirm(t("leaveConfirm"))) return;
    command("leave", {});
    localStorage.removeItem(KEY.seat);
  });
  $("pre-checkfold").addEventListener("change", (e) => preAction("checkfold", e.target));
  $("pre-call").addEventListener("change", (e) => preAction("call", e.target));
  $("pre-fold").addEventListener("change", (e) => preAction("fold", e.target));
  $("declare").addEventListener("input", updatePreview);
  $("declare-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const bb = S.config ? S.config.blinds[1] : 100;
    const d = parseDeclaration($("declare").value, bb);
    if (!d) {
      showError(`${t("notUnderstood")}: « ${$("declare").value} » — ${t("declareHint")}`);
      return;
    }
    // said and pushed in one motion: the declaration with the chips of the tray, if any
    const fields = { ...d };
    if (S.tray.length) fields.chips = [...S.tray];
    if (act(fields) !== null) {
      $("declare").value = "";
      S.tray = [];
      render();
    }
  });
  $("push").addEventListener("click", () => {
    if (!S.tray.length) return;
    if (act({ chips: [...S.tray] }) !== null) {
      S.tray = [];
      render();
    }
  });
  $("tray-clear").addEventListener("click", () => {
    S.tray = [];
    render();
  });
  $("chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("chat").value.trim();
    if (text && command("chat", { text: text.slice(0, 500) }) !== null) $("chat").value = "";
  });
  $("history-open").addEventListener("click", () => openHistory(null));
  $("history-close").addEventListener("click", () => $("history").close());
  $("history-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const n = Math.floor(Number($("history-hand").value));
    if (n > 0) showHand(n);
  });
  setInterval(tick, 250);
}

// ================================================================== the lobby

const L = { ws: null, created: null, tournaments: null };

function renderLobby() {
  $("title").textContent = t("lobbyTitle");
  document.title = `Brasseur — ${t("lobbyTitle")}`;
  const list = $("my-tables");
  list.replaceChildren();
  const tables = loadJSON(KEY.tables, []);
  if (!tables.length) list.append(el("li", "hint", t("noTables")));
  for (const x of tables) {
    const item = el("li");
    const a = el("a", "", x.name);
    a.href = inviteLink(x.table, x.invite);
    a.dataset.table = x.table;
    item.append(a, el("span", "muted", ` ${x.table}`));
    list.append(item);
  }
  if (!$("c-name").value) $("c-name").placeholder = t("defaultTableName");
  renderTournamentList();
}

function lobbyCreate() {
  const nick = S.nick;
  const [sb, bb] = $("c-blinds").value.split("/").map(Number);
  const message = {
    t: "create",
    name: $("c-name").value.trim() || t("defaultTableName"),
    profile: $("c-profile").value,
    sb,
    bb,
    max_seats: Math.max(2, Math.min(10, Number($("c-seats").value) || 9)),
    starting_stack: Math.max(bb, Number($("c-stack").value) || 10000),
    action_seconds: Math.max(1, Math.min(3600, Number($("c-clock").value) || 30)),
    id: 1,
  };
  $("create").disabled = true;
  const ws = new WebSocket(wsUrl());
  ws.binaryType = "arraybuffer";
  L.ws = ws;
  ws.onopen = () => {
    ws.send(encode({ t: "hello", version: PROTOCOL_VERSION, nickname: nick || undefined }, { ignoreUndefined: true }));
    ws.send(encode(message));
  };
  ws.onmessage = (event) => {
    const msg = decode(new Uint8Array(event.data));
    if (msg.t === "table_created") {
      const link = inviteLink(msg.table, msg.invite);
      rememberTable(msg.table, message.name, msg.invite);
      $("created-link").value = link;
      $("open-table").href = link;
      $("created").hidden = false;
      $("create").disabled = false;
      renderLobby();
      ws.close();
    } else if (msg.t === "error") {
      showError(errorText(msg.code, msg.message, lang));
      $("create").disabled = false;
      ws.close();
    }
  };
  ws.onclose = () => {
    $("create").disabled = false;
  };
}

function setupLobby() {
  $("create-form").addEventListener("submit", (event) => {
    event.preventDefault();
    lobbyCreate();
  });
  $("copy-link").addEventListener("click", async () => {
    const link = $("created-link").value;
    try {
      await navigator.clipboard.writeText(link);
    } catch {
      $("created-link").select(); // no clipboard (http, or refused): select it to copy by hand
    }
    $("copy-link").textContent = t("copied");
  });
  $("join-form").addEventListener("submit", (event) => {
    event.preventDefault();
    let url;
    try {
      url = new URL($("join-link").value.trim(), location.origin);
    } catch {
      url = null;
    }
    const table = url && url.searchParams.get("table");
    const invite = url && url.searchParams.get("invite");
    if (!table || !invite) {
      showError(t("badLink"));
      return;
    }
    location.href = inviteLink(table, invite); // always this server: the link's host may differ
  });
}

// ================================================================== tournaments

const T = {
  id: TOURNAMENT,
  director: DIRECTOR, // the director's token (console link)
  state: null, // the last `tournament` state (see docs/protocol.md)
  at: 0, // when it came (performance.now()): the level clock counts down from there
  mine: TOURNAMENT ? loadJSON(KEY.tournament(TOURNAMENT), null) : null, // {token, player}
  myTable: null, // the table of our seat: the server attached this connection to it
  mySeat: null,
  watching: null, // a table watched as a spectator
  lastMove: null, // the last `moved`: {table, seat, from, reason}
  moves: {}, // reason -> how many moves this page followed
  url: "", // the server running our table, when moved{url} named another one
  pending: {}, // request id -> op (register, follow, the console's ops)
  folded: null, // the director's view of a table's folded hands
  keys: {}, // what each list was drawn from (redrawn only when it changes)
};

// "web-3" -> "Table 3"
function tableLabel(name) {
  const prefix = `${T.id}-`;
  const n = name && name.startsWith(prefix) ? name.slice(prefix.length) : name;
  return t("tableN").replace("%n", n);
}

const opName = (op) => WORDS[lang].ops[op] || op;
const phaseName = (phase) => WORDS[lang].phases[phase] || phase;

function clockText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(h ? 2 : 1, "0");
  const ss = String(s % 60).padStart(2, "0");
  return h ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

// A tournament-level request (register, follow, direct): its id tells which op an error is for.
function tsend(type, op, fields) {
  const id = S.nextId++;
  const ids = Object.keys(T.pending);
  if (ids.length > 100) delete T.pending[ids[0]];
  T.pending[id] = op;
  return send({ t: type, tournament: T.id, id, ...fields }) ? id : null;
}

function tournamentHello() {
  send({ t: "hello", version: PROTOCOL_VERSION, nickname: S.nick || undefined });
  // the director's page watches (it never takes over the seat of a player in this browser)
  tsend("follow", "follow", { token: T.director ? undefined : T.mine?.token });
  if (T.watching) joinTable(T.watching);
  if (!T.director && !T.mine && sessionStorage.getItem(KEY.register(T.id))) registerNow();
}

function registerNow() {
  sessionStorage.setItem(KEY.register(T.id), "1");
  if (!S.nick) {
    $("nick-form").hidden = false;
    $("nick").focus();
    showError(t("nickFirst"));
    return;
  }
  if (!S.ws || S.ws.readyState !== WebSocket.OPEN) return; // done when the connection opens
  sessionStorage.removeItem(KEY.register(T.id));
  // the server registers the hello nickname: say it again (it may have been typed just now)
  send({ t: "hello", version: PROTOCOL_VERSION, nickname: S.nick });
  tsend("register", "register", {});
}

// Ask for a table's snapshot (and its events from then on); an unknown table (closed, broken)
// is then no longer watched.
function joinTable(table, lastSeq) {
  const id = S.nextId++;
  T.pending[id] = "watch";
  send({ t: "join", table, id, last_seq: lastSeq });
}

// Show another table ("": none): a fresh view of it (join asks for its snapshot; a move needs
// no join, the server attaches our connection to the new seat and sends the snapshot itself).
function showTable(name, joining) {
  if (name !== TABLE) {
    const turnNo = S.turnNo;
    TABLE = name;
    Object.assign(S, freshTable());
    S.turnNo = turnNo;
    wasMyTurn = false;
    kept = [];
    $("log").replaceChildren();
    restoreLog();
    if ($("history").open) $("history").close();
  }
  if (joining && name) joinTable(name);
}

function stopWatching() {
  if (T.watching && T.watching !== T.myTable) send({ t: "leave", table: T.watching });
  T.watching = null;
}

function watchTable(name) {
  if (name === T.myTable) {
    backToMyTable();
    return;
  }
  if (name === T.watching) return;
  stopWatching();
  T.watching = name;
  showTable(name, true);
  render();
  renderTournament();
}

function backToMyTable() {
  if (!T.myTable) return;
  stopWatching();
  showTable(T.myTable, true);
  render();
  renderTournament();
}

// Messages of the tournament (and our turn at our table while we watch another): true if
// taken here.
function tournamentMessage(msg) {
  if (msg.tournament !== undefined && msg.tournament !== T.id) return false;
  if (msg.t === "registered") {
    delete T.pending[msg.ref];
    T.mine = { token: msg.token, player: msg.player };
    saveJSON(KEY.tournament(T.id), T.mine);
    sessionStorage.removeItem(KEY.register(T.id));
    return true;
  }
  if (msg.t === "tournament") {
    const st = msg.state || {};
    if (st.folded) {
      T.folded = st.folded;
      return true;
    }
    T.state = st;
    T.at = performance.now();
    const you = st.you;
    const open = new Set((st.tables || []).map(([table]) => table));
    if (T.myTable && you && !you.table) {
      // out of the tournament: the table we played at stays on screen, as a spectator
      T.myTable = null;
      T.mySeat = null;
      T.watching = TABLE && open.has(TABLE) ? TABLE : null;
      if (T.watching) joinTable(TABLE, S.synced ? S.seq : undefined);
      else showTable("", false);
    }
    if (T.watching && !open.has(T.watching)) {
      // the table we watched was broken or closed: back to ours, if we play
      T.watching = null;
      showTable(T.myTable || "", Boolean(T.myTable));
    }
    return true;
  }
  if (msg.t === "moved") {
    if (msg.url && msg.url !== (T.url || wsUrl())) {
      // our new table runs on another server: follow again there with our token
      T.url = msg.url;
      reconnectNow();
      return true;
    }
    if (T.watching !== msg.table) stopWatching();
    T.watching = null;
    T.myTable = msg.table;
    T.mySeat = msg.seat;
    showTable(msg.table, false);
    if (msg.reason) {
      T.lastMove = { table: msg.table, seat: msg.seat, from: msg.from_table, reason: msg.reason };
      T.moves[msg.reason] = (T.moves[msg.reason] || 0) + 1;
      say("moved", msg);
    }
    return true;
  }
  if (msg.t === "turn" && T.myTable && msg.table === T.myTable && TABLE !== T.myTable) {
    backToMyTable(); // our turn came while we watched another table: its snapshot has our options
    return true;
  }
  return false;
}

function tournamentError(msg) {
  const code = msg.code;
  const op = msg.ref !== undefined && msg.ref !== null ? T.pending[msg.ref] : undefined;
  if (op) delete T.pending[msg.ref];
  if (code === "replaced") {
    S.stopped = true;
    showError(t("replaced"));
    return;
  }
  if (op === "watch" && code === "unknown_table") {
    // the table closed before we could watch it (broken, or the tournament is over)
    if (T.watching && TABLE === T.watching) {
      T.watching = null;
      showTable(T.myTable || "", Boolean(T.myTable));
    }
    return;
  }
  if (op === "follow" && T.mine && ["bad_token", "token_expired", "token_replayed"].includes(code)) {
    // our registration is not valid on this server any more: watch the tournament
    localStorage.removeItem(KEY.tournament(T.id));
    T.mine = null;
    showError(`${t("seatTokenRefused")}: ${errorText(code, msg.message, lang)}`);
    tsend("follow", "follow", {});
    return;
  }
  if (S.pre && msg.ref === S.pre.id) S.pre = null;
  const words = `${errorText(code, msg.message, lang)}${msg.rule ? ` (${ruleText(msg.rule)})` : ""}`;
  if (op && op !== "follow") {
    const text = `${t("dRefused").replace("%o", opName(op))} : ${words}`.replace(" :", lang === "fr" ? " :" : ":");
    if (T.director) {
      $("d-result").textContent = text;
      $("d-result").className = "d-result bad";
    }
    showError(text);
    return;
  }
  showError(words);
}

// ------------------------------------------------------------------ the director's console

function direct(op, fields = {}) {
  const id = tsend("direct", op, { token: T.director, op, ...fields });
  if (id === null) return;
  $("d-result").textContent = t("dSent").replace("%o", opName(op));
  $("d-result").className = "d-result";
  $("error").hidden = true;
}

function consolePlayer() {
  const pid = $("d-player").value;
  if (!pid) showError(t("dNoPlayer"));
  return pid;
}

const text = (id) => $(id).value.trim() || undefined;
const number = (id) => {
  const v = $(id).value.trim();
  return v === "" ? undefined : Math.floor(Number(v));
};

function setupConsole() {
  $("d-start").addEventListener("click", () => direct("start"));
  $("d-pause").addEventListener("click", () => direct("pause"));
  $("d-resume").addEventListener("click", () => direct("resume"));
  $("d-move").addEventListener("click", () => {
    const player = consolePlayer();
    const table = $("d-move-table").value;
    if (!player) return;
    if (!table) {
      showError(t("dNoTable"));
      return;
    }
    direct("move", { player, table, seat: number("d-seat") });
  });
  $("d-sanction").addEventListener("change", () => {
    $("d-hands").disabled = $("d-sanction").value !== "penalty";
  });
  $("d-hands").disabled = true;
  $("d-sanction-go").addEventListener("click", () => {
    const player = consolePlayer();
    if (!player) return;
    const op = $("d-sanction").value;
    const name = $("d-player").selectedOptions[0]?.dataset.name || player;
    if (op === "disqualify" && !confirm(t("dqConfirm").replace("%n", name))) return;
    direct(op, { player, text: text("d-sanction-text"), hands: op === "penalty" ? number("d-hands") : undefined });
  });
  $("d-adjust").addEventListener("click", () => {
    const player = consolePlayer();
    if (!player) return;
    // the reason is required: the server refuses a correction without one (and says so)
    direct("adjust", { player, amount: number("d-amount"), text: text("d-adjust-text") });
  });
  $("d-folded").addEventListener("click", () => {
    const table = $("d-folded-table").value;
    if (!table) {
      showError(t("dNoTable"));
      return;
    }
    T.folded = null;
    direct("folded", { table });
  });
}

// Options of a select, keeping the choice made.
function fillSelect(select, options) {
  const value = select.value;
  select.replaceChildren(
    ...options.map(([v, label, data]) => {
      const o = el("option", "", label);
      o.value = v;
      Object.assign(o.dataset, data || {});
      return o;
    }),
  );
  if (options.some(([v]) => v === value)) select.value = value;
}

// Redraw a list only when what it shows changed (the state comes many times a second, and a
// list redrawn under the pointer loses the click).
function changed(name, value) {
  const key = JSON.stringify([lang, value]);
  if (T.keys[name] === key) return false;
  T.keys[name] = key;
  return true;
}

function renderConsole(st) {
  const players = (st && st.players) || [];
  const tables = (st && st.tables) || [];
  const calls = (st && st.calls) || [];
  if (changed("d-calls", calls)) {
    $("d-calls").replaceChildren(
      ...calls.map(([id, table, name, hand, why]) => {
        const item = el("li", "d-call");
        item.dataset.call = String(id);
        const ruling = el("input");
        ruling.maxLength = 200;
        ruling.placeholder = t("dRuling");
        const go = el("button", "", t("dRule"));
        go.type = "button";
        go.addEventListener("click", () => {
          direct("rule", { amount: id, text: ruling.value.trim() || undefined });
        });
        item.append(
          el("span", "", `#${id} ${t("tableN").replace("%n", table)}${hand ? ` · ${t("dHandN").replace("%n", hand)}` : ""} — ${name}: ${why}`),
          ruling,
          go,
        );
        return item;
      }),
    );
  }
  if (changed("d-players", players)) {
    fillSelect(
      $("d-player"),
      [...players]
        .sort((a, b) => a[1].localeCompare(b[1]))
        .map(([pid, name, table, seat, stack]) => [
          pid,
          `${name} — ${table ? `${tableLabel(table)}, ${t("seat").toLowerCase()} ${seat}` : "—"} — ${fmt(stack)}`,
          { name },
        ]),
    );
    const body = $("d-players").tBodies[0];
    body.replaceChildren(
      ...[...players]
        .sort((a, b) => String(a[2]).localeCompare(String(b[2])) || a[3] - b[3])
        .map(([pid, name, table, seat, stack]) => {
          const row = el("tr");
          row.dataset.player = pid;
          row.dataset.stack = String(stack);
          row.append(el("td", "", name), el("td", "", table ? tableLabel(table) : "—"), el("td", "", seat ?? "—"),
            el("td", "num", fmt(stack)));
          return row;
        }),
    );
  }
  if (changed("d-tables", tables)) {
    for (const select of document.querySelectorAll(".d-table")) {
      fillSelect(select, tables.map(([name, n]) => [name, `${tableLabel(name)} (${n})`]));
    }
  }
  const out = $("d-folded-out");
  const folded = T.folded;
  if (changed("d-folded", folded)) {
    out.replaceChildren();
    if (folded) {
      out.append(el("h3", "", `${tableLabel(folded.table)} — ${t("dFoldedTitle")}`));
      if (!folded.hands.length) out.append(el("p", "hint", t("foldedNone")));
      for (const hand of [...folded.hands].reverse()) {
        const item = el("div", "d-hand");
        item.dataset.hand = String(hand.hand);
        item.append(el("strong", "", `${t("handNo")} ${hand.hand}`));
        for (const [name, cards] of Object.entries(hand.holes || {})) {
          const who = el("span", "d-hole");
          const row = el("span", "cards small");
          row.append(...cards.map(cardNode));
          who.append(el("span", "", name), row);
          item.append(who);
        }
        out.append(item);
      }
    }
  }
}

// ------------------------------------------------------------------ rendering

function badge(cls, text, kind) {
  const node = el("span", `badge ${cls}`, text);
  node.dataset.badge = kind;
  return node;
}

function renderTournament() {
  const st = T.state;
  const name = st ? st.name : T.id;
  $("title").textContent = name;
  document.title = `${name} — Brasseur`;
  $("info").textContent = st ? st.profile : "";
  const top = $("t-top");
  top.dataset.phase = st ? st.phase : "";
  top.dataset.paused = String(Boolean(st && st.paused));

  const badges = [];
  if (st) {
    badges.push(badge(`phase phase-${st.phase}`, phaseName(st.phase), st.phase));
    if (st.paused) badges.push(badge("paused", t("pausedBadge"), "paused"));
    if (st.hand_for_hand && st.phase !== "hand_for_hand") badges.push(badge("hfh", t("handForHandBadge"), "hand_for_hand"));
    if (st.break && st.phase !== "break") badges.push(badge("break", t("breakBadge"), "break"));
  }
  $("t-badges").replaceChildren(...badges);
  if (st) {
    $("t-level").textContent = st.break ? t("breakBadge") : String(st.level ?? "—");
    const [sb, bb, ante] = st.blinds || [];
    $("t-blinds").textContent = st.blinds ? `${fmt(sb)} / ${fmt(bb)}${ante ? ` · ante ${fmt(ante)}` : ""}` : "—";
    $("t-players").textContent = `${fmt(st.players_left ?? 0)} / ${fmt(st.entries ?? 0)}`;
    $("t-average").textContent = st.average ? fmt(st.average) : "—";
  }
  tickTournament();

  // us: registered, seated (and moved), out, or a visitor
  const you = $("t-you");
  let line = t("notRegistered");
  if (T.director) line = t("consoleTitle");
  else if (T.myTable) line = t("youSeat").replace("%t", tableLabel(T.myTable)).replace("%s", T.mySeat);
  else if (T.mine && st && st.phase === "registering") line = t("youRegistered").replace("%n", S.nick);
  else if (T.mine && st && st.you && !st.you.table) line = t("youOut");
  you.textContent = line;
  you.dataset.player = T.mine ? T.mine.player : "";
  you.dataset.table = T.myTable || "";
  you.dataset.seat = T.mySeat ?? "";
  you.dataset.reason = T.lastMove ? T.lastMove.reason : "";
  you.dataset.balanced = String(T.moves.balancing || 0);
  const moved = $("t-moved");
  moved.hidden = !T.lastMove || !T.myTable;
  if (T.lastMove) {
    const m = T.lastMove;
    moved.textContent = t("movedTo").replace("%t", tableLabel(m.table)).replace("%s", m.seat)
      .replace("%r", WORDS[lang].moveReasons[m.reason] || m.reason);
  }
  $("t-register").hidden = Boolean(T.director || T.mine || !st || st.phase !== "registering");
  $("t-back").hidden = !T.myTable || TABLE === T.myTable;
  $("t-abandon").hidden = !T.mine || !T.myTable || T.director;
  $("table-view").hidden = !TABLE;
  $("t-watch-hint").hidden = Boolean(TABLE) || !st || !(st.tables || []).length;

  if (!st) return;
  // the tables: click one to watch it
  const tables = st.tables || [];
  $("t-tables-panel").hidden = !tables.length;
  if (changed("tables", [tables, T.myTable, TABLE])) {
    $("t-tables").replaceChildren(
      ...tables.map(([table, n]) => {
        const item = el("li");
        const b = el("button", "t-table", tableLabel(table));
        b.type = "button";
        b.dataset.table = table;
        b.addEventListener("click", () => watchTable(table));
        item.append(b, el("span", "muted", t("playersN").replace("%n", n)));
        if (table === T.myTable) item.append(el("span", "tag mine", t("yourTable")));
        else if (table === TABLE) item.append(el("span", "tag watching", t("watchingTable")));
        if (table === TABLE) b.classList.add("current");
        return item;
      }),
    );
  }
  if (changed("payouts", [st.payouts, st.entries])) {
    $("t-payouts").replaceChildren(...(st.payouts || []).map((prize) => el("li", "", fmt(prize))));
    $("t-entries").textContent = `${fmt(st.entries ?? 0)} ${t("entries")}` +
      ((st.payouts || []).length ? "" : ` — ${t("payoutsLater")}`);
  }
  const registered = st.registered || [];
  $("t-registered-panel").hidden = st.phase !== "registering";
  if (changed("registered", registered)) {
    $("t-registered").replaceChildren(...registered.map((n) => el("li", "", n)));
  }
  const results = st.results || [];
  $("t-results-panel").hidden = !results.length;
  if (changed("results", results)) {
    $("t-results").tBodies[0].replaceChildren(
      ...results.map(([place, who, prize, points]) => {
        const row = el("tr");
        row.append(el("td", "num", String(place)), el("td", "", who), el("td", "num", prize ? fmt(prize) : ""),
          el("td", "num", points ? fmt(points) : ""));
        return row;
      }),
    );
    $("t-csv").href = `/api/tournaments/${encodeURIComponent(T.id)}/results.csv`;
    $("t-json").href = `/api/tournaments/${encodeURIComponent(T.id)}/results.json`;
  }
  if (T.director) {
    $("d-start").disabled = st.phase !== "registering";
    $("d-pause").disabled = Boolean(st.paused) || st.phase === "finished";
    $("d-resume").disabled = !st.paused || st.phase === "finished";
    for (const group of document.querySelectorAll("#console .d-group")) group.disabled = st.phase === "finished";
    renderConsole(st);
  }
}

// the level clock, counted down here between two states
function tickTournament() {
  const st = T.state;
  let shown = "—";
  if (st && st.level_left !== null && st.level_left !== undefined) {
    const running = !st.paused && st.phase !== "registering";
    const left = st.level_left - (running ? (performance.now() - T.at) / 1000 : 0);
    if (st.phase !== "finished") shown = clockText(left);
  }
  $("t-countdown").textContent = shown;
}

function setupTournament() {
  $("t-register").addEventListener("click", registerNow);
  $("t-back").addEventListener("click", backToMyTable);
  $("t-abandon").addEventListener("click", () => {
    // cdc 1.9: an announced abandon removes the chips and ranks the player at once
    if (!T.mine || !confirm(t("abandonConfirm"))) return;
    send({ t: "abandon", tournament: T.id, token: T.mine.token });
  });
  if (T.director) setupConsole();
}

function startTournament() {
  $("t-top").hidden = false;
  $("tournament-view").hidden = false;
  $("console").hidden = !T.director;
  $("nick-form").hidden = true;
  setupTable();
  setupTournament();
  renderTournament();
  connect();
}

// ------------------------------------------------------------------ the lobby's list

async function loadTournaments() {
  try {
    const response = await fetch("/api/tournaments");
    L.tournaments = response.ok ? await response.json() : [];
  } catch {
    return; // offline for a moment: the next refresh tries again
  }
  renderTournamentList();
}

function renderTournamentList() {
  const list = L.tournaments;
  if (!changed("lobby", [list, S.nick]) && list) return;
  const ul = $("t-list");
  ul.replaceChildren();
  if (!list) return;
  if (!list.length) ul.append(el("li", "hint", t("noTournaments")));
  for (const x of list) {
    const item = el("li", "t-item");
    item.dataset.tournament = x.id;
    const head = el("div", "t-name");
    head.append(el("strong", "", x.name || x.id), el("span", "muted", ` ${x.id}`));
    const meta = el("div", "t-meta");
    meta.append(badge(`phase phase-${x.phase}`, phaseName(x.phase), x.phase));
    meta.append(el("span", "", `${fmt(x.entries ?? 0)} ${t("entries")}`));
    if (x.phase !== "registering" && x.phase !== "finished") {
      meta.append(el("span", "", `${t("playersLeft")} ${fmt(x.players_left ?? 0)}`));
      if (x.level) meta.append(el("span", "", `${t("level")} ${x.level}`));
    }
    const actions = el("div", "row");
    const mine = loadJSON(KEY.tournament(x.id), null);
    const link = `/?tournament=${encodeURIComponent(x.id)}`;
    if (mine) {
      actions.append(el("span", "good", `✓ ${t("registeredMark")}`));
    } else if (x.phase === "registering") {
      const b = el("button", "primary register", t("register"));
      b.type = "button";
      b.addEventListener("click", () => {
        if (!S.nick) {
          showError(t("nickFirst"));
          $("nick-form").hidden = false;
          $("nick").focus();
          return;
        }
        sessionStorage.setItem(KEY.register(x.id), "1"); // the tournament's page registers us
        location.href = link;
      });
      actions.append(b);
    }
    const open = el("a", "button open", t("openTournament"));
    open.href = link;
    actions.append(open);
    item.append(head, meta, actions);
    ul.append(item);
  }
}

// ================================================================== start

$("lang").addEventListener("click", () => {
  lang = lang === "fr" ? "en" : "fr";
  localStorage.setItem(KEY.lang, lang);
  translatePage();
  if (MODE === "lobby") {
    renderLobby();
  } else {
    renderLog();
    render();
    if (MODE === "tournament") renderTournament();
  }
});
$("error-close").addEventListener("click", () => {
  $("error").hidden = true;
});
$("nick").value = S.nick;
$("nick-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const nick = $("nick").value.trim().slice(0, 32);
  if (!nick) return;
  const changed = nick !== S.nick;
  S.nick = nick;
  localStorage.setItem(KEY.nick, nick);
  if (MODE === "lobby") {
    $("nick-form").hidden = true;
    $("error").hidden = true;
    renderLobby();
    return;
  }
  if (MODE === "tournament") {
    $("nick-form").hidden = true;
    $("error").hidden = true;
    if (sessionStorage.getItem(KEY.register(T.id))) registerNow();
    renderTournament();
    return;
  }
  render();
  // the server takes the nickname from hello: say hello again if it changed
  if (!S.ws || changed) reconnectNow();
});

translatePage();
if (MODE === "lobby") {
  $("lobby").hidden = false;
  $("nick-form").hidden = Boolean(S.nick);
  setupLobby();
  renderLobby();
  loadTournaments();
  setInterval(loadTournaments, 4000);
} else if (MODE === "tournament") {
  startTournament();
} else {
  $("table-view").hidden = false;
  setupTable();
  restoreLog();
  render();
  if (!S.invite && !localStorage.getItem(KEY.seat)) {
    showError(t("noInvite"));
  } else if (S.nick) {
    connect();
  } else {
    $("nick-form").hidden = false;
    $("nick").focus();
  }
}
