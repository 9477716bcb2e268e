// Brasseur browser table: one table, friends mode. Plain ES module, no build step.
// The wire protocol is described in docs/protocol.md (msgpack maps over a binary websocket).
import { decode, encode } from "./vendor/msgpack/dist.esm/index.mjs";

const PROTOCOL_VERSION = 1;

// ------------------------------------------------------------------ words (FR / EN)

const WORDS = {
  en: {
    nickname: "Nickname",
    ok: "OK",
    connecting: "connecting…",
    connected: "connected",
    offline: "offline: reconnecting…",
    stopped: "disconnected",
    watching: "You are watching (spectators see the table one hand behind).",
    seat: "Seat",
    free: "free",
    sitHere: "sit here",
    you: "you",
    button: "D",
    folded: "folded",
    allin: "all-in",
    away: "disconnected",
    sittingOut: "sitting out",
    bet: "bet",
    pot: "Pot",
    toAct: "To act",
    yourTurn: "Your turn",
    waiting: "Waiting for players…",
    handNo: "Hand",
    fold: "fold",
    check: "check",
    call: "call",
    raiseTo: "raise to",
    betTo: "bet",
    timeBank: "time bank",
    callTime: "call the Time",
    cut: "cut the deck",
    sitOut: "sit out",
    sitIn: "sit back in",
    chat: "send",
    log: "Log",
    yourCards: "Your cards",
    noInvite: "This page needs the table's invite link (…/?table=NAME&invite=TOKEN).",
    noTable: "No table in the link (…/?table=NAME&invite=TOKEN).",
    replaced: "This seat was opened in another window.",
    seatTokenRefused: "Your seat could not be reopened",
    record: "hand record",
    cancelled: "hand cancelled, every bet returned",
    shows: "shows",
    wins: "wins",
    mainPot: "main pot",
    sidePot: "side pot",
    says: "says",
    clockTime: "the Time is called on",
    clockBank: "time bank for",
    cutPrompt: "is to cut the deck",
    newHand: "Hand #%n — button seat %b",
    seated: "sits at seat",
    busted: "is out of chips",
    sec: "s",
    actions: {
      post_sb: "posts the small blind",
      post_bb: "posts the big blind",
      post_ante: "posts the ante",
      fold: "fold",
      check: "check",
      call: "call",
      bet: "bet",
      raise: "raise to",
      allin: "all-in, to",
      pending: "pending",
      dead_hand: "dead hand",
      returned: "gets back",
      muck: "mucks",
    },
    status: {
      connected: "is back",
      disconnected: "is disconnected",
      sitting_out: "sits out",
      sitting_in: "sits back in",
    },
    streets: { flop: "Flop", turn: "Turn", river: "River" },
  },
  fr: {
    nickname: "Pseudo",
    ok: "OK",
    connecting: "connexion…",
    connected: "connecté",
    offline: "hors ligne : reconnexion…",
    stopped: "déconnecté",
    watching: "Vous regardez la table (les spectateurs ont une main de retard).",
    seat: "Siège",
    free: "libre",
    sitHere: "s'asseoir ici",
    you: "vous",
    button: "D",
    folded: "couché",
    allin: "tapis",
    away: "déconnecté",
    sittingOut: "absent",
    bet: "mise",
    pot: "Pot",
    toAct: "À parler",
    yourTurn: "À vous",
    waiting: "En attente de joueurs…",
    handNo: "Main",
    fold: "passer",
    check: "parole",
    call: "suivre",
    raiseTo: "relancer à",
    betTo: "miser",
    timeBank: "banque de temps",
    callTime: "demander le Time",
    cut: "couper le paquet",
    sitOut: "s'absenter",
    sitIn: "revenir",
    chat: "envoyer",
    log: "Journal",
    yourCards: "Vos cartes",
    noInvite: "Cette page a besoin du lien d'invitation de la table (…/?table=NOM&invite=JETON).",
    noTable: "Pas de table dans le lien (…/?table=NOM&invite=JETON).",
    replaced: "Ce siège a été ouvert dans une autre fenêtre.",
    seatTokenRefused: "Votre siège n'a pas pu être rouvert",
    record: "historique de la main",
    cancelled: "main annulée, toutes les mises rendues",
    shows: "montre",
    wins: "gagne",
    mainPot: "pot principal",
    sidePot: "pot annexe",
    says: "dit",
    clockTime: "le Time est demandé sur",
    clockBank: "banque de temps pour",
    cutPrompt: "doit couper le paquet",
    newHand: "Main n° %n — bouton au siège %b",
    seated: "s'assied au siège",
    busted: "n'a plus de jetons",
    sec: "s",
    actions: {
      post_sb: "paie la petite blinde",
      post_bb: "paie la grosse blinde",
      post_ante: "paie l'ante",
      fold: "passe",
      check: "parole",
      call: "suit",
      bet: "mise",
      raise: "relance à",
      allin: "tapis, à",
      pending: "en attente",
      dead_hand: "main morte",
      returned: "récupère",
      muck: "jette ses cartes",
    },
    status: {
      connected: "est de retour",
      disconnected: "est déconnecté",
      sitting_out: "s'absente",
      sitting_in: "revient",
    },
    streets: { flop: "Flop", turn: "Turn", river: "River" },
  },
};

const params = new URLSearchParams(location.search);
const TABLE = params.get("table") || "";
const SEAT_KEY = `brasseur.seat.${TABLE}`;
let lang = localStorage.getItem("brasseur.lang") ||
  ((navigator.language || "").toLowerCase().startsWith("fr") ? "fr" : "en");
const t = (key) => WORDS[lang][key] ?? WORDS.en[key] ?? key;

// ------------------------------------------------------------------ state

const S = {
  invite: params.get("invite") || "",
  nick: localStorage.getItem("brasseur.nick") || "",
  ws: null,
  stopped: false, // no automatic reconnection (replaced, no invite...)
  retry: 0,
  usingSeatToken: false,
  nextId: 1,
  synced: false, // a snapshot was applied on this page
  resyncing: false,
  seq: 0, // last table event applied
  config: null, // name, profile, blinds [sb, bb, ante], max_seats, denominations
  you: null, // our seat, or null when watching
  seats: {}, // seat -> {player, stack, connected, sittingOut, wasHere}
  hand: 0,
  button: null,
  dealt: new Set(), // seats dealt in this hand
  board: [],
  bets: {}, // seat -> chips committed in this betting round
  folded: new Set(),
  allin: new Set(),
  cards: {}, // seat -> [] face down, or the cards shown
  hole: [],
  pot: 0,
  turn: null, // our legal options (a "turn" message, or the snapshot's menu)
  toAct: null,
  clock: null, // {seat, deadline, kind, countdownMs}
  cut: null, // {seat, deadline}
  inHand: false,
};

// ------------------------------------------------------------------ small helpers

const $ = (id) => document.getElementById(id);

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

const SUITS = { s: "♠", h: "♥", d: "♦", c: "♣" };

function cardNode(card) {
  if (!card) return el("span", "card back", "🂠");
  const rank = card[0] === "T" ? "10" : card[0];
  const suit = card[1];
  return el("span", `card ${suit === "h" || suit === "d" ? "red" : ""}`, rank + SUITS[suit]);
}

function cardsText(cards) {
  return cards.map((c) => (c[0] === "T" ? "10" : c[0]) + SUITS[c[1]]).join(" ");
}

function nameOf(seat) {
  if (seat === null || seat === undefined) return "?";
  const s = S.seats[seat];
  return s ? s.player : `${t("seat")} ${seat}`;
}

const fmt = (n) => Number(n).toLocaleString(lang === "fr" ? "fr-FR" : "en-US");

// ------------------------------------------------------------------ connection

function send(message) {
  if (!S.ws || S.ws.readyState !== WebSocket.OPEN) return false;
  S.ws.send(encode(message, { ignoreUndefined: true }));
  return true;
}

function command(t_, fields) {
  return send({ t: t_, table: TABLE, id: S.nextId++, ...fields });
}

function connect() {
  if (S.stopped || !S.nick) return;
  setStatus(t("connecting"));
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${scheme}//${location.host}/ws`);
  ws.binaryType = "arraybuffer";
  S.ws = ws;
  ws.onopen = () => {
    S.retry = 0;
    setStatus(t("connected"));
    const seatToken = localStorage.getItem(SEAT_KEY);
    S.usingSeatToken = Boolean(seatToken);
    send({ t: "hello", version: PROTOCOL_VERSION, nickname: S.nick, token: seatToken || S.invite || undefined });
    // with a seat token the hello already brings us back to our seat with a snapshot;
    // join(last_seq) then replays what we missed (duplicates are dropped by seq)
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
  };
  ws.onclose = () => {
    if (ws !== S.ws) return;
    S.ws = null;
    if (S.stopped) {
      setStatus(t("stopped"));
      return;
    }
    setStatus(t("offline"));
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
  if (msg.table !== undefined && msg.table !== TABLE) return;
  if (msg.t === "snapshot") {
    applySnapshot(msg);
    return;
  }
  if (msg.seq !== undefined) {
    if (!S.synced || msg.seq <= S.seq) return; // before our snapshot, or a replay we have
    if (msg.seq > S.seq + 1) {
      // a gap: ask for what we missed (events, or a snapshot) and drop until it comes
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

const PRIVATE = {
  welcome() {},
  pong() {},
  hole_proof() {}, // openings of our hole cards, checkable against the commitment (fairness.md)
  turn(msg) {
    // our legal options, computed by the server: never re-implement the rules here
    if (msg.hand !== S.hand) return;
    S.turn = msg;
    S.toAct = msg.seat;
    if (!S.clock || S.clock.seat !== msg.seat) {
      S.clock = { seat: msg.seat, kind: "action", deadline: performance.now() + msg.remaining_ms, countdownMs: 0 };
    }
  },
  seated(msg) {
    S.you = msg.seat;
    localStorage.setItem(SEAT_KEY, msg.token); // it rotates at every login: keep the newest
  },
  notice(msg) {
    addLog(`⚑ ${msg.text}${msg.rule ? ` (${msg.rule})` : ""}`, "notice");
  },
  error(msg) {
    const code = msg.code;
    if (S.usingSeatToken && ["token_replayed", "token_expired", "bad_token"].includes(code)) {
      // the stored seat token is spent: forget it and come back with the invite
      localStorage.removeItem(SEAT_KEY);
      S.usingSeatToken = false;
      S.you = null;
      showError(`${t("seatTokenRefused")}: ${code} — ${msg.message}`);
      reconnectNow();
      return;
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
    showError(`${code}: ${msg.message}${msg.rule ? ` (${msg.rule})` : ""}`);
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
    max_seats: st.max_seats,
    denominations: st.denominations,
  };
  S.you = st.you ?? null;
  S.hand = st.hand;
  S.button = st.button ?? null;
  S.seats = {};
  for (const s of st.seats) {
    S.seats[s.seat] = {
      player: s.player,
      stack: s.stack,
      connected: s.connected,
      sittingOut: s.sitting_out,
      wasHere: s.connected, // to log "is back" only after a disconnection
    };
  }
  S.inHand = st.phase === "betting" || st.phase === "showdown" || st.phase === "cut";
  S.board = st.board || [];
  S.bets = {};
  for (const [seat, amount] of Object.entries(st.bets || {})) S.bets[Number(seat)] = amount;
  S.folded = new Set(st.folded || []);
  S.allin = new Set();
  S.dealt = new Set(Object.keys(st.bets || {}).map(Number));
  S.cards = {};
  for (const seat of S.dealt) {
    S.cards[seat] = [];
    if (S.seats[seat] && S.seats[seat].stack === 0) S.allin.add(seat);
  }
  for (const [seat, cards] of Object.entries(st.shown || {})) S.cards[Number(seat)] = cards;
  S.hole = st.hole || [];
  const bets = Object.values(S.bets).sort((a, b) => b - a);
  // pots as the server sees them leave out a bet nobody called yet: add it back
  const uncalled = bets.length > 1 ? bets[0] - bets[1] : bets[0] || 0;
  S.pot = (st.pots || []).reduce((sum, p) => sum + p.amount, 0) + (st.pots ? uncalled : 0);
  S.toAct = st.to_act ?? null;
  S.turn = st.menu ? { ...st.menu, seat: S.you, hand: st.hand } : null;
  S.clock = null; // the snapshot does not say how long is left
  S.cut = null;
  $("title").textContent = st.name;
  $("info").textContent = `${st.profile} · ${st.blinds[0]}/${st.blinds[1]}` +
    (st.blinds[2] ? ` (ante ${st.blinds[2]})` : "");
}

// Table events, in seq order.
const EVENTS = {
  seat(msg) {
    const known = S.seats[msg.seat];
    if (msg.status === "busted") {
      addLog(`${msg.player} ${t("busted")}`);
      delete S.seats[msg.seat];
      return;
    }
    const s = known || { player: msg.player, stack: msg.stack, connected: false, sittingOut: false };
    const wasAway = Boolean(known) && known.wasHere && !known.connected;
    s.player = msg.player;
    s.stack = msg.stack;
    if (msg.status === "connected") s.connected = s.wasHere = true;
    if (msg.status === "disconnected") {
      s.connected = false;
      s.wasHere = true;
    }
    if (msg.status === "sitting_out") s.sittingOut = true;
    if (msg.status === "sitting_in") s.sittingOut = false;
    S.seats[msg.seat] = s;
    if (msg.status === "seated") addLog(`${msg.player} ${t("seated")} ${msg.seat}`);
    else if (msg.status !== "connected" || wasAway) {
      addLog(`${msg.player} ${WORDS[lang].status[msg.status] || msg.status}`);
    }
  },

  hand_start(msg) {
    S.hand = msg.hand;
    S.button = msg.button;
    S.inHand = true;
    S.dealt = new Set(Object.keys(msg.stacks).map(Number));
    for (const [seat, stack] of Object.entries(msg.stacks)) {
      if (S.seats[seat]) S.seats[seat].stack = stack;
    }
    S.board = [];
    S.bets = {};
    S.folded = new Set();
    S.allin = new Set();
    S.cards = {};
    S.hole = [];
    S.pot = 0;
    S.turn = null;
    S.toAct = null;
    S.clock = null;
    S.cut = null;
    addLog(t("newHand").replace("%n", msg.hand).replace("%b", msg.button), "hand");
  },

  cut_prompt(msg) {
    S.cut = { seat: msg.seat, deadline: performance.now() + msg.deadline_ms };
    addLog(`${nameOf(msg.seat)} ${t("cutPrompt")}`);
  },

  hole(msg) {
    S.cut = null;
    S.cards[msg.seat] = [];
    if (msg.cards.length && msg.seat === S.you) S.hole = msg.cards;
  },

  action(msg) {
    const seat = msg.seat;
    const a = msg.action;
    if (S.seats[seat]) S.seats[seat].stack = msg.stack;
    if (a === "returned") {
      S.pot -= msg.added;
      S.bets[seat] = Math.max(0, (S.bets[seat] || 0) - msg.added);
    } else {
      S.pot += msg.added;
      if (a !== "post_ante" && a !== "muck" && a !== "dead_hand") S.bets[seat] = msg.to;
    }
    if (a === "fold" || a === "dead_hand") S.folded.add(seat);
    if (msg.allin) S.allin.add(seat);
    if (seat === S.toAct && !["pending", "post_sb", "post_bb", "post_ante", "returned"].includes(a)) {
      S.toAct = null; // the next clock_event says who speaks next
      if (seat === S.you) S.turn = null;
    }
    addLog(describeAction(msg), a === "returned" ? "" : "act");
  },

  board(msg) {
    S.board = S.board.concat(msg.cards);
    S.bets = {};
    addLog(`${WORDS[lang].streets[msg.street] || msg.street}: ${cardsText(msg.cards)}`, "hand");
  },

  shown(msg) {
    S.cards[msg.seat] = msg.cards;
    addLog(`${nameOf(msg.seat)} ${t("shows")} ${cardsText(msg.cards)}${msg.rank ? ` (${msg.rank})` : ""}`);
  },

  pot(msg) {
    S.pot -= msg.amount;
    const which = msg.index === 0 ? t("mainPot") : `${t("sidePot")} ${msg.index}`;
    const won = msg.winners.map((w, i) => `${nameOf(w)} ${t("wins")} ${fmt(msg.shares[i])}`);
    addLog(`${which} ${fmt(msg.amount)}: ${won.join(", ")}`, "win");
  },

  hand_end(msg) {
    for (const [seat, stack] of Object.entries(msg.stacks)) {
      if (S.seats[seat]) S.seats[seat].stack = stack;
    }
    S.inHand = false;
    S.toAct = null;
    S.turn = null;
    S.clock = null;
    S.cut = null;
    S.bets = {};
    S.pot = 0;
    if (msg.cancelled) addLog(`${t("handNo")} ${msg.hand}: ${t("cancelled")}`, "hand");
    if (msg.record && S.invite) {
      addLog(`${t("handNo")} ${msg.hand}: `, "hand", `${msg.record}?t=${encodeURIComponent(S.invite)}`);
    }
  },

  clock_event(msg) {
    S.toAct = msg.seat;
    S.clock = {
      seat: msg.seat,
      kind: msg.kind,
      deadline: performance.now() + msg.remaining_ms,
      countdownMs: msg.countdown_ms,
    };
    if (msg.kind === "time") {
      addLog(`${t("clockTime")} ${nameOf(msg.seat)}: ${Math.round(msg.remaining_ms / 1000)} ${t("sec")}`, "notice");
    } else if (msg.kind === "bank") {
      addLog(`${t("clockBank")} ${nameOf(msg.seat)}: ${Math.round(msg.remaining_ms / 1000)} ${t("sec")}`);
    }
  },

  chat_event(msg) {
    addLog(`${msg.player} ${t("says")}: ${msg.text}`, "chat");
  },
};

function describeAction(msg) {
  const words = WORDS[lang].actions;
  let text = `${nameOf(msg.seat)}: ${words[msg.action] || msg.action}`;
  if (["post_sb", "post_bb", "post_ante", "returned"].includes(msg.action)) text += ` ${fmt(msg.added)}`;
  else if (["call", "bet", "raise", "allin"].includes(msg.action)) text += ` ${fmt(msg.to)}`;
  else if (msg.action === "pending" && msg.added) text += ` (${fmt(msg.added)})`;
  const why = [msg.rule, msg.note].filter(Boolean).join(": ");
  return why ? `${text} — ${why}` : text;
}

// ------------------------------------------------------------------ the player's choices

function myChoices() {
  const turn = S.turn;
  if (!turn || !S.inHand || turn.hand !== S.hand || S.toAct !== S.you) return null;
  return turn;
}

// someone has bet in this round (blinds included): our amount is a raise, not a bet
const betFacing = () => Object.values(S.bets).some((b) => b > 0);

function act(verb, amount) {
  command("act", { hand: S.hand, verb, amount });
}

// ------------------------------------------------------------------ rendering

let wasMyTurn = false;

function render() {
  const cfg = S.config;
  document.documentElement.lang = lang;
  $("lang").textContent = lang === "fr" ? "EN" : "FR";
  $("nick-label").textContent = t("nickname");
  $("nick-ok").textContent = t("ok");
  $("log-title").textContent = t("log");
  $("chat-send").textContent = t("chat");
  $("nick-form").hidden = Boolean(S.nick) && S.you !== null;

  // seats
  const seats = $("seats");
  seats.replaceChildren();
  const max = cfg ? cfg.max_seats : 0;
  for (let n = 1; n <= max; n++) seats.append(seatNode(n));

  // center
  const board = $("board");
  board.replaceChildren(...S.board.map(cardNode));
  $("pot").textContent = S.inHand || S.pot ? `${t("pot")}: ${fmt(S.pot)}` : "";
  let turn = "";
  if (!cfg) turn = "";
  else if (S.toAct !== null && S.inHand) {
    turn = S.toAct === S.you ? t("yourTurn") : `${t("toAct")}: ${nameOf(S.toAct)}`;
  } else if (!S.inHand) turn = t("waiting");
  $("turn").textContent = turn;
  $("turn").classList.toggle("mine", S.toAct === S.you && S.inHand);

  // me
  $("me-label").textContent = S.you === null ? (cfg ? t("watching") : "") : `${t("yourCards")}:`;
  $("hole").replaceChildren(...S.hole.map(cardNode));

  const choices = myChoices();
  $("actions").hidden = !choices;
  if (choices) {
    const c = choices;
    $("fold").textContent = t("fold");
    $("check").textContent = t("check");
    $("call").textContent = `${t("call")} ${fmt(c.call)}`;
    $("raise").textContent = betFacing() ? t("raiseTo") : t("betTo");
    $("bank").textContent = t("timeBank");
    $("fold").hidden = !c.can_fold;
    $("check").hidden = !c.can_check;
    $("call").hidden = c.can_check || c.pending === "amount";
    $("raise").hidden = !c.can_raise;
    $("amount").hidden = !c.can_raise;
    if (c.can_raise) {
      $("amount").min = c.min_raise_to;
      $("amount").max = c.max_raise_to;
      if (!wasMyTurn || !$("amount").value) $("amount").value = c.min_raise_to;
    }
  }
  wasMyTurn = Boolean(choices);

  const cutMine = S.cut && S.cut.seat === S.you;
  $("cut").hidden = !cutMine;
  $("cut").textContent = t("cut");
  const someoneThinks = S.inHand && S.toAct !== null && S.you !== null && S.toAct !== S.you;
  $("time").hidden = !someoneThinks;
  $("time").textContent = t("callTime");
  $("sitout").hidden = S.you === null;
  const meSeat = S.seats[S.you];
  $("sitout").textContent = meSeat && meSeat.sittingOut ? t("sitIn") : t("sitOut");
  tick();
}

function seatNode(n) {
  const s = S.seats[n];
  const box = el("div", "seat");
  const head = el("div", "seat-head");
  head.append(el("span", "seat-no", `${t("seat")} ${n}`));
  if (S.button === n) head.append(el("span", "dealer", t("button")));
  box.append(head);
  if (!s) {
    box.classList.add("free");
    box.append(el("div", "muted", t("free")));
    if (S.you === null && S.config) {
      const b = el("button", "sit", t("sitHere"));
      b.type = "button";
      b.addEventListener("click", () => sit(n));
      box.append(b);
    }
    return box;
  }
  if (n === S.you) box.classList.add("you");
  if (n === S.toAct && S.inHand) box.classList.add("acting");
  if (S.folded.has(n)) box.classList.add("folded");
  box.append(el("div", "player", s.player + (n === S.you ? ` (${t("you")})` : "")));
  box.append(el("div", "stack", fmt(s.stack)));
  const tags = [];
  if (S.allin.has(n)) tags.push(t("allin"));
  if (S.folded.has(n)) tags.push(t("folded"));
  if (!s.connected) tags.push(t("away"));
  if (s.sittingOut) tags.push(t("sittingOut"));
  if (tags.length) box.append(el("div", "tags", tags.join(" · ")));
  if (S.bets[n]) box.append(el("div", "bet", `${t("bet")} ${fmt(S.bets[n])}`));
  const cards = S.cards[n];
  if (cards && !S.folded.has(n)) {
    const row = el("div", "cards small");
    if (cards.length) row.append(...cards.map(cardNode));
    else if (n !== S.you) row.append(cardNode(null), cardNode(null));
    box.append(row);
  }
  if (n === S.toAct && S.inHand) box.append(el("div", "timer", ""));
  return box;
}

// the countdown, redrawn four times a second without rebuilding the page
function tick() {
  let text = "";
  let urgent = false;
  const c = S.clock;
  if (S.inHand && S.toAct !== null && c && c.seat === S.toAct) {
    const left = Math.max(0, c.deadline - performance.now());
    text = `${Math.ceil(left / 1000)} ${t("sec")}`;
    urgent = c.kind === "time" || left <= 5000;
  } else if (S.cut) {
    text = `${Math.ceil(Math.max(0, S.cut.deadline - performance.now()) / 1000)} ${t("sec")}`;
  }
  for (const node of document.querySelectorAll(".timer")) {
    node.textContent = text;
    node.classList.toggle("urgent", urgent);
  }
}
setInterval(tick, 250);

// ------------------------------------------------------------------ log and errors

function addLog(text, cls = "", link = "") {
  const item = el("li", cls, text);
  if (link) {
    const a = el("a", "", t("record"));
    a.href = link;
    a.target = "_blank";
    a.rel = "noopener";
    item.append(a);
  }
  const log = $("log");
  log.append(item);
  while (log.children.length > 300) log.firstChild.remove();
  log.scrollTop = log.scrollHeight;
}

function showError(text) {
  $("error-text").textContent = text;
  $("error").hidden = false;
}

function setStatus(text) {
  $("status").textContent = text;
}

// ------------------------------------------------------------------ user input

function sit(seat) {
  if (!S.invite) {
    showError(t("noInvite"));
    return;
  }
  command("sit", { seat, token: S.invite });
}

$("fold").addEventListener("click", () => act("fold"));
$("check").addEventListener("click", () => act("check"));
$("call").addEventListener("click", () => act("call"));
$("raise").addEventListener("click", () => {
  const amount = Math.floor(Number($("amount").value));
  if (!(amount > 0)) {
    showError(`${t("raiseTo")}: ?`);
    return;
  }
  // a declaration "raise to N" (form total): the amount is the total of the round
  act(betFacing() ? "raise" : "bet", amount);
});
$("bank").addEventListener("click", () => command("timebank", { hand: S.hand }));
$("time").addEventListener("click", () => command("clock", { hand: S.hand }));
$("cut").addEventListener("click", () => {
  const position = crypto.getRandomValues(new Uint32Array(1))[0] % 52;
  command("cut", { hand: S.hand, position });
});
$("sitout").addEventListener("click", () => {
  const me = S.seats[S.you];
  command(me && me.sittingOut ? "sitin" : "sitout", {});
});
$("chat-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = $("chat").value.trim();
  if (text && command("chat", { text: text.slice(0, 500) })) $("chat").value = "";
});
$("error-close").addEventListener("click", () => {
  $("error").hidden = true;
});
$("lang").addEventListener("click", () => {
  lang = lang === "fr" ? "en" : "fr";
  localStorage.setItem("brasseur.lang", lang);
  render();
});
$("nick-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const nick = $("nick").value.trim().slice(0, 32);
  if (!nick) return;
  const changed = nick !== S.nick;
  S.nick = nick;
  localStorage.setItem("brasseur.nick", nick);
  render();
  // the server takes the nickname from hello: say hello again if it changed
  if (!S.ws || changed) reconnectNow();
});

// ------------------------------------------------------------------ start

$("nick").value = S.nick;
render();
if (!TABLE) {
  showError(t("noTable"));
} else if (!S.invite && !localStorage.getItem(SEAT_KEY)) {
  showError(t("noInvite"));
} else if (S.nick) {
  connect();
} else {
  $("nick").focus();
}
