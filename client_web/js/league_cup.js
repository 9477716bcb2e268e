// A league's heads-up cup on its page (fpc part C, « LA COUPE HEADS-UP »): the bracket as the
// server holds it (the `cup` of the event's view: docs/leagues.md), one column per round,
// each match with its players' names, its score and who goes on; the member's own match has
// "Play my match" when a game of it is in play (a `register` for the game's tournament: the
// server seats him there and the tournament page follows his seat). Nothing is computed
// here: the scores, winners and games are the server's.
import { button, el } from "./dom.js";
import { t, words } from "./i18n.js";
import { request } from "./net.js";
import { KEY, saveJSON, store } from "./store.js";
import { leagueRefusal, tournamentLink } from "./league_data.js";

const ORDER = ["first_round", "1/32", "1/16", "1/8", "1/4", "1/2", "final", "third_place"];

function playGame(tid) {
  request({ t: "register", tournament: tid }, "registered")
    .then((msg) => {
      saveJSON(KEY.tournament(tid), { token: msg.token, player: msg.player, name: store.state.nick });
      window.location.href = tournamentLink(tid);
    })
    .catch(leagueRefusal);
}

function matchNode(cup, match, me) {
  const names = cup.names || {};
  const box = el("li", "cup-match");
  Object.assign(box.dataset, { match: match.match_id, round: match.round });
  if (match.winner) box.classList.add("decided");
  match.players.forEach((p, i) => {
    const row = el("div", "cup-player");
    const name = p ? names[p] || p : match.bye && i === 1 ? t("cupBye") : "…";
    row.append(el("span", "cup-name", name), el("span", "cup-score", match.bye ? "" : String(match.score[i])));
    if (p && p === match.winner) row.classList.add("winner");
    if (p && p === me) row.classList.add("mine");
    if (p) row.dataset.player = p;
    box.append(row);
  });
  if (!match.bye) box.append(el("div", "hint cup-first-to", t("cupFirstTo").replace("%n", match.wins_needed)));
  const game = (cup.games || {})[match.match_id];
  if (game && me && match.players.includes(me)) {
    box.append(button("primary small cup-play", t("cupPlay"), () => playGame(game)));
  }
  return box;
}

export function cupNode(ev) {
  const cup = ev.cup;
  const node = el("div", "cup");
  node.dataset.event = ev.id;
  const me = store.state.member ? store.state.member.member : null;
  if (!cup.bracket) {
    node.append(el("p", "hint cup-registered", t("cupRegistered").replace("%n", cup.registered)));
    return node;
  }
  const b = cup.bracket;
  const names = cup.names || {};
  if (b.champion) node.append(el("p", "good cup-champion", t("cupChampion").replace("%p", names[b.champion] || b.champion)));
  if (b.repechage.length) {
    node.append(el("p", "hint cup-repechage", t("cupRepechage").replace("%p", b.repechage.map((p) => names[p] || p).join(", "))));
  }
  const rounds = el("div", "cup-rounds");
  for (const round of ORDER) {
    const matches = b.matches.filter((x) => x.round === round);
    if (!matches.length) continue;
    const col = el("section", "cup-round");
    col.dataset.round = round;
    col.append(el("h4", "", words().cupRounds[round] || round));
    const list = el("ul", "cup-matches");
    list.append(...matches.map((x) => matchNode(cup, x, me)));
    col.append(list);
    rounds.append(col);
  }
  node.append(rounds);
  return node;
}
