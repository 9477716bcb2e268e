// The lobby: create a table for friends (and copy its invite link), join by a pasted link,
// the tables this browser knows, and the server's tournaments (register, open).
import { fill } from "./cash_forms.js";
import { $, button, el } from "./dom.js";
import { errorText, fmt, t, words } from "./i18n.js";
import { createTable } from "./net.js";
import { KEY, loadJSON, saveJSON, store } from "./store.js";
import { lateWaitText } from "./tournament_clock.js";
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
  renderCashFields();
  renderTournamentList();
}

// ------------------------------------------------------------------ a cash table's fields

// (five-card draw is dealt at cash tables only: its form is the cash form, with a structure)
const isCash = () => ["cash", "draw"].includes($("c-game").value);
const isDrawGame = () => $("c-game").value === "draw";
const blindsChosen = () => $("c-blinds").value.split("/").map(Number);

// The server's defaults (server/cash/rules.py): the casino's 20 and 100 big blinds by
// multiples of the small blind; fpc's 500 to 5,000, 5,000 a session, no rake.
function cashDefaults() {
  const [sb, bb] = blindsChosen();
  // fpc « LE FIVE-CARD DRAW »: « La cave est de 5 000 jetons », one amount
  if ($("c-profile").value === "fpc" && isDrawGame()) return { min: 5000, max: 5000, cap: 5000, sb: 50, fpc: true };
  if ($("c-profile").value === "fpc") return { min: 500, max: 5000, cap: 5000, sb: 25, fpc: true };
  return { min: 20 * bb, max: 100 * bb, sb, fpc: false };
}

// The profile's words (a cash table: its book's cash rules), the limits filled with the
// defaults until the host types his own, the rake where the book has one.
function renderCashFields() {
  const profile = $("c-profile").value;
  const cash = isCash();
  const cashWords = words().cashProfiles;
  const fpcDraw = profile === "fpc" && isDrawGame(); // fpc « LE FIVE-CARD DRAW »
  $("c-profile-hint").textContent = fpcDraw ? t("drawFpc") : cash
    ? cashWords[profile] || cashWords.other
    : words().profiles[profile] || "";
  $("c-cash").hidden = !cash;
  $("c-structure-box").hidden = !isDrawGame();
  $("c-stack-box").hidden = cash; // a cash table has buy-ins, not a starting stack
  if (!cash) return;
  const d = cashDefaults();
  for (const [id, value] of [["c-min", d.min], ["c-max", d.max]]) {
    const input = $(id);
    if (!input.value || input.dataset.auto === "1") {
      input.value = String(value);
      input.dataset.auto = "1";
    }
    input.step = String(d.sb);
  }
  $("c-limits-hint").textContent = fpcDraw ? t("drawCave") : d.fpc ? fill("cashLimitsFpc", d) : fill("cashLimitsHint", d);
  $("c-rake-box").hidden = d.fpc;
  $("c-rake-cap-box").hidden = d.fpc;
  $("c-rake-hint").hidden = d.fpc;
}

// What is wrong with the form, said on the page: [the field, the words] or null.
function formProblem() {
  const label = (id) => $(id).closest("label").querySelector("span").textContent;
  const whole = (id, min, max) => {
    const n = Number($(id).value);
    if ($(id).value !== "" && Number.isInteger(n) && n >= min && n <= max) return null;
    const key = max === Infinity ? "fieldMin" : "fieldRange";
    return [id, fill(key, { label: label(id), min, max: max === Infinity ? 0 : max })];
  };
  const [sb, bb] = blindsChosen();
  const checks = [() => whole("c-seats", 2, 10), () => whole("c-clock", 5, 3600)];
  if (!isCash()) checks.push(() => whole("c-stack", Math.max(100, bb), 10 ** 9));
  if (isCash()) {
    const unit = $("c-profile").value === "fpc" ? 25 : sb;
    const multiple = (id) => (Number($(id).value) % unit ? [id, fill("limitUnit", { label: label(id), sb: unit })] : null);
    checks.push(
      () => whole("c-min", bb, 10 ** 9),
      () => whole("c-max", bb, 10 ** 9),
      () => multiple("c-min"),
      () => multiple("c-max"),
      () => (Number($("c-min").value) > Number($("c-max").value) ? ["c-min", fill("minOverMax", { min: Number($("c-min").value), max: Number($("c-max").value) })] : null),
      () => {
        const rake = Number($("c-rake").value || 0);
        return $("c-rake-box").hidden || (rake >= 0 && rake <= 10) ? null : ["c-rake", fill("fieldRange", { label: label("c-rake"), min: 0, max: 10 })];
      },
      () => ($("c-rake-cap-box").hidden ? null : whole("c-rake-cap", 0, 10 ** 9)),
    );
  }
  for (const check of checks) {
    const found = check();
    if (found) return found;
  }
  return null;
}

function lobbyCreate() {
  for (const node of document.querySelectorAll("#create-form [aria-invalid]")) node.removeAttribute("aria-invalid");
  const problem = formProblem();
  $("create-problem").textContent = problem ? problem[1] : "";
  if (problem) {
    $(problem[0]).setAttribute("aria-invalid", "true");
    $(problem[0]).focus();
    return;
  }
  const [sb, bb] = blindsChosen();
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
  if (isCash()) {
    // a cash table (docs/cash.md): buy-ins within the limits, 20 and 100 big blinds by default;
    // five-card draw (docs/protocol.md "Five-card draw") with its structure
    message.game = $("c-game").value;
    if (isDrawGame() && $("c-structure").value !== "no_limit") message.structure = $("c-structure").value;
    if ($("c-min").value) message.min_buy_in = Number($("c-min").value);
    if ($("c-max").value) message.max_buy_in = Number($("c-max").value);
    if (!$("c-rake-box").hidden) {
      message.rake_permille = Math.round(Number($("c-rake").value || 0) * 10); // % -> per thousand
      message.rake_cap = Number($("c-rake-cap").value || 0);
    }
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
  // a started tournament says what it waits for and until when (issue 29), as its page does
  const late = lateWaitText(x, x.late_left ?? 0, false);
  if (late) meta.append(el("span", "t-late-wait", late));
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
  for (const id of ["c-profile", "c-game", "c-blinds"]) $(id).addEventListener("change", () => store.update());
  for (const id of ["c-min", "c-max"]) $(id).addEventListener("input", () => delete $(id).dataset.auto);
  $("create-form").addEventListener("input", (event) => {
    event.target.removeAttribute("aria-invalid"); // corrected: the words about it go
    if ($("create-problem").textContent) $("create-problem").textContent = "";
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
