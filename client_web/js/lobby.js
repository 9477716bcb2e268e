// The lobby: create a table for friends (and copy its invite link), join by a pasted link,
// the tables this browser knows, and the server's tournaments (register, open).
import { $, button, el } from "./dom.js";
import { errorText, fmt, t, words } from "./i18n.js";
import { createTable } from "./net.js";
import { KEY, loadJSON, saveJSON, store } from "./store.js";
import { badgeNode, changed, showError } from "./ui.js";

export const inviteLink = (table, invite) =>
  `${location.origin}/?table=${encodeURIComponent(table)}&invite=${encodeURIComponent(invite)}`;

export function rememberTable(table, name, invite) {
  if (!table || !invite) return;
  const tables = loadJSON(KEY.tables, []).filter((x) => x.table !== table);
  tables.unshift({ table, name: name || table, invite, at: Date.now() });
  saveJSON(KEY.tables, tables.slice(0, 20));
}

export function renderLobby() {
  $("title").textContent = t("lobbyTitle");
  document.title = `Brasseur — ${t("lobbyTitle")}`;
  const tables = loadJSON(KEY.tables, []);
  if (changed("my-tables", tables)) {
    const list = $("my-tables");
    list.replaceChildren();
    if (!tables.length) list.append(el("li", "hint", t("noTables")));
    for (const x of tables) {
      const item = el("li");
      const a = el("a", "", x.name);
      a.href = inviteLink(x.table, x.invite);
      a.dataset.table = x.table;
      item.append(a, el("span", "muted", ` ${x.table}`));
      list.append(item);
    }
  }
  if (!$("c-name").value) $("c-name").placeholder = t("defaultTableName");
  $("c-profile-hint").textContent = words().profiles[$("c-profile").value] || "";
  renderTournamentList();
}

function lobbyCreate() {
  const [sb, bb] = $("c-blinds").value.split("/").map(Number);
  const message = {
    t: "create",
    name: $("c-name").value.trim() || t("defaultTableName"),
    profile: $("c-profile").value,
    sb,
    bb,
    max_seats: Math.max(2, Math.min(10, Number($("c-seats").value) || 9)),
    starting_stack: Math.max(bb, Number($("c-stack").value) || 10000),
    action_seconds: Math.max(1, Math.min(3600, Number($("c-clock").value) || 30)),
    approval: $("c-approval").checked,
  };
  if ($("c-game").value === "cash") {
    // a cash table (docs/cash.md): buy-ins within the limits, 20 and 100 big blinds by default
    message.game = "cash";
    if ($("c-min").value) message.min_buy_in = Number($("c-min").value);
    if ($("c-max").value) message.max_buy_in = Number($("c-max").value);
    // opening hours (fpc cash: « Les tables ouvrent à partir de 20h00 et ferment à 23h30
    // précise »), in this browser's time zone
    if ($("c-opens").value && $("c-closes").value) {
      message.hours = `${$("c-opens").value}-${$("c-closes").value}`;
      message.zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "Europe/Paris";
    }
  }
  if ($("c-runs").checked) message.run_it = 2; // any table: both players all-in must agree
  $("create").disabled = true;
  createTable(message)
    .then((msg) => {
      const link = inviteLink(msg.table, msg.invite);
      if (msg.host) localStorage.setItem(KEY.host(msg.table), msg.host); // our host token
      saveJSON(KEY.settings(msg.table), { approval: message.approval }); // a room's next table asks the same
      rememberTable(msg.table, message.name, msg.invite);
      $("created-link").value = link;
      $("open-table").href = link;
      $("created").hidden = false;
      store.update();
    })
    .catch((msg) => showError(errorText(msg.code, msg.message, store.state.lang)))
    .finally(() => {
      $("create").disabled = false;
    });
}

export async function loadTournaments() {
  let list;
  try {
    const response = await fetch("/api/tournaments");
    list = response.ok ? await response.json() : [];
  } catch {
    return; // offline for a moment: the next refresh tries again
  }
  store.update((s) => {
    s.lobby.tournaments = list;
  });
}

function registerFromLobby(link, id) {
  if (!store.state.nick) {
    showError(t("nickFirst"));
    $("nick-form").hidden = false;
    $("nick").focus();
    return;
  }
  sessionStorage.setItem(KEY.register(id), "1"); // the tournament's page registers us
  location.href = link;
}

function tournamentItem(x) {
  const item = el("li", "t-item");
  item.dataset.tournament = x.id;
  const head = el("div", "t-name");
  head.append(el("strong", "", x.name || x.id), el("span", "muted", ` ${x.id}`));
  const meta = el("div", "t-meta");
  meta.append(badgeNode(el, `phase phase-${x.phase}`, words().phases[x.phase] || x.phase, x.phase));
  meta.append(el("span", "", `${fmt(x.entries ?? 0)} ${t("entries")}`));
  if (x.phase !== "registering" && x.phase !== "finished") {
    meta.append(el("span", "", `${t("playersLeft")} ${fmt(x.players_left ?? 0)}`));
    if (x.level) meta.append(el("span", "", `${t("level")} ${x.level}`));
  }
  const actions = el("div", "row");
  const link = `/?tournament=${encodeURIComponent(x.id)}`;
  if (loadJSON(KEY.tournament(x.id), null)) {
    actions.append(el("span", "good", `✓ ${t("registeredMark")}`));
  } else if (x.phase === "registering" || x.late_registration) {
    actions.append(button("primary register", t("register"), () => registerFromLobby(link, x.id)));
  }
  const open = el("a", "button open", t("openTournament"));
  open.href = link;
  actions.append(open);
  item.append(head, meta, actions);
  return item;
}

function renderTournamentList() {
  const s = store.state;
  const list = s.lobby.tournaments;
  if (!changed("lobby", [list, s.nick])) return;
  const ul = $("t-list");
  ul.replaceChildren();
  if (!list) return;
  if (!list.length) ul.append(el("li", "hint", t("noTournaments")));
  ul.append(...list.map(tournamentItem));
}

export function setupLobby() {
  $("create-form").addEventListener("submit", (event) => {
    event.preventDefault();
    lobbyCreate();
  });
  $("c-profile").addEventListener("change", () => store.update());
  $("c-game").addEventListener("change", () => {
    $("c-cash").hidden = $("c-game").value !== "cash";
  });
  $("copy-link").addEventListener("click", async () => {
    const link = $("created-link").value;
    try {
      await navigator.clipboard.writeText(link);
    } catch {
      $("created-link").select(); // no clipboard (http, or refused): select it to copy by hand
    }
    $("copy-link").textContent = t("copied");
  });
  $("join-form").addEventListener("submit", (event) => {
    event.preventDefault();
    let url;
    try {
      url = new URL($("join-link").value.trim(), location.origin);
    } catch {
      url = null;
    }
    const table = url && url.searchParams.get("table");
    const invite = url && url.searchParams.get("invite");
    if (!table || !invite) {
      showError(t("badLink"));
      return;
    }
    location.href = inviteLink(table, invite); // always this server: the link's host may differ
  });
}
