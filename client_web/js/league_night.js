// A night of Sit'n Gos on the league's page (fpc part C, « LE SIT'N GO »): one registration
// for the night; once it starts, its tables as the server composed them (by the standings on
// the first Wednesday from January, at random otherwise) with their players, and the
// member's own: "Go to my table" registers him there (the seat the night gave him) and opens
// the tournament page at it. Nothing is computed here: the tables are the server's.
import { button, el } from "./dom.js";
import { t } from "./i18n.js";
import { request } from "./net.js";
import { KEY, saveJSON, store } from "./store.js";
import { leagueRefusal, tournamentLink } from "./league_data.js";

function goToTable(tid) {
  request({ t: "register", tournament: tid }, "registered")
    .then((msg) => {
      saveJSON(KEY.tournament(tid), { token: msg.token, player: msg.player, name: store.state.nick });
      window.location.href = tournamentLink(tid);
    })
    .catch(leagueRefusal);
}

export function nightNode(ev) {
  const night = ev.night;
  const node = el("div", "night");
  node.dataset.event = ev.id;
  if (!night.tables.length) {
    node.append(el("p", "hint night-registered", t("nightRegistered").replace("%n", night.registered)));
    return node;
  }
  const list = el("ul", "night-tables");
  for (const table of night.tables) {
    const li = el("li", "night-table");
    Object.assign(li.dataset, { event: table.event, tournament: table.tournament });
    if (table.tournament === night.mine) li.classList.add("mine");
    li.append(el("strong", "", table.name), el("span", "muted", ` ${table.players.join(", ")}`));
    list.append(li);
  }
  node.append(list);
  if (night.mine) node.append(button("primary small night-go", t("nightGo"), () => goToTable(night.mine)));
  return node;
}
