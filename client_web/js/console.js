// The director's console (?tournament=ID&director=TOKEN): start, pause and resume the clock,
// close late registration (issue 29: what the tournament waits for is said above it),
// the spectators' rail (live, or a hand behind with the hole cards for a commentary), move a
// player, sanctions, stack corrections, rulings on players' calls, and the folded hands of a
// table (collusion check, cdc 10.6). Every op is a `direct` message; the server refuses what
// it must, in words shown here.
import { cardNode } from "./cards.js";
import { $, button, el, fillSelect } from "./dom.js";
import { fmt, t, tableLabel, words } from "./i18n.js";
import { store } from "./store.js";
import { tsend } from "./tournament.js";
import { changed, clearError, showError } from "./ui.js";

function direct(op, fields = {}) {
  const T = store.state.tour;
  const id = tsend("direct", op, { token: T.director, op, ...fields });
  if (id === null) return;
  $("d-result").textContent = t("dSent").replace("%o", words().ops[op] || op);
  $("d-result").className = "d-result";
  clearError();
}

function consolePlayer() {
  const pid = $("d-player").value;
  if (!pid) showError(t("dNoPlayer"));
  return pid;
}

const text = (id) => $(id).value.trim() || undefined;
const number = (id) => {
  const v = $(id).value.trim();
  return v === "" ? undefined : Math.floor(Number(v));
};

export function setupConsole() {
  $("d-start").addEventListener("click", () => direct("start"));
  $("d-pause").addEventListener("click", () => direct("pause"));
  $("d-resume").addEventListener("click", () => direct("resume"));
  // cdc 1.8: the delay for latecomers is the organiser's; closed now, a tournament with
  // one player left ends at once (issue 29)
  $("d-close-late").addEventListener("click", () => {
    if (confirm(t("lateCloseConfirm"))) direct("close_late");
  });
  // the rail of every table (docs/protocol.md, "Sequence numbers, views and resync"): live
  // spectators never get a hole card; a commentary rail lags a hand and shows them
  $("d-rail").addEventListener("change", () => direct("spectators", { text: $("d-rail").value }));
  $("d-move").addEventListener("click", () => {
    const player = consolePlayer();
    const table = $("d-move-table").value;
    if (!player) return;
    if (!table) {
      showError(t("dNoTable"));
      return;
    }
    direct("move", { player, table, seat: number("d-seat") });
  });
  $("d-sanction").addEventListener("change", () => {
    $("d-hands").disabled = $("d-sanction").value !== "penalty";
  });
  $("d-hands").disabled = true;
  $("d-sanction-go").addEventListener("click", () => {
    const player = consolePlayer();
    if (!player) return;
    const op = $("d-sanction").value;
    const name = $("d-player").selectedOptions[0]?.dataset.name || player;
    if (op === "disqualify" && !confirm(t("dqConfirm").replace("%n", name))) return;
    direct(op, { player, text: text("d-sanction-text"), hands: op === "penalty" ? number("d-hands") : undefined });
  });
  $("d-adjust").addEventListener("click", () => {
    const player = consolePlayer();
    if (!player) return;
    // the reason is required: the server refuses a correction without one (and says so)
    direct("adjust", { player, amount: number("d-amount"), text: text("d-adjust-text") });
  });
  $("d-folded").addEventListener("click", () => {
    const table = $("d-folded-table").value;
    if (!table) {
      showError(t("dNoTable"));
      return;
    }
    store.update((s) => {
      s.tour.folded = null;
    });
    direct("folded", { table });
  });
}

function callItem([id, table, name, hand, why]) {
  const item = el("li", "d-call");
  item.dataset.call = String(id);
  const ruling = el("input");
  ruling.maxLength = 200;
  ruling.placeholder = t("dRuling");
  ruling.setAttribute("aria-label", t("dRuling"));
  const go = button("", t("dRule"), () => direct("rule", { amount: id, text: ruling.value.trim() || undefined }));
  item.append(
    el("span", "", `#${id} ${t("tableN").replace("%n", table)}${hand ? ` · ${t("dHandN").replace("%n", hand)}` : ""} — ${name}: ${why}`),
    ruling,
    go,
  );
  return item;
}

function renderPlayers(players) {
  fillSelect(
    $("d-player"),
    [...players]
      .sort((a, b) => a[1].localeCompare(b[1]))
      .map(([pid, name, table, seat, stack]) => [
        pid,
        `${name} — ${table ? `${tableLabel(table)}, ${t("seat").toLowerCase()} ${seat}` : "—"} — ${fmt(stack)}`,
        { name },
      ]),
  );
  $("d-players").tBodies[0].replaceChildren(
    ...[...players]
      .sort((a, b) => String(a[2]).localeCompare(String(b[2])) || a[3] - b[3])
      .map(([pid, name, table, seat, stack]) => {
        const row = el("tr");
        row.dataset.player = pid;
        row.dataset.stack = String(stack);
        row.append(el("td", "", name), el("td", "", table ? tableLabel(table) : "—"), el("td", "", seat ?? "—"),
          el("td", "num", fmt(stack)));
        return row;
      }),
  );
}

function renderFolded(folded) {
  const out = $("d-folded-out");
  out.replaceChildren();
  if (!folded) return;
  out.append(el("h3", "", `${tableLabel(folded.table)} — ${t("dFoldedTitle")}`));
  if (!folded.hands.length) out.append(el("p", "hint", t("foldedNone")));
  for (const hand of [...folded.hands].reverse()) {
    const item = el("div", "d-hand");
    item.dataset.hand = String(hand.hand);
    item.append(el("strong", "", `${t("handNo")} ${hand.hand}`));
    for (const [name, cards] of Object.entries(hand.holes || {})) {
      const who = el("span", "d-hole");
      const row = el("span", "cards small");
      row.append(...cards.map(cardNode));
      who.append(el("span", "", name), row);
      item.append(who);
    }
    out.append(item);
  }
}

export function renderConsole() {
  const s = store.state;
  const st = s.tour.state;
  if (!st) return;
  $("d-start").disabled = st.phase !== "registering";
  $("d-pause").disabled = Boolean(st.paused) || st.phase === "finished";
  $("d-resume").disabled = !st.paused || st.phase === "finished";
  const lateOpen = st.late_left !== null && st.late_left !== undefined && !["registering", "finished"].includes(st.phase);
  $("d-close-late").disabled = !lateOpen;
  $("d-close-late").hidden = !lateOpen; // (the row shows what may be done now)
  for (const group of document.querySelectorAll("#console .d-group")) group.disabled = st.phase === "finished";
  const rail = st.spectators || "live";
  $("d-rail").dataset.mode = rail; // as the server has it (the select may show a choice on its way)
  if (changed("d-rail", rail)) $("d-rail").value = rail;
  const calls = st.calls || [];
  if (changed("d-calls", calls)) $("d-calls").replaceChildren(...calls.map(callItem));
  const players = st.players || [];
  if (changed("d-players", players)) renderPlayers(players);
  const tables = st.tables || [];
  if (changed("d-tables", tables)) {
    for (const select of document.querySelectorAll(".d-table")) {
      fillSelect(select, tables.map(([name, n]) => [name, `${tableLabel(name)} (${n})`]));
    }
  }
  if (changed("d-folded", s.tour.folded)) renderFolded(s.tour.folded);
}
