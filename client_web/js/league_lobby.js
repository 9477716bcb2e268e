// "My leagues" in the lobby (issue 15, docs/leagues.md), for a member logged in: his leagues
// as the server lists them (`league_list`: made or joined in any browser) with those known
// here, and "Create a league", whose invite link is shown to send to its members
// (`?league=<id>&join=<invite>`: the page it opens joins with league_join).
import { $, el, show } from "./dom.js";
import { t, words } from "./i18n.js";
import { store } from "./store.js";
import { changed } from "./ui.js";
import {
  copyFrom, joinLink, leagueLink, leagueRefusal, leagueRequest, loadMyLeagues, myLeagues,
} from "./league_data.js";

export function renderLeagues() {
  const s = store.state;
  const m = s.member;
  if (!show($("leagues-panel"), Boolean(m))) return;
  loadMyLeagues();
  const mine = myLeagues(m.member);
  if (changed("my-leagues", mine)) {
    const list = $("my-leagues");
    list.replaceChildren();
    if (!mine.length) list.append(el("li", "hint", t("lgNone")));
    for (const x of mine) {
      const item = el("li");
      const a = el("a", "", x.name);
      a.href = leagueLink(x.league);
      a.dataset.league = x.league;
      item.append(a, el("span", "muted", ` ${words().lgRoles[x.role] || x.role || ""}`));
      list.append(item);
    }
  }
  const made = s.lobby.league;
  if (show($("league-created"), Boolean(made)) && $("league-link").value !== made.link) {
    $("league-link").value = made.link;
    $("league-open").href = leagueLink(made.league);
  }
}

function createLeague() {
  const name = $("lg-new-name").value.trim();
  if (!name) return;
  $("lg-create").disabled = true;
  leagueRequest({ t: "league_create", name, approval: $("lg-new-approval").checked })
    .then((msg) => {
      $("lg-new-name").value = "";
      store.update((s) => void (s.lobby.league = { league: msg.league, name: msg.name, link: joinLink(msg.league, msg.invite) }));
    })
    .catch(leagueRefusal)
    .finally(() => {
      $("lg-create").disabled = false;
    });
}

export function setupLeagues() {
  $("league-form").addEventListener("submit", (event) => {
    event.preventDefault();
    createLeague();
  });
  $("league-copy").addEventListener("click", () => copyFrom("league-link", "league-copy"));
}
