// The league's members for its owner and directors (the `people` of the `league` answer):
// each with his role; those asking to join first, with "Admit" and "Refuse"; the owner's
// buttons that make a member a director (fpc: « un membre organisateur »), a member again, or
// remove him (`league_role`, docs/leagues.md), and his approval setting. A director cancels
// an event that has not started from its line (`league_event_cancel`).
import { $, button, el, show } from "./dom.js";
import { t, words } from "./i18n.js";
import { store } from "./store.js";
import { changed } from "./ui.js";
import { request } from "./net.js";
import { forgetLeagues, leagueRefusal, leagueRequest, take } from "./league_data.js";

function setRole(data, person, role) {
  leagueRequest({ t: "league_role", league: data.league, target: person.member, role })
    .then(take)
    .catch(leagueRefusal);
}

// A request to join: admitted or refused by the owner or a director. A member: the owner's
// buttons (director, member again, removed: asked first).
function personButtons(data, p) {
  if (p.role === "pending") {
    return [
      button("small primary lg-admit", t("lgAdmit"), () => setRole(data, p, "member")),
      button("small lg-refuse", t("lgRefuse"), () => setRole(data, p, "none")),
    ];
  }
  if (data.role !== "owner" || p.role === "owner") return [];
  const out = [];
  if (p.role === "member") out.push(button("small lg-make-director", t("lgMakeDirector"), () => setRole(data, p, "director")));
  if (p.role === "director") out.push(button("small lg-make-member", t("lgMakeMember"), () => setRole(data, p, "member")));
  out.push(
    button("small lg-remove", t("lgRemove"), () => {
      if (window.confirm(t("lgRemoveConfirm").replace("%n", p.name))) setRole(data, p, "none");
    }),
  );
  return out;
}

export function renderPeople() {
  const data = store.state.league.data;
  const people = (data && data.people) || [];
  if (!show($("lg-people"), people.length > 0)) return;
  const box = $("lg-approval");
  if (show($("lg-approval-box"), data.role === "owner") && box.checked !== Boolean(data.approval)) box.checked = Boolean(data.approval);
  if (!changed("lg-people", [people, data.role])) return;
  $("lg-people-list").replaceChildren(
    ...people.map((p) => {
      const li = el("li", "lg-person");
      Object.assign(li.dataset, { member: p.member, role: p.role });
      li.append(el("span", "", p.name), el("span", "muted", ` ${words().lgRoles[p.role] || p.role}`), ...personButtons(data, p));
      return li;
    }),
  );
}

// A member (not the owner) leaves the league, or withdraws his request (asked first): back to
// the lobby, whose "My leagues" is the server's answer.
function leave() {
  const data = store.state.league.data;
  if (!data || !window.confirm(t("lgLeaveConfirm").replace("%n", data.name))) return;
  request({ t: "league_leave", league: data.league, member: store.state.member.token }, "leagues")
    .then(() => {
      forgetLeagues((league) => league === data.league);
      window.location.assign("/");
    })
    .catch(leagueRefusal);
}

export function renderLeave() {
  const data = store.state.league.data;
  show($("lg-leave"), Boolean(data && data.role !== "owner"));
}

// The owner's setting: whoever joins from now on waits for approval (`league_settings`).
export function setupPeople() {
  $("lg-leave").addEventListener("click", leave);
  $("lg-approval").addEventListener("change", (event) => {
    const data = store.state.league.data;
    if (!data) return;
    leagueRequest({ t: "league_settings", league: data.league, approval: event.target.checked })
      .then(take)
      .catch(leagueRefusal);
  });
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
