// The league's members for its owner (the `people` of the `league` answer): each with his
// role, and the owner's buttons that make a member a director (fpc: « un membre
// organisateur ») or a member again (`league_role`, docs/leagues.md). A director cancels an
// event that has not started from its line (`league_event_cancel`).
import { $, button, el, show } from "./dom.js";
import { t, words } from "./i18n.js";
import { store } from "./store.js";
import { changed } from "./ui.js";
import { leagueRefusal, leagueRequest, take } from "./league_data.js";

function setRole(data, person, role) {
  leagueRequest({ t: "league_role", league: data.league, target: person.member, role })
    .then(take)
    .catch(leagueRefusal);
}

export function renderPeople() {
  const data = store.state.league.data;
  const people = (data && data.people) || [];
  if (!show($("lg-people"), people.length > 0)) return;
  if (!changed("lg-people", people)) return;
  $("lg-people-list").replaceChildren(
    ...people.map((p) => {
      const li = el("li", "lg-person");
      Object.assign(li.dataset, { member: p.member, role: p.role });
      li.append(el("span", "", p.name), el("span", "muted", ` ${words().lgRoles[p.role] || p.role}`));
      if (p.role === "member") li.append(button("small lg-make-director", t("lgMakeDirector"), () => setRole(data, p, "director")));
      if (p.role === "director") li.append(button("small lg-make-member", t("lgMakeMember"), () => setRole(data, p, "member")));
      return li;
    }),
  );
}

// "Cancel" on an event that has not started, for its league's owner and directors.
export function cancelButton(data, ev) {
  return button("small lg-cancel", t("lgCancelEvent"), () => {
    if (!window.confirm(t("lgCancelConfirm").replace("%e", ev.name))) return;
    leagueRequest({ t: "league_event_cancel", league: data.league, event: ev.id })
      .then(take)
      .catch(leagueRefusal);
  });
}
