// The forms of a league's owner and directors (issue 15, docs/leagues.md): open a season (its
// points: the fpc Tour des Potes, the fpc Sit'n Go, a table of points by place, or a cash
// season with its capital: fpc cash « un capital de départ de 40 000 jetons »), schedule an
// event of a season (a shipped structure, a date and a time, members with an account only or
// not; a satellite names its target), and open a cash table of a cash season (fpc cash,
// members only, each buy-in from the member's capital) with its invite link. Whether a points
// table or a time is acceptable is the server's to say (league.bad_points, league.bad_event).
import { $, fillSelect, show } from "./dom.js";
import { t } from "./i18n.js";
import { inviteLink, rememberTable } from "./lobby.js";
import { createTable } from "./net.js";
import { KEY, store } from "./store.js";
import { changed, clearError, showError } from "./ui.js";
import { copyFrom, directs, isCash, leagueRefusal, leagueRequest, loadStandings, take } from "./league_data.js";

const pad = (n) => String(n).padStart(2, "0");

// The `points` of the season form: `fpc_tour_des_potes`, `fpc_sit_and_go`, `places:10,6,3`
// (the numbers typed, in their order) or `capital:N`; null when nothing usable was typed.
export function pointsOf() {
  const kind = $("se-points").value;
  if (kind === "places") {
    const numbers = $("se-places").value.split(/[^0-9]+/).filter(Boolean).map(Number);
    return numbers.length ? `places:${numbers.join(",")}` : null;
  }
  if (kind === "capital") {
    const capital = Math.floor(Number($("se-capital").value));
    return capital > 0 ? `capital:${capital}` : null;
  }
  return kind;
}

// The event's start (unix seconds) from the date and time typed, in the browser's time zone.
export function startsAt() {
  const date = $("ev-date").value;
  const time = $("ev-time").value;
  if (!date || !time) return null;
  const at = new Date(`${date}T${time.length === 5 ? `${time}:00` : time}`).getTime();
  return Number.isFinite(at) ? Math.floor(at / 1000) : null;
}

// A request from a form: its button waits for the answer, the league shown is the answer.
function send(buttonId, message, done) {
  $(buttonId).disabled = true;
  clearError();
  leagueRequest(message)
    .then((msg) => {
      take(msg);
      loadStandings();
      if (done) done(msg);
    })
    .catch(leagueRefusal)
    .finally(() => {
      $(buttonId).disabled = false;
    });
}

function createSeason() {
  const points = pointsOf();
  if (!points) {
    showError(t("lgPlacesBad"));
    return;
  }
  const best = Math.floor(Number($("se-best").value));
  const message = {
    t: "season_create",
    league: store.state.league.data.league,
    name: $("se-name").value.trim(),
    points,
    best_of: best > 0 && !points.startsWith("capital") ? best : undefined,
  };
  // a cash season's game (fpc « Les caves sont spécifiques à chaque jeu ») and its betting
  if (points.startsWith("capital") && $("se-game").value === "draw") {
    message.game = "draw";
    if ($("se-structure").value !== "no_limit") message.structure = $("se-structure").value;
  }
  send("se-create", message, () => {
    $("se-name").value = "";
  });
}

// What only some events say: a satellite's seats rule (docs/leagues.md "Satellites"), a
// monthly's or quarterly's qualified players (ligue, « les joueurs classés »: the first N of a
// season's standings), a hard stop other than the structure's (fpc part C: 23:45), in the
// browser's time zone. Left out, the server's defaults apply.
function extras(kind) {
  const out = {};
  const seats = $("ev-seats").value.trim();
  if (kind === "satellite" && seats) out.seats = seats;
  const top = Math.floor(Number($("ev-qualified").value));
  if (ranked(kind) && top > 0) {
    out.qualified_top = top;
    out.qualified_season = $("ev-qualified-season").value || undefined;
  }
  const mode = $("ev-stop-mode").value;
  if (kind !== "cup" && mode !== "default") {
    out.hard_stop = mode === "at" ? $("ev-stop").value.slice(0, 5) : "";
    out.hard_stop_zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  }
  return out;
}

const ranked = (kind) => kind === "monthly" || kind === "quarterly";

function createEvent() {
  const starts = startsAt();
  if (starts === null) {
    showError(t("lgBadTime"));
    return;
  }
  const kind = $("ev-kind").value;
  const target = kind === "satellite" ? $("ev-target").value : undefined;
  if (kind === "satellite" && !target) {
    showError(t("lgNoTarget"));
    return;
  }
  if (kind !== "cup" && $("ev-stop-mode").value === "at" && !$("ev-stop").value) {
    showError(t("lgBadTime"));
    return;
  }
  const message = {
    t: "league_event_create",
    league: store.state.league.data.league,
    season: $("ev-season").value,
    name: $("ev-name").value.trim(),
    kind,
    structure: kind === "cup" ? "" : $("ev-structure").value, // a cup plays its own games
    starts_at: starts,
    requires_account: $("ev-account").checked,
    reentries: kind === "cup" ? 0 : Math.max(0, Math.min(10, Number($("ev-reentries").value) || 0)),
    night: kind === "sit_and_go" && $("ev-night").checked, // one registration, tables at the start
    satellite_of: target,
    ...extras(kind),
  };
  send("ev-create", message, () => {
    $("ev-name").value = "";
  });
}

// A cash table of a cash season: fpc cash (25/50, buy-ins 500 to 5,000: the book's), created
// by this director's connection (`create` with `season`: docs/leagues.md), its invite shown.
export function openCashTable(data, season) {
  const name = `${data.name} · ${season.name}`.slice(0, 40);
  clearError();
  // (a five-card draw season's tables deal draw: « Les Blinds sont de 50/100 jetons », « de
  // 2 joueurs (minimum) à 6 joueurs (maximum) »)
  const draw = season.game === "draw";
  const message = { name, profile: "fpc", game: draw ? "draw" : "cash", sb: draw ? 50 : 25, bb: draw ? 100 : 50, season: `${data.league}/${season.id}` };
  if (draw) message.max_seats = 6;
  createTable(message)
    .then((msg) => {
      if (msg.host) localStorage.setItem(KEY.host(msg.table), msg.host); // the table's host is us
      rememberTable(msg.table, name, msg.invite);
      store.update((s) => void (s.league.cash = { table: msg.table, name, link: inviteLink(msg.table, msg.invite) }));
    })
    .catch(leagueRefusal);
}

// The selects that follow the league (its seasons, its events still to start), the fields
// that follow the choices, the cash table opened.
export function renderForms(s) {
  const data = s.league.data;
  const can = directs(data);
  show($("lg-season-panel"), can);
  const seasons = can ? data.seasons.filter((x) => !isCash(x)) : [];
  show($("lg-event-panel"), seasons.length > 0);
  if (can && changed("lg-forms", data)) {
    fillSelect($("ev-season"), seasons.map((x) => [x.id, x.name]));
    const open = data.seasons.flatMap((x) => x.events).filter((e) => ["scheduled", "registering"].includes(e.status));
    fillSelect($("ev-target"), open.map((e) => [e.id, e.name]));
    fillSelect($("ev-qualified-season"), seasons.map((x) => [x.id, x.name]));
  }
  const points = $("se-points").value;
  show($("se-places-box"), points === "places");
  show($("se-capital-box"), points === "capital");
  show($("se-best-box"), points !== "capital");
  show($("se-game-box"), points === "capital");
  show($("se-structure-box"), points === "capital" && $("se-game").value === "draw");
  const kind = $("ev-kind").value;
  show($("ev-target-box"), kind === "satellite");
  show($("ev-seats-box"), kind === "satellite");
  show($("ev-qualified-box"), ranked(kind));
  show($("ev-qualified-season-box"), ranked(kind) && Number($("ev-qualified").value) > 0);
  show($("ev-structure").closest("label"), kind !== "cup"); // the cup's games are its own
  show($("ev-reentries").closest("label"), kind !== "cup");
  show($("ev-stop-box"), kind !== "cup");
  show($("ev-stop-time-box"), kind !== "cup" && $("ev-stop-mode").value === "at");
  show($("ev-night-box"), kind === "sit_and_go");
  const cash = s.league.cash;
  if (!show($("lg-cash-created"), Boolean(cash && can))) return;
  $("lg-cash-text").textContent = t("lgCashCreated").replace("%n", cash.name);
  if ($("lg-cash-link").value !== cash.link) {
    $("lg-cash-link").value = cash.link;
    $("lg-cash-go").href = cash.link;
  }
}

export function setupForms() {
  const now = new Date(Date.now() + 3600_000); // the next full hour, today or tomorrow
  $("ev-date").value = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  $("ev-time").value = `${pad(now.getHours())}:00:00`;
  $("season-form").addEventListener("submit", (event) => {
    event.preventDefault();
    createSeason();
  });
  $("event-form").addEventListener("submit", (event) => {
    event.preventDefault();
    createEvent();
  });
  for (const id of ["se-points", "ev-kind", "ev-stop-mode"]) $(id).addEventListener("change", () => store.update());
  $("se-game").addEventListener("change", () => {
    // each game's capital as the book gives it (cash 40,000; five-card draw 50,000)
    const [from, to] = $("se-game").value === "draw" ? ["40000", "50000"] : ["50000", "40000"];
    if ($("se-capital").value === from) $("se-capital").value = to;
    store.update();
  });
  $("ev-qualified").addEventListener("input", () => store.update());
  $("lg-cash-copy").addEventListener("click", () => copyFrom("lg-cash-link", "lg-cash-copy"));
}
