// A tournament: its clock and numbers in one or two lines above the table, the player's table
// followed through every move (the server attaches the connection to the new seat), a table
// watched by clicking it, the lists (tables, payouts, results, registered), and the player's
// way in and out: register (also late), rebuy, re-enter, abandon.
import { identityRefusal } from "./account.js";
import { handleTableMessage, refusal, tableHooks } from "./client.js";
import { $, button, el } from "./dom.js";
import { errorText, fmt, lang, t, tableLabel, words } from "./i18n.js";
import { movedText, restoreLog, say } from "./log.js";
import { nextId, reconnectNow, sayHello, send, wsUrl } from "./net.js";
import { KEY, freshTable, saveJSON, store } from "./store.js";
import { tickTournament } from "./tournament_clock.js";
import { badgeNode, changed, showError } from "./ui.js";

// A tournament-level request (register, follow, direct...): its id tells which op an error is for.
export function tsend(type, op, fields) {
  const s = store.state;
  const id = nextId();
  const ids = Object.keys(s.tour.pending);
  if (ids.length > 100) delete s.tour.pending[ids[0]];
  s.tour.pending[id] = op;
  return send({ t: type, tournament: s.tour.id, id, ...fields }) ? id : null;
}

export const tournamentHooks = () => tableHooks({ open: tournamentHello, message: tournamentMessage });

function tournamentHello() {
  const s = store.state;
  const T = s.tour;
  sayHello({ nickname: s.nick || undefined });
  // the director's page watches (it never takes over the seat of a player in this browser)
  tsend("follow", "follow", { token: T.director ? undefined : T.mine?.token });
  if (T.watching) joinTable(T.watching);
  if (!T.director && !T.mine && sessionStorage.getItem(KEY.register(T.id))) registerNow();
}

export function registerNow() {
  const s = store.state;
  sessionStorage.setItem(KEY.register(s.tour.id), "1");
  if (!s.nick) {
    $("nick-form").hidden = false;
    $("nick").focus();
    showError(t("nickFirst"));
    return;
  }
  if (!s.net.ws || s.net.ws.readyState !== WebSocket.OPEN) return; // done when the connection opens
  sessionStorage.removeItem(KEY.register(s.tour.id));
  // the server registers the hello nickname: say it again (it may have been typed just now)
  sayHello({ nickname: s.nick });
  tsend("register", "register", {});
}

// Ask for a table's snapshot (and its events from then on).
function joinTable(table, lastSeq) {
  const id = nextId();
  store.state.tour.pending[id] = "watch";
  send({ t: "join", table, id, last_seq: lastSeq });
}

// Show another table ("": none): a fresh view of it. A move needs no join: the server
// attaches our connection to the new seat and sends the snapshot itself.
function showTable(name, joining) {
  const s = store.state;
  if (name !== s.table) {
    const turnNo = s.t.turnNo;
    s.table = name;
    s.t = freshTable(name);
    s.t.turnNo = turnNo;
    s.t.log = restoreLog(name);
    s.ui.wasMyTurn = false;
    if ($("history").open) $("history").close();
  }
  if (joining && name) joinTable(name);
}

function stopWatching() {
  const T = store.state.tour;
  if (T.watching && T.watching !== T.myTable) send({ t: "leave", table: T.watching });
  T.watching = null;
}

function watchTable(name) {
  store.update((s) => {
    const T = s.tour;
    if (name === T.myTable) backToMyTable();
    else if (name !== T.watching) {
      stopWatching();
      T.watching = name;
      showTable(name, true);
    }
  });
}

function backToMyTable() {
  store.update((s) => {
    if (!s.tour.myTable) return;
    stopWatching();
    showTable(s.tour.myTable, true);
  });
}

function onState(st) {
  const s = store.state;
  const T = s.tour;
  if (st.folded) {
    T.folded = st.folded;
    return;
  }
  T.state = st;
  T.at = performance.now();
  const you = st.you;
  learnName(T, st);
  const open = new Set((st.tables || []).map(([table]) => table));
  if (T.myTable && you && !you.table) {
    // out of the tournament: the table we played at stays on screen, as a spectator
    T.myTable = null;
    T.mySeat = null;
    T.watching = s.table && open.has(s.table) ? s.table : null;
    if (T.watching) joinTable(s.table, s.t.synced ? s.t.seq : undefined);
    else showTable("", false);
  }
  if (T.watching && !open.has(T.watching)) {
    // the table we watched was broken or closed: back to ours, if we play
    T.watching = null;
    showTable(T.myTable || "", Boolean(T.myTable));
  }
}

// Our name as the tournament lists it (the results name players, not ids): from the list of
// seated players, kept with the registration.
function learnName(T, st) {
  if (!T.mine) return;
  const row = (st.players || []).find(([pid]) => pid === T.mine.player);
  if (row && row[1] !== T.mine.name) {
    T.mine = { ...T.mine, name: row[1] };
    saveJSON(KEY.tournament(T.id), T.mine);
  }
}

// Our row of the results ([place, name, prize, points]), when they are out and name us once
// (a registration kept from an older page has no name: the nickname it was made with).
function myResult(T, st) {
  const name = T.mine && (T.mine.name || store.state.nick);
  if (!name) return null;
  const rows = ((st && st.results) || []).filter((row) => row[1] === name);
  return rows.length === 1 ? rows[0] : null;
}

function ordinal(n) {
  if (lang() === "fr") return n === 1 ? "1er" : `${n}e`;
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th";
  return `${n}${suffix}`;
}

function onMoved(msg) {
  const s = store.state;
  const T = s.tour;
  // a seat answers our registration, rebuy or re-entry: the request is done
  for (const [id, op] of Object.entries(T.pending)) {
    if (["register", "rebuy", "reenter"].includes(op)) delete T.pending[id];
  }
  if (msg.url && msg.url !== (s.net.url || wsUrl())) {
    // our new table runs on another server: follow again there with our token
    s.net.url = msg.url;
    reconnectNow(tournamentHooks());
    return;
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
}

// Messages of the tournament (and our turn at our table while we watch another).
function tournamentMessage(msg) {
  const s = store.state;
  const T = s.tour;
  if (msg.tournament !== undefined && msg.tournament !== T.id) return;
  if (msg.t === "registered") {
    delete T.pending[msg.ref];
    // the name the results will give (the hello nickname: the server registers it)
    T.mine = { token: msg.token, player: msg.player, name: s.nick };
    saveJSON(KEY.tournament(T.id), T.mine);
    sessionStorage.removeItem(KEY.register(T.id));
  } else if (msg.t === "tournament") onState(msg.state || {});
  else if (msg.t === "moved") onMoved(msg);
  else if (msg.t === "turn" && T.myTable && msg.table === T.myTable && s.table !== T.myTable) {
    backToMyTable(); // our turn came while we watched another table: its snapshot has our options
  } else if (identityRefusal(msg)) return;
  else if (msg.t === "error") tournamentError(msg);
  else handleTableMessage(msg);
}

function tournamentError(msg) {
  const s = store.state;
  const T = s.tour;
  const code = msg.code;
  const op = msg.ref !== undefined && msg.ref !== null ? T.pending[msg.ref] : undefined;
  if (op) delete T.pending[msg.ref];
  if (code === "replaced") {
    s.net.stopped = true;
    showError(t("replaced"));
    return;
  }
  if (op === "watch" && code === "unknown_table") {
    // the table closed before we could watch it (broken, or the tournament is over)
    if (T.watching && s.table === T.watching) {
      T.watching = null;
      showTable(T.myTable || "", Boolean(T.myTable));
    }
    return;
  }
  if (op === "follow" && T.mine && ["bad_token", "token_expired", "token_replayed"].includes(code)) {
    // our registration is not valid on this server any more: watch the tournament
    localStorage.removeItem(KEY.tournament(T.id));
    T.mine = null;
    showError(`${t("seatTokenRefused")}: ${errorText(code, msg.message, s.lang)}`);
    tsend("follow", "follow", {});
    return;
  }
  if (op === "spectators") delete s.ui.drawn["d-rail"]; // the console shows the rail as it is
  if (op && op !== "follow") {
    const opName = words().ops[op] || op;
    const prefix = `${t("dRefused").replace("%o", opName)}${s.lang === "fr" ? " : " : ": "}`;
    refusal(msg, prefix);
    if (T.director) {
      $("d-result").textContent = `${prefix}${errorText(code, msg.message, s.lang)}`;
      $("d-result").className = "d-result bad";
      store.now(); // the console's line and the refusal by the controls show together
    }
    return;
  }
  refusal(msg);
}

// ------------------------------------------------------------------ rendering

function renderBar(s, st) {
  const top = $("t-top");
  top.dataset.phase = st ? st.phase : "";
  top.dataset.paused = String(Boolean(st && st.paused));
  const badges = [];
  if (st) {
    badges.push(badgeNode(el, `phase phase-${st.phase}`, words().phases[st.phase] || st.phase, st.phase));
    if (st.paused) badges.push(badgeNode(el, "paused", t("pausedBadge"), "paused"));
    if (st.hand_for_hand && st.phase !== "hand_for_hand") badges.push(badgeNode(el, "hfh", t("handForHandBadge"), "hand_for_hand"));
    if (st.break && st.phase !== "break") badges.push(badgeNode(el, "break", t("breakBadge"), "break"));
    if (st.late_registration) badges.push(badgeNode(el, "late", t("lateBadge"), "late"));
    $("t-level").textContent = st.break ? t("breakBadge") : String(st.level ?? "—");
    const [sb, bb, ante] = st.blinds || [];
    $("t-blinds").textContent = st.blinds ? `${fmt(sb)}/${fmt(bb)}${ante ? ` · ante ${fmt(ante)}` : ""}` : "—";
    $("t-players").textContent = `${fmt(st.players_left ?? 0)}/${fmt(st.entries ?? 0)}`;
    $("t-average").textContent = st.average ? fmt(st.average) : "—";
  }
  if (changed("t-badges", badges.map((b) => b.textContent))) $("t-badges").replaceChildren(...badges);
  tickTournament();
}

// Out of the tournament: our place once the results give it (the server ranks us; while late
// registration is open the places of the busted wait for it to close), else what we may do.
function outLine(T, st, you) {
  const mine = myResult(T, st);
  if (mine) {
    const place = t("youFinished").replace("%p", ordinal(mine[0])).replace("%n", fmt(st.entries ?? 0));
    return mine[2] ? `${place} ${t("youWon").replace("%m", fmt(mine[2]))}` : place;
  }
  if (you.can_rebuy || you.can_reenter) return t("youOutChance");
  if (you.place) {
    // the server ranks us once late registration is closed (cdc 1.10): prizes come with results
    return t("youFinished").replace("%p", ordinal(you.place)).replace("%n", fmt(st.entries ?? 0));
  }
  return `${t("youOut")} ${t("placeLater")}`;
}

function renderYou(s, st) {
  const T = s.tour;
  const you = st && st.you;
  const out = Boolean(T.mine && you && you.out);
  let line = t("notRegistered");
  // started, nobody may come in any more (issue 29): say so, not only "watching"
  const closed = st && !["registering", "finished"].includes(st.phase) && !st.late_registration;
  if (closed && !T.mine) line = t("lateClosedWatch");
  if (T.director) line = t("consoleTitle");
  else if (T.myTable) line = t("youSeat").replace("%t", tableLabel(T.myTable)).replace("%s", T.mySeat);
  else if (T.mine && st && st.phase === "registering") line = t("youRegistered").replace("%n", s.nick);
  else if (out || (T.mine && you && !you.table)) line = outLine(T, st, you);
  const node = $("t-you");
  node.textContent = line;
  node.hidden = Boolean(T.myTable) && s.table === T.myTable; // the header says it already
  const result = out ? myResult(T, st) : null;
  Object.assign(node.dataset, {
    player: T.mine ? T.mine.player : "",
    table: T.myTable || "",
    seat: T.mySeat ?? "",
    reason: T.lastMove ? T.lastMove.reason : "",
    balanced: String(T.moves.balancing || 0),
    out: String(out),
    place: result ? String(result[0]) : out && you.place ? String(you.place) : "",
  });
  const moved = $("t-moved");
  moved.hidden = !T.lastMove || !T.myTable;
  if (T.lastMove) moved.textContent = movedText(T.lastMove);
  const late = Boolean(st && st.late_registration);
  $("t-register").hidden = Boolean(T.director || T.mine || !st || !(st.phase === "registering" || late));
  // (seated again, they go at once, before the next state says so; a click waits for its
  // answer: a second one would only be refused)
  const asked = (op) => Object.values(T.pending).includes(op);
  $("t-rebuy").hidden = !(T.mine && you && you.can_rebuy) || Boolean(T.myTable);
  $("t-rebuy").disabled = asked("rebuy");
  $("t-reenter").hidden = !(T.mine && you && you.can_reenter) || Boolean(T.myTable);
  $("t-reenter").disabled = asked("reenter");
  $("t-back").hidden = !T.myTable || s.table === T.myTable;
  $("t-abandon").hidden = !T.mine || !T.myTable || Boolean(T.director);
}

function renderTableHeading(s) {
  const T = s.tour;
  const heading = $("table-name");
  heading.hidden = !s.table || !s.t.config;
  if (heading.hidden) return;
  const mine = s.table === T.myTable;
  // the rail: live, or a hand behind when the director chose the commentary mode (the dock
  // says which)
  const rail = (T.state && T.state.spectators) || "live";
  const tag = mine ? (s.t.you !== null ? `${t("seat")} ${s.t.you}` : t("yourTable")) : t("watchingTable");
  if (changed("heading", [s.table, tag])) {
    heading.replaceChildren(el("span", "t-table-label", tableLabel(s.table)), el("span", "t-table-tag", tag));
  }
  heading.dataset.table = s.table;
  heading.dataset.rail = mine ? "" : rail;
}

function renderLists(s, st) {
  const T = s.tour;
  const tables = st.tables || [];
  $("t-tables-panel").hidden = !tables.length;
  if (changed("tables", [tables, T.myTable, s.table])) {
    $("t-tables").replaceChildren(
      ...tables.map(([table, n]) => {
        const item = el("li");
        const b = button("t-table", tableLabel(table), () => watchTable(table));
        b.dataset.table = table;
        item.append(b, el("span", "muted", t("playersN").replace("%n", n)));
        if (table === T.myTable) item.append(el("span", "tag mine", t("yourTable")));
        else if (table === s.table) item.append(el("span", "tag watching", t("watchingTable")));
        if (table === s.table) b.classList.add("current");
        return item;
      }),
    );
  }
  if (changed("payouts", [st.payouts, st.entries])) {
    $("t-payouts").replaceChildren(...(st.payouts || []).map((prize) => el("li", "", fmt(prize))));
    $("t-entries").textContent = `${fmt(st.entries ?? 0)} ${t("entries")}` + ((st.payouts || []).length ? "" : ` — ${t("payoutsLater")}`);
  }
  const registered = st.registered || [];
  $("t-registered-panel").hidden = st.phase !== "registering";
  if (changed("registered", registered)) $("t-registered").replaceChildren(...registered.map((n) => el("li", "", n)));
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
}

export function renderTournament() {
  const s = store.state;
  const st = s.tour.state;
  const name = st ? st.name : s.tour.id;
  $("title").textContent = name;
  document.title = `${name} — Brasseur`;
  renderBar(s, st);
  renderYou(s, st);
  renderTableHeading(s);
  $("table-view").hidden = !s.table;
  $("t-watch-hint").hidden = Boolean(s.table) || !st || !(st.tables || []).length;
  if (st) renderLists(s, st);
}

export function setupTournament() {
  $("t-register").addEventListener("click", registerNow);
  $("t-back").addEventListener("click", backToMyTable);
  for (const [id, type] of [["t-rebuy", "rebuy"], ["t-reenter", "reenter"]]) {
    $(id).addEventListener("click", () => {
      store.now((s) => {
        const T = s.tour;
        if (T.mine && !Object.values(T.pending).includes(type)) tsend(type, type, { token: T.mine.token });
      });
    });
  }
  $("t-abandon").addEventListener("click", () => {
    // cdc 1.9: an announced abandon removes the chips and ranks the player at once
    const T = store.state.tour;
    if (!T.mine || !confirm(t("abandonConfirm"))) return;
    send({ t: "abandon", tournament: T.id, token: T.mine.token });
  });
}
