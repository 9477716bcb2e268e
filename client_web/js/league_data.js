// What the leagues' pages share (issue 15, docs/leagues.md): their links, the leagues this
// browser knows (kept in localStorage per member, and made the server's `league_list` when
// it answers), the league requests (each over a connection of its own, with
// the member's session token: docs/protocol.md `league_*`), and the standings of a season
// (GET /api/leagues/<league>/seasons/<season>/standings.json, public).
import { forget } from "./account.js";
import { $ } from "./dom.js";
import { errorText, lang, t } from "./i18n.js";
import { request } from "./net.js";
import { KEY, loadJSON, saveJSON, store } from "./store.js";
import { clearError, showError } from "./ui.js";

const enc = encodeURIComponent;

export const leagueLink = (league) => `${location.origin}/?league=${enc(league)}`;
export const joinLink = (league, invite) => `${leagueLink(league)}&join=${enc(invite)}`;
export const tournamentLink = (tournament, director) =>
  `/?tournament=${enc(tournament)}${director ? `&director=${enc(director)}` : ""}`;

// A cash season (points `capital` or `capital:N`): its standings are the members' capitals.
export const isCash = (season) => /^capital(:|$)/.test(season.points || "");
// The owner and the directors open seasons, schedule events and see the invite.
export const directs = (data) => Boolean(data) && (data.role === "owner" || data.role === "director");

// ------------------------------------------------------------------ the leagues known here

export function myLeagues(member) {
  const all = loadJSON(KEY.leagues, []);
  return Array.isArray(all) ? all.filter((x) => x && x.member === member && x.league) : [];
}

// This member's leagues kept here but for ``gone`` (left, or removed: the server's list says).
export function forgetLeagues(gone) {
  const m = store.state.member;
  if (!m) return;
  const all = loadJSON(KEY.leagues, []);
  saveJSON(KEY.leagues, (Array.isArray(all) ? all : []).filter((x) => !(x && x.member === m.member && gone(x.league))));
}

function rememberLeague(msg) {
  const m = store.state.member;
  if (!m || !msg.league) return;
  const all = loadJSON(KEY.leagues, []);
  const others = (Array.isArray(all) ? all : []).filter((x) => x && !(x.league === msg.league && x.member === m.member));
  others.unshift({ league: msg.league, name: msg.name, role: msg.role, member: m.member });
  saveJSON(KEY.leagues, others.slice(0, 50));
}

// Every league of the member, from the server (`league_list`): those made or joined in
// another browser too. Kept with the others known here (once per session token).
export function loadMyLeagues() {
  const m = store.state.member;
  const L = store.state.league;
  if (!m || L.listedFor === m.token) return;
  L.listedFor = m.token;
  const before = new Set(myLeagues(m.member).map((x) => x.league)); // (one made meanwhile stays)
  request({ t: "league_list", member: m.token }, "leagues")
    .then((msg) => {
      const listed = new Set(msg.leagues.map((x) => x.league));
      forgetLeagues((league) => before.has(league) && !listed.has(league)); // left, or removed
      for (const x of [...msg.leagues].reverse()) rememberLeague(x);
      store.update();
    })
    .catch((error) => {
      L.listedFor = "";
      leagueRefusal(error);
    });
}

// ------------------------------------------------------------------ requests

// A league request with the member's session token: the `league` answer (remembered), or
// the `error` as the rejection.
export function leagueRequest(message) {
  const m = store.state.member;
  if (!m) return Promise.reject({ code: "login", message: t("lgLogInFirst") });
  return request({ ...message, member: m.token }, "league").then((msg) => {
    rememberLeague(msg);
    return msg;
  });
}

// A refusal in words; a session that ended logs the page out (docs/accounts.md).
export function leagueRefusal(error) {
  if (error.code === "bad_token") forget(true);
  else showError(errorText(error.code, error.message, lang()));
}

// The league as the server answered (its seasons and events), shown from now on.
export function take(msg) {
  store.update((s) => {
    s.league.id = msg.league;
    s.league.data = msg;
    s.league.problem = "";
  });
}

// Each season's standings, fetched again (a fetch that fails keeps the last ones shown).
export function loadStandings() {
  const data = store.state.league.data;
  if (!data) return;
  for (const season of data.seasons) {
    fetch(`/api/leagues/${enc(data.league)}/seasons/${enc(season.id)}/standings.json`, { cache: "no-store" })
      .then((response) => (response.ok ? response.json() : null))
      .then((doc) => {
        if (doc) store.update((s) => void (s.league.standings[season.id] = doc));
      })
      .catch(() => {}); // offline for a moment: the next refresh tries again
  }
}

// The league of the page: joined first with the link's invite, then asked (league_get).
export function loadLeague() {
  const s = store.state;
  const L = s.league;
  if (!s.member) return;
  L.askedWith = s.member.token;
  const invite = L.join;
  const message = invite ? { t: "league_join", invite } : { t: "league_get", league: L.id };
  leagueRequest(message)
    .then((msg) => {
      if (invite) {
        L.join = "";
        history.replaceState(null, "", `/?league=${enc(msg.league)}`); // a reload asks, not joins
        clearError(); // (the refusal of an earlier try is over)
        const joined = msg.role === "pending" ? "lgAsked" : "lgJoined";
        store.update((st) => void (st.league.note = t(joined).replace("%n", msg.name)));
      }
      take(msg);
      loadStandings();
    })
    .catch((error) => {
      if (error.code === "league.awaiting_approval") {
        store.update((st) => Object.assign(st.league, { problem: "lgAwaiting", data: null }));
        return; // said on the page, not an error: asked again every few seconds
      }
      if (error.code === "league.not_member" || (error.code === "league.not_found" && !invite)) {
        store.update((st) => {
          st.league.problem = error.code === "league.not_member" ? "lgNotMember" : "";
          st.league.data = null;
        });
      }
      leagueRefusal(error);
      if (invite && error.code !== "bad_token") {
        L.join = ""; // a spent or wrong invite: maybe a member already
        loadLeague();
      }
    });
}

// A link's text copied (or selected to copy by hand when the page may not write it).
export async function copyFrom(inputId, buttonId) {
  try {
    await navigator.clipboard.writeText($(inputId).value);
  } catch {
    $(inputId).select();
  }
  $(buttonId).textContent = t("copied");
}
