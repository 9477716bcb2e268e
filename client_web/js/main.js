// Brasseur in the browser. The URL says what the page is: `/` the lobby, `?table=T&invite=I`
// a friends table, `?tournament=ID` a tournament (with `&director=TOKEN` its console),
// `?league=ID` a league (with `&join=INVITE` its invite link). Plain
// ES modules, no build step; the wire protocol is docs/protocol.md, and the server computes
// every rule: this page never re-implements them.
import { checkSession, renderAccount, setupAccount } from "./account.js";
import { renderCash, setupCash } from "./cash.js";
import { tableHooks } from "./client.js";
import { renderControls, renderTime, setupControls } from "./controls.js";
import { renderConsole, setupConsole } from "./console.js";
import { $ } from "./dom.js";
import { setupHistory } from "./history.js";
import { setLang, t, translatePage } from "./i18n.js";
import { renderLeague, startLeague } from "./league.js";
import { renderLeagues, setupLeagues } from "./league_lobby.js";
import { loadTournaments, renderLobby, rememberTable, setupLobby } from "./lobby.js";
import { renderLog, restoreLog } from "./log.js";
import { command, connect, sayHello } from "./net.js";
import { renderTurnNotice, setupTurnNotice } from "./notify.js";
import { renderRoom, setupRoom } from "./room.js";
import { playSounds, setupSounds } from "./sound.js";
import { KEY, freshTable, store } from "./store.js";
import { buyIn, layoutFelt, renderTable } from "./table.js";
import { setupTalk } from "./talk.js";
import { registerNow, renderTournament, setupTournament, tournamentHooks } from "./tournament.js";
import { tickTournament } from "./tournament_clock.js";
import { clearError } from "./ui.js";

const s = store.state;

// ------------------------------------------------------------------ drawing

// The table fills the screen below the header (and the tournament bar): its height is what
// the window has left, so that the felt and the dock are in view together.
function sizePlay() {
  const view = $("table-view");
  if (view.hidden) return;
  const top = view.getBoundingClientRect().top + window.scrollY;
  const height = `${Math.max(300, Math.floor(window.innerHeight - top))}px`;
  if (view.style.getPropertyValue("--play-h") !== height) view.style.setProperty("--play-h", height);
}

// A refusal is shown where the player is looking: in the dock at a table, else at the top.
function renderError() {
  const box = $("error");
  const atTable = !$("table-view").hidden && Boolean(s.table);
  const slot = atTable ? $("error-slot") : $("top");
  if (atTable ? box.parentElement !== slot : box.previousElementSibling !== $("nick-form")) {
    if (atTable) slot.append(box);
    else $("nick-form").after(box);
  }
  box.hidden = !s.error;
  if ($("error-text").textContent === s.error) return;
  $("error-text").textContent = s.error;
  // a new refusal: in view, wherever the page was scrolled (never off-screen)
  const r = box.getBoundingClientRect();
  if (s.error && (r.top < 0 || r.bottom > window.innerHeight)) box.scrollIntoView({ block: "nearest" });
}

function render() {
  $("status").textContent = s.status ? t(s.status) : "";
  renderAccount();
  if (s.mode === "lobby") {
    renderLobby();
    renderLeagues();
  } else if (s.mode === "league") {
    renderLeague();
  } else {
    if (s.mode === "tournament") renderTournament();
    if (s.table) {
      $("table-view").dataset.table = s.table;
      $("table-view").dataset.seq = String(s.t.seq);
      $("table-view").dataset.hand = String(s.t.hand);
      $("table-view").dataset.phase = s.t.phase;
      $("history-open").hidden = !s.t.config;
      if (s.mode === "table") $("nick-form").hidden = Boolean(s.nick) || s.t.you !== null;
      if (s.t.config && s.mode === "table") rememberTable(s.table, s.t.config.name, s.invite);
      sizePlay();
      renderTable();
      renderControls();
      renderCash(s);
      renderRoom(s);
      renderLog();
      drawClocks();
    }
    if (s.mode === "tournament" && s.tour.director) renderConsole();
  }
  renderError();
  playSounds(s);
  renderTurnNotice(); // after the header's title: a hidden page at our turn says so
}

// the countdowns, redrawn four times a second without rebuilding the page (and at once
// after each drawing)
function tick() {
  if (s.mode === "tournament") tickTournament();
  if (!s.table) return;
  drawClocks();
  if (s.t.ruling && s.t.ruling.until <= performance.now() && !$("ruling").hidden) store.update();
  renderTime(s);
}

function drawClocks() {
  const tb = s.t;
  const c = tb.clock;
  let text = "";
  let urgent = false;
  let counting = false;
  let fraction = 0;
  if (tb.phase === "betting" && tb.toAct !== null && c && c.seat === tb.toAct) {
    const left = Math.max(0, c.deadline - performance.now());
    text = `${Math.ceil(left / 1000)} ${t("sec")}`;
    if (c.kind === "bank") text = `${t("bank")} ${text}`;
    if (c.kind === "time") {
      // the Time called (cdc 3.5): its last seconds counted aloud, as a floor would
      counting = Boolean(tb.timeCall) && left <= tb.timeCall.countdownMs;
      text = `${t("timeTag")} ${counting ? Math.ceil(left / 1000) : text}`;
    }
    urgent = c.kind !== "action" || left <= 5000;
    fraction = left / c.total;
  }
  for (const node of document.querySelectorAll(".seat-timer")) {
    node.querySelector(".secs").textContent = text;
    node.querySelector(".bar").style.width = `${Math.round(fraction * 100)}%`;
    node.classList.toggle("urgent", urgent);
    node.classList.toggle("time-called", c?.kind === "time" && Boolean(text));
    node.classList.toggle("counting", counting);
  }
  $("my-clock").textContent = tb.toAct === tb.you && text ? text : "";
  $("my-clock").classList.toggle("urgent", urgent);
  $("my-clock").classList.toggle("counting", counting && tb.toAct === tb.you);
  if (tb.cut) $("cut-timer").textContent = `${Math.ceil(Math.max(0, tb.cut.deadline - performance.now()) / 1000)} ${t("sec")}`;
}

// ------------------------------------------------------------------ the header, the nickname

function setupHeader() {
  $("lang").addEventListener("click", () => setLang(s.lang === "fr" ? "en" : "fr"));
  $("error-close").addEventListener("click", clearError);
  $("nick").value = s.nick;
  $("buyin-form").addEventListener("submit", (event) => {
    event.preventDefault();
    buyIn();
  });
  $("nick-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const nick = $("nick").value.trim().slice(0, 32);
    if (!nick) return;
    store.update(() => {
      s.nick = nick;
      s.error = "";
    });
    localStorage.setItem(KEY.nick, nick);
    $("nick-form").hidden = true;
    if (s.mode === "tournament" && sessionStorage.getItem(KEY.register(s.tour.id))) registerNow();
    // the server takes the nickname from hello: say it again, on the same connection (a
    // seat token already names us)
    if (s.mode === "table" && !s.net.usingSeatToken) {
      sayHello({ nickname: nick, token: s.invite || undefined });
    }
  });
  setupSounds();
  setupTurnNotice();
  setupAccount();
}

// ------------------------------------------------------------------ start

function startTable() {
  $("table-view").hidden = false;
  setupControls();
  setupCash();
  setupRoom();
  setupTalk();
  setupHistory();
  s.t.log = restoreLog(s.table);
  $("nick-hint").hidden = false;
  if (!s.invite && !localStorage.getItem(KEY.seat(s.table))) {
    store.update(() => (s.error = t("noInvite")));
    return;
  }
  $("nick-form").hidden = Boolean(s.nick);
  connect(tableHooks());
}

function startTournament() {
  $("t-top").hidden = false;
  $("tournament-view").hidden = false;
  $("console").hidden = !s.tour.director;
  $("nick-hint").hidden = true;
  setupControls();
  setupTalk();
  setupHistory();
  setupTournament();
  if (s.tour.director) setupConsole();
  connect(tournamentHooks());
}

function startLobby() {
  $("lobby").hidden = false;
  $("nick-hint").hidden = true;
  $("nick-form").hidden = Boolean(s.nick);
  setupLobby();
  setupLeagues();
  checkSession(); // a session ended elsewhere (a new password) shows as logged out
  loadTournaments();
  setInterval(loadTournaments, 4000);
}

// From a friends table back to the lobby, in this page (a busted friend leaves: no reload,
// nothing to wait for). The table's connection closes; the address becomes the lobby's, and
// the browser's Back button opens the table again.
function backToLobby() {
  if (s.mode !== "table") return;
  const ws = s.net.ws;
  $("table-view").hidden = true;
  $("history-open").hidden = true;
  $("info").textContent = "";
  if ($("history").open) $("history").close();
  store.now(() => {
    Object.assign(s.net, { ws: null, stopped: true });
    Object.assign(s, { mode: "lobby", table: "", invite: "", t: freshTable(""), status: "", error: "" });
  });
  if (ws) ws.close(); // (after the leave sent just before: a socket sends what it holds first)
  history.pushState(null, "", "/");
  window.addEventListener("popstate", () => location.reload());
  startLobby();
  store.update();
}

translatePage();
setupHeader();
store.subscribe(render);
if (s.mode === "lobby") startLobby();
else if (s.mode === "tournament") startTournament();
else if (s.mode === "league") startLeague();
else startTable();
window.addEventListener("brasseur:lobby", backToLobby);
store.update();
setInterval(tick, 250);
window.addEventListener("resize", () => {
  sizePlay();
  layoutFelt();
});
new ResizeObserver(() => layoutFelt()).observe($("felt"));
// what is above the table (the header, the tournament bar) may wrap to more lines
const above = new ResizeObserver(() => sizePlay());
for (const id of ["top", "t-top", "nick-form", "account"]) above.observe($(id));

// for people and tests following the page from the console
window.brasseur = { store, command };
