// A league's page (issue 15, docs/leagues.md): `?league=ID` shows it to its members
// (league_get), `?league=ID&join=INVITE` joins it first (league_join). Its name, your role
// and, for the owner and directors, the invite link; each season with its points, its events
// (status, a note when one did not start, "Register", the tournament's page, the director's
// console) and its standings (GET .../standings.json: rank, name, points or capital, results),
// asked again every few seconds while the page is open. The directors' forms are
// league_forms.js. The page computes no rule: points, places and capitals are the server's.
import { $, button, el, show } from "./dom.js";
import { colon, fmt, lang, t, words } from "./i18n.js";
import { request } from "./net.js";
import { KEY, loadJSON, saveJSON, store } from "./store.js";
import { badgeNode, changed } from "./ui.js";
import { openCashTable, renderForms, setupForms } from "./league_forms.js";
import { cupNode } from "./league_cup.js";
import { nightNode } from "./league_night.js";
import { cancelButton, renderLeave, renderPeople, setupPeople } from "./league_people.js";
import { lateWaitText } from "./tournament_clock.js";
import {
  copyFrom, directs, isCash, joinLink, leagueRefusal, leagueRequest, loadLeague, loadStandings, take, tournamentLink,
} from "./league_data.js";

const REFRESH_MS = 3000;

// The server's notes on an event (English), in French.
const NOTE_FR = [
  [/^not started at its time: (\d+) registered, (\d+) needed/, (m) =>
    `pas lancé à son heure : ${m[1]} inscrit(s), ${m[2]} nécessaires (le directeur peut le lancer depuis la console)`],
  [/^interrupted/, () => "interrompu : le serveur s'est arrêté avant la fin du tournoi"],
  [/^its tournament could not be created/, () => "son tournoi n'a pas pu être créé"],
];

const noteText = (note) => {
  if (lang() !== "fr") return note;
  for (const [pattern, make] of NOTE_FR) {
    const m = note.match(pattern);
    if (m) return make(m);
  }
  return note;
};

// "Points by place: 10, 6, 3 · best 5 results"
export function systemText(season) {
  const w = words().lgSystem;
  const points = season.points || "";
  let text = w[points] || points;
  if (points.startsWith("places:")) text = w.places.replace("%p", points.slice(7).split(",").map((n) => fmt(n)).join(", "));
  if (isCash(season)) {
    // fpc « LE FIVE-CARD DRAW »: its own season, « un capital de départ de 50 000 jetons »
    const draw = season.game === "draw";
    text = w.capital.replace("%c", fmt(points.includes(":") ? points.split(":")[1] : draw ? 50000 : 40000));
    if (draw) text = `${t("drawGame")}${season.structure === "pot_limit" ? ` ${t("potLimit").toLowerCase()}` : ""} · ${text}`;
  }
  if (season.best_of) text += ` · ${w.bestOf.replace("%n", season.best_of)}`;
  return text;
}

// the event's time in the browser's time zone, which it names (issue 29: "20:30" alone
// is ambiguous for a league whose members live in several zones)
const when = (unix) =>
  new Date(unix * 1000).toLocaleString(lang() === "fr" ? "fr-FR" : "en-GB", {
    weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", second: "2-digit",
    timeZoneName: "short",
  });

// ------------------------------------------------------------------ registering

// Register for an event's tournament from the league's page: `register` (the hello carries
// the member's token: he enters under his member id); the player token is kept where the
// tournament's page looks for it, so that it follows the seat from there.
function registerFor(ev) {
  request({ t: "register", tournament: ev.tournament }, "registered")
    .then((msg) => {
      saveJSON(KEY.tournament(ev.tournament), { token: msg.token, player: msg.player, name: store.state.nick });
      store.update();
    })
    .catch(leagueRefusal);
}

// A director closes a started event's late registration (league_event_close; cdc 1.8:
// the delay is the organiser's): with one player left the event ends.
function closeLate(data, ev) {
  if (!confirm(t("lateCloseConfirm"))) return;
  leagueRequest({ t: "league_event_close", league: data.league, event: ev.id })
    .then(take)
    .catch(leagueRefusal);
}

// What a started event waits for (issue 29): late registration open until the end of a
// level, the time left on its clock (as the server said it at the last refresh), the
// players in play; "Registration closed" once nobody may enter.
function waitNode(ev, directing) {
  if (ev.status !== "running") return null;
  const state = { phase: "running", late_left: ev.late_left, late_until_level: ev.late_until_level,
    players_left: ev.players_left, paused: ev.paused };
  let text = lateWaitText(state, ev.late_left ?? 0, directing);
  if (text && (ev.players_left ?? 0) > 1) text += ` ${t("lateOthers").replace("%n", fmt(ev.players_left))}`;
  if (!text && ev.late_left === null) text = t("lgClosed");
  return text ? el("p", "hint lg-wait", text) : null;
}

const registered = (data) =>
  data ? data.seasons.flatMap((x) => x.events).filter((ev) => loadJSON(KEY.tournament(ev.tournament), null)).map((ev) => ev.id) : [];

// ------------------------------------------------------------------ drawing

function eventNode(ev) {
  const li = el("li", "lg-event");
  Object.assign(li.dataset, { event: ev.id, status: ev.status, tournament: ev.tournament, startsAt: String(ev.starts_at) });
  const head = el("div", "lg-event-head");
  head.append(el("strong", "", ev.name), badgeNode(el, `phase phase-${ev.status}`, words().lgStatus[ev.status] || ev.status, ev.status));
  const meta = el("div", "t-meta");
  const date = el("time", "", when(ev.starts_at));
  date.dateTime = new Date(ev.starts_at * 1000).toISOString();
  meta.append(el("span", "", words().lgKinds[ev.kind] || ev.kind), el("span", "", words().lgStructures[ev.structure] || ev.structure), date);
  if (ev.requires_account) meta.append(el("span", "muted", t("lgAccountOnly")));
  if (ev.reentries) meta.append(el("span", "muted lg-reentries", t("lgReentries").replace("%n", ev.reentries)));
  if (ev.hard_stop) meta.append(el("span", "muted lg-hard-stop", t("lgHardStop").replace("%t", ev.hard_stop)));
  if (ev.kind === "satellite") meta.append(el("span", "muted lg-seats", t("lgSeats").replace("%s", ev.seats || "per:10")));
  if (ev.qualified_top) meta.append(el("span", "muted lg-qualified", t("lgQualified").replace("%n", ev.qualified_top)));
  li.append(head, meta);
  if (ev.note) li.append(el("p", "hint lg-note", noteText(ev.note)));
  const data = store.state.league.data;
  const wait = ev.kind !== "cup" && !ev.night ? waitNode(ev, directs(data)) : null;
  if (wait) li.append(wait);
  if (ev.kind === "cup" && ev.cup) li.append(cupNode(ev)); // its bracket (league_cup.js)
  if (ev.night) li.append(nightNode(ev)); // its tables (league_night.js)
  const actions = el("div", "row");
  if (loadJSON(KEY.tournament(ev.tournament), null)) actions.append(el("span", "good lg-registered", `✓ ${t("lgRegistered")}`));
  else if (ev.status === "registering") actions.append(button("primary small lg-register", t("lgRegister"), () => registerFor(ev)));
  // started, late registration still open (fpc 2-2, ligue 6.22): one may still come in
  else if (ev.status === "running" && ev.late_registration) actions.append(button("primary small lg-register lg-late", t("lgRegisterLate"), () => registerFor(ev)));
  if (ev.status !== "cancelled" && ev.kind !== "cup" && !ev.night) {
    const open = el("a", "button small lg-follow", t("lgFollow"));
    open.href = tournamentLink(ev.tournament);
    actions.append(open);
  }
  if (ev.director && ev.kind !== "cup" && !ev.night && ev.status !== "finished" && ev.status !== "cancelled") {
    const desk = el("a", "button small lg-console", t("lgConsole"));
    desk.href = tournamentLink(ev.tournament, ev.director);
    actions.append(desk);
  }
  if (directs(data) && ["scheduled", "registering"].includes(ev.status)) actions.append(cancelButton(data, ev));
  // one player left: the event waits only for latecomers; its director may end it now
  if (directs(data) && wait && ev.late_left !== null && ev.late_left !== undefined && (ev.players_left ?? 0) <= 1) {
    actions.append(button("primary small lg-close-late", t("lateClose"), () => closeLate(data, ev)));
  }
  li.append(actions);
  return li;
}

// How many players share each event's place ("event place" -> count): a place held by
// several is a tie (cdc 1.10, fpc 4-4), marked "=" and explained under the table.
function sharedPlaces(doc) {
  const count = {};
  for (const r of doc.standings || []) {
    for (const s of r.scores || []) count[`${s.event_id} ${s.place}`] = (count[`${s.event_id} ${s.place}`] || 0) + 1;
  }
  return count;
}

// One player's results: "Etape 1: 1st · 10" each, those beyond the best N in parentheses,
// a tied place as "5th=".
function scoresNode(doc, row, shared) {
  const names = Object.fromEntries((doc.events || []).map((e) => [e.id, e.name]));
  const cell = el("td", "lg-scores");
  for (const s of row.scores || []) {
    const tied = (shared[`${s.event_id} ${s.place}`] || 0) > 1;
    const text = `${colon(names[s.event_id] || s.date)} ${words().ordinal(s.place)}${tied ? "=" : ""} · ${fmt(s.total)}`;
    const span = el("span", s.counted ? "lg-score" : "lg-score dropped", s.counted ? text : `(${text})`);
    span.dataset.event = s.event_id;
    span.dataset.tied = String(tied);
    if (tied) span.title = t("lgTied");
    if (!s.counted) span.title = t("lgNotCounted");
    cell.append(span, " ");
  }
  return cell;
}

function headRow(keys) {
  const tr = el("tr");
  for (const [key, cls] of keys) tr.append(el("th", cls, t(key)));
  return tr;
}

function standingsNode(doc) {
  if (!doc) return el("p", "hint", "…");
  const rows = doc.standings || [];
  if (!rows.length) return el("p", "hint lg-empty", t("lgNoStandings"));
  const cash = doc.capital !== undefined;
  const table = el("table", "t-results lg-standings");
  const head = el("thead");
  head.append(headRow([["lgRank", "num"], ["lgPlayer", ""], [cash ? "lgCapitalCol" : "lgPointsCol", "num"], ["lgResults", ""]]));
  const body = el("tbody");
  const shared = cash ? {} : sharedPlaces(doc);
  rows.forEach((r, i) => {
    const tr = el("tr");
    const player = cash ? r.member : r.player_id;
    const value = cash ? r.capital : r.points;
    Object.assign(tr.dataset, { player, rank: String(cash ? i + 1 : r.rank), value: String(value) });
    const name = cash ? r.name : (doc.names || {})[player] || player;
    tr.append(el("td", "num", String(cash ? i + 1 : r.rank)), el("td", "lg-name", name), el("td", "num lg-value", fmt(value)));
    if (cash) {
      const net = value - doc.capital;
      tr.append(el("td", "lg-scores", r.barred ? t("lgBarred") : `${net > 0 ? "+" : net < 0 ? "−" : ""}${fmt(Math.abs(net))}`));
    } else tr.append(scoresNode(doc, r, shared));
    body.append(tr);
  });
  table.append(head, body);
  const box = el("div", "lg-table");
  box.append(table);
  if (Object.values(shared).some((n) => n > 1)) box.append(el("p", "hint lg-tied-note", t("lgTiedNote")));
  if ((doc.unscored || []).length) {
    const names = Object.fromEntries((doc.events || []).map((e) => [e.id, e.name]));
    box.append(el("p", "hint", t("lgUnscored").replace("%e", doc.unscored.map((id) => names[id] || id).join(", "))));
  }
  return box;
}

function seasonNode(data, season, doc) {
  const node = el("section", "panel lg-season");
  node.dataset.season = season.id;
  node.append(el("h2", "", season.name), el("p", "hint lg-system", systemText(season)));
  if (isCash(season)) {
    if (directs(data)) {
      const row = el("div", "row");
      row.append(button("primary small lg-cash-open", t("lgCashOpen"), () => openCashTable(data, season)));
      row.append(el("span", "hint", t("lgCashHint")));
      node.append(row);
    }
  } else {
    const list = el("ul", "lg-events");
    if (!season.events.length) list.append(el("li", "hint", t("lgNoEvent")));
    list.append(...season.events.map(eventNode));
    node.append(list);
  }
  node.append(el("h3", "", t("lgStandings")), standingsNode(doc));
  return node;
}

function renderSeasons(s) {
  const L = s.league;
  const data = L.data;
  if (!changed("league", [data, L.standings, registered(data)])) return;
  const box = $("lg-seasons");
  if (!data || data.role === "pending") box.replaceChildren();
  else if (!data.seasons.length) box.replaceChildren(el("p", "panel hint lg-none", t("lgNoSeason")));
  else box.replaceChildren(...data.seasons.map((season) => seasonNode(data, season, L.standings[season.id])));
}

export function renderLeague() {
  const s = store.state;
  const L = s.league;
  if (s.member && L.askedWith !== s.member.token) loadLeague(); // logged in now, or again
  if (!s.member && L.askedWith) Object.assign(L, { askedWith: "", data: null, standings: {}, note: "" }); // logged out
  const data = L.data;
  const title = data ? data.name : t("lgTitle");
  $("title").textContent = title;
  document.title = `${title} — Brasseur`;
  const waiting = data && data.role === "pending"; // asked to join: nothing more until admitted
  const why = !s.member ? (L.join ? "lgLogInToJoin" : "lgLogInFirst") : waiting ? "lgAwaiting" : L.problem || (data ? "" : "lgLoading");
  $("lg-problem").textContent = why ? t(why) : "";
  show($("lg-problem"), Boolean(why));
  show($("lg-login"), !s.member);
  $("lg-note").textContent = data ? L.note : "";
  const meta = data && t(data.members === 1 ? "lgMetaOne" : "lgMeta").replace("%m", fmt(data.members));
  $("lg-meta").textContent = data && !waiting ? meta.replace("%r", words().lgRoles[data.role] || data.role) : "";
  show($("lg-head"), true);
  const invite = directs(data) && data.invite ? joinLink(data.league, data.invite) : "";
  if (show($("lg-invite"), Boolean(invite)) && $("lg-invite-link").value !== invite) $("lg-invite-link").value = invite;
  $("league-view").dataset.role = data ? data.role : "";
  renderSeasons(s);
  renderPeople();
  renderLeave();
  renderForms(s);
}

// ------------------------------------------------------------------ start

// The league again (statuses change as events start and finish) and its standings.
function refresh() {
  const s = store.state;
  const L = s.league;
  if (document.hidden || !s.member || L.join || L.refreshing) return;
  if (!L.data) {
    if (L.problem === "lgAwaiting") loadLeague(); // asked already: admitted yet?
    return;
  }
  L.refreshing = true;
  leagueRequest({ t: "league_get", league: L.data.league })
    .then(take)
    .catch((error) => {
      if (error.code === "bad_token") leagueRefusal(error); // (else: shown at the next answer)
    })
    .finally(() => {
      L.refreshing = false;
    });
  loadStandings();
}

export function startLeague() {
  $("league-view").hidden = false;
  $("nick-form").hidden = true;
  $("nick-hint").hidden = true;
  setupForms();
  setupPeople();
  $("lg-login").addEventListener("click", () => {
    if ($("account").hidden) $("account-open").click();
  });
  $("lg-invite-copy").addEventListener("click", () => copyFrom("lg-invite-link", "lg-invite-copy"));
  setInterval(refresh, REFRESH_MS);
}
