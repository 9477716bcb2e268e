// The page's one shared state. Every module reads `store.state` and changes it only through
// `store.update(fn)`; the views subscribe and are redrawn once after a burst of updates (a
// microtask later). No other module keeps mutable state of its own.

const params = new URLSearchParams(location.search);
const TOURNAMENT = params.get("tournament") || "";
const TABLE = TOURNAMENT ? "" : params.get("table") || "";
const LEAGUE = TOURNAMENT || TABLE ? "" : params.get("league") || "";

// Where a browser keeps what must survive a reload.
export const KEY = {
  seat: (table) => `brasseur.seat.${table}`, // the newest seat token
  host: (table) => `brasseur.host.${table}`, // the host token of a table we created
  settings: (table) => `brasseur.settings.${table}`, // {approval}: what a table we created asks
  proofs: (table) => `brasseur.proofs.${table}`, // commitments, hole cards and proofs by hand
  hands: (table) => `brasseur.hands.${table}`, // hands finished with a record
  log: (table) => `brasseur.log.${table}`, // (session) the log's messages
  member: "brasseur.member", // {token, member, login, display, lang}: a member's session (never a password)
  tables: "brasseur.tables",
  leagues: "brasseur.leagues", // [{league, name, member}]: the leagues created or joined here
  optionEntry: (table) => `brasseur.option-entry.${table}`, // (session) we sat « en option »
  nick: "brasseur.nick",
  lang: "brasseur.lang",
  mute: "brasseur.mute",
  notify: "brasseur.notify", // "1": a browser notification at our turn when the page is hidden
  tournament: (id) => `brasseur.tournament.${id}`, // {token, player}: a registration
  register: (id) => `brasseur.register.${id}`, // (session) register when the page opens
};

export function loadJSON(key, fallback) {
  try {
    const value = JSON.parse(localStorage.getItem(key));
    return value ?? fallback;
  } catch {
    return fallback;
  }
}

export const saveJSON = (key, value) => localStorage.setItem(key, JSON.stringify(value));

function browserLang() {
  const saved = localStorage.getItem(KEY.lang);
  if (saved === "fr" || saved === "en") return saved;
  const langs = navigator.languages || [navigator.language || ""];
  return langs.some((l) => /^fr\b/i.test(l)) ? "fr" : "en";
}

// What the page knows of the table shown (a fresh one when a tournament player changes table).
export function freshTable(name) {
  return {
    synced: false,
    resyncing: false,
    resyncAt: 0,
    seq: 0,
    config: null, // name, profile, blinds [sb, bb, ante], max_seats, denominations, clocks
    you: null,
    cash: null, // a cash table's limits and ledger (the snapshot's cash)
    runs: {}, // run -> the cards of that run of the board (run it twice)
    runsOffer: null, // the hand whose runs we may agree to (notice runs_offered)
    optionAsk: null, // {id, on}: our `option` on its way (casino cash, option.js)
    requests: {}, // seat -> {player, buyIn}: players asking the host to sit
    lastSeat: null, // our seat, kept after a bust (the felt keeps its orientation)
    seats: {}, // seat -> {player, stack, connected, sittingOut, leaving, wasHere, busted}
    phase: "waiting", // waiting, cut, betting, showdown, between
    hand: 0,
    button: null,
    blindSeats: { sb: null, bb: null },
    dealt: new Set(),
    board: [],
    bets: {}, // seat -> chips in the current betting round (the `to` of its last action)
    pots: null, // the server's pots [{amount, eligible}] (snapshot, board event), null: unknown
    potTotal: 0, // every chip in the middle: pots + bets
    folded: new Set(),
    dead: new Set(), // seats absent at the deal: a dead hand, not dealt in
    allin: new Set(),
    cards: {}, // seat -> [] face down, or the cards shown
    hole: [], // our cards: two, five at five-card draw
    game: "holdem", // "draw": five-card draw (draw.js), and its structure
    structure: "no_limit",
    drew: {}, // seat -> cards drawn this hand (0: stood pat)
    drawPhase: false, // the draw is underway (or done) in this hand
    discard: [], // our cards marked to throw away, at our draw
    received: [], // the cards our draw brought
    awards: [], // pot events of this hand
    turn: null, // our options (turn, or the snapshot's menu) and their decision key
    turnNo: 0, // counts our decisions (for people and tests following the page)
    acted: null, // {key, id}: the decision we answered, and the act's id
    toAct: null,
    clock: null, // {seat, kind, deadline, total}
    thinkStart: 0, // when the player to act started thinking (performance.now())
    timeCalled: false,
    timeCall: null, // {seat, by, countdownMs}: the Time called on the player to act
    cut: null, // {seat, deadline}
    ruling: null, // {make, until}
    pre: null, // {kind, status: "sent" | "recorded", id}
    tray: [],
    showable: false,
    bustedMe: false, // our seat busted at this table: sit again or leave
    proofs: name ? loadJSON(KEY.proofs(name), {}) : {},
    hands: name ? loadJSON(KEY.hands(name), []) : [],
    log: [], // [kind, msg] of the log's lines
  };
}

// The member's session kept by this browser (docs/accounts.md), or null.
function savedMember() {
  const m = loadJSON(KEY.member, null);
  return m && typeof m.token === "string" && m.token && typeof m.display === "string" ? m : null;
}

const MEMBER = savedMember();

const state = {
  mode: TOURNAMENT ? "tournament" : TABLE ? "table" : LEAGUE ? "league" : "lobby",
  table: TABLE, // the table shown (in a tournament: ours, or one watched)
  invite: TABLE ? params.get("invite") || "" : "",
  lang: browserLang(),
  // the name at the tables: a member's display name, else the nickname typed
  nick: MEMBER ? MEMBER.display : localStorage.getItem(KEY.nick) || "",
  member: MEMBER, // {token, member, login, display, lang}: the session (account.js)
  // the account panel: shown or not, the form shown when logged out, the last refusal
  // ({code, message}), a word key to say (a saved profile), a request on its way
  account: { open: false, view: "login", error: null, note: "", busy: false },
  mute: localStorage.getItem(KEY.mute) === "1",
  status: "",
  error: "", // the last refusal or problem, shown near the controls
  // memberSent: the session token the last hello on the page's connection carried
  net: { ws: null, stopped: false, retry: 0, usingSeatToken: false, nextId: 1, url: "", memberSent: "" },
  t: freshTable(TABLE),
  tour: {
    id: TOURNAMENT,
    director: TOURNAMENT ? params.get("director") || "" : "",
    state: null, // the last `tournament` state (docs/protocol.md)
    at: 0, // when it came (performance.now()): the level clock counts down from there
    mine: TOURNAMENT ? loadJSON(KEY.tournament(TOURNAMENT), null) : null, // {token, player}
    myTable: null,
    mySeat: null,
    watching: null,
    lastMove: null,
    moves: {},
    pending: {}, // request id -> op
    folded: null,
  },
  lobby: { tournaments: null, created: null, league: null }, // league: {league, name, link} made here
  // the league page (league.js): the `league` message as this member sees it, each season's
  // standings (GET .../standings.json), the invite of the link to join with, the session
  // token the page last asked with, a word key saying why nothing shows, a welcome, the cash
  // table a director opened ({table, name, link}), a refresh on its way, the session token
  // the member's leagues were last listed with (league_list)
  league: {
    id: LEAGUE,
    join: LEAGUE ? params.get("join") || "" : "",
    data: null,
    standings: {},
    askedWith: "",
    problem: "",
    note: "",
    cash: null,
    refreshing: false,
    listedFor: "",
  },
  // the room of the cash table shown (GET /api/tables/<t>/room): its tables, the last one
  // the host added, whether the page is fetching it, the table we asked the host to change
  // to (and the command's id, whose refusal clears it)
  room: { for: "", room: "", tables: [], loading: false, at: 0, created: null, asked: "", askId: null },
  ui: { wasMyTurn: false, drawn: {}, amountFor: null },
};

const listeners = new Set();
let queued = false;

function flush() {
  queued = false;
  for (const listener of listeners) listener(state);
}

// One drawing per frame, however many messages came (a busy tournament table sends dozens a
// second); a hidden page draws when it is shown again.
const schedule = typeof requestAnimationFrame === "function" ? requestAnimationFrame : queueMicrotask;

export const store = {
  state,
  // Change the state (fn gets it), then redraw the views once.
  update(fn) {
    const result = fn ? fn(state) : undefined;
    if (!queued) {
      queued = true;
      schedule(flush);
    }
    return result;
  },
  // The same, drawn at once: what a person just did shows before the next event.
  now(fn) {
    const result = fn ? fn(state) : undefined;
    flush();
    return result;
  },
  subscribe(listener) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
