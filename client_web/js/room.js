// A room of cash tables in the page (docs/protocol.md, "A room of cash tables"): the room's
// tables as the server lists them, the host's orders (add a table, balance, merge), a
// player's change of table, and following a move to the new table in this page. Nothing here
// decides a rule: who moves, with what stack, and whether the host must agree are the
// server's (server/gateway/cash_room.py).
import { hostOrder, hostToken } from "./cash.js";
import { $, el, fillSelect, show } from "./dom.js";
import { colon, errorText, fmt, t } from "./i18n.js";
import { inviteLink, rememberTable } from "./lobby.js";
import { restoreLog, say } from "./log.js";
import { command, createTable } from "./net.js";
import { KEY, freshTable, loadJSON, saveJSON, store } from "./store.js";
import { changed, showError } from "./ui.js";

const REFRESH_MS = 5000; // the other tables' free seats change without a word to this one

// A token that opens the room's listing: our seat's, the host's, or the invite.
const roomToken = (s) => localStorage.getItem(KEY.seat(s.table)) || hostToken(s) || s.invite;

// The room's tables other than the one shown.
export const otherTables = (s) => (s.room.for === s.table ? s.room.tables.filter((x) => x.table !== s.table) : []);

// A room table's name (its id when the page does not know it yet).
export function roomName(s, table) {
  const found = s.room.tables.find((x) => x.table === table);
  if (found) return found.name;
  return table === s.table && s.t.config ? s.t.config.name : table;
}

export async function loadRoom() {
  const s = store.state;
  const table = s.table;
  const token = roomToken(s);
  if (!table || !token || s.room.loading) return;
  s.room.loading = true;
  let data = null;
  try {
    const url = `/api/tables/${encodeURIComponent(table)}/room?t=${encodeURIComponent(token)}`;
    const response = await fetch(url);
    if (response.ok) data = await response.json();
  } catch {
    // offline for a moment: the next refresh asks again
  }
  const byName = (a, b) => a.name.localeCompare(b.name, undefined, { numeric: true });
  store.update((st) => {
    st.room.loading = false;
    st.room.at = performance.now();
    if (st.table !== table) return;
    st.room.for = table;
    st.room.room = data ? data.room : "";
    st.room.tables = data && Array.isArray(data.tables) ? data.tables.slice().sort(byName) : [];
  });
}

// ------------------------------------------------------------------ following a move

// The server moved us (the host's balance, merge or move, or our own change): our seat at the
// old table is gone (written moved_out; its `seat` `left` may come before or after this, and
// after it is another table's event, dropped), the new table's snapshot and `seated` (with
// its seat token) follow on this connection. The page shows the new table in place,
// its address the new table's invite, and says in the log why we moved.
export function followMove(msg) {
  const s = store.state;
  const fromName = s.t.config ? s.t.config.name : msg.from_table;
  const name = s.room.tables.some((x) => x.table === msg.table) ? roomName(s, msg.table) : "";
  const turnNo = s.t.turnNo;
  localStorage.removeItem(KEY.seat(msg.from_table || s.table)); // that seat is gone (moved_out)
  s.table = msg.table;
  s.invite = msg.invite;
  s.t = freshTable(msg.table);
  s.t.turnNo = turnNo;
  s.t.log = restoreLog(msg.table);
  s.ui.wasMyTurn = false;
  s.net.usingSeatToken = false;
  s.error = "";
  s.room.asked = "";
  s.room.for = ""; // the listing again, with the new table's token
  for (const id of ["buyin-form", "add-form", "change-form"]) $(id).hidden = true;
  if ($("ledger-panel").open) $("ledger-panel").close();
  $("host-sb").value = "";
  $("host-bb").value = "";
  if ($("history").open) $("history").close();
  history.replaceState(null, "", inviteLink(msg.table, msg.invite));
  say("roomMove", { table: msg.table, name, from: msg.from_table, fromName, reason: msg.reason });
}

// ------------------------------------------------------------------ the host

// A cash table of this room with this table's settings (docs/protocol.md: `create` with
// `room`, the host token); its host token is kept as the lobby keeps a created table's.
async function addTable() {
  const s = store.state;
  const cfg = s.t.config;
  const cash = s.t.cash;
  const token = hostToken(s);
  if (!cfg || !cash || !token) return;
  if (s.room.for !== s.table) await loadRoom();
  const first = s.room.tables.find((x) => x.table === s.room.room);
  const base = first ? first.name : cfg.name;
  const settings = loadJSON(KEY.settings(s.table), { approval: false });
  const [sb, bb, ante] = cfg.blinds;
  const message = {
    name: `${base.slice(0, 36)} ${Math.max(2, s.room.tables.length + 1)}`,
    profile: cfg.profile,
    sb,
    bb,
    ante: ante || 0,
    ante_format: cfg.ante_format || "none",
    max_seats: cfg.max_seats,
    starting_stack: Math.max(10000, bb),
    action_seconds: cfg.actionSeconds,
    // a room deals one game (fpc « Les caves sont spécifiques à chaque jeu »): five-card
    // draw's tables add draw tables, with the same betting
    game: s.t.game === "draw" ? "draw" : "cash",
    ...(s.t.game === "draw" ? { structure: s.t.structure } : {}),
    min_buy_in: cash.min_buy_in,
    max_buy_in: cash.max_buy_in,
    rake_permille: cash.rake_permille || 0,
    rake_cap: cash.rake_cap || 0,
    run_it: cash.run_it || 1,
    approval: Boolean(cash.approval ?? settings.approval), // the server's word first
    room: token,
  };
  $("room-add").disabled = true;
  try {
    const msg = await createTable(message);
    if (msg.host) localStorage.setItem(KEY.host(msg.table), msg.host); // its host token
    saveJSON(KEY.settings(msg.table), settings);
    rememberTable(msg.table, message.name, msg.invite);
    store.update((st) => {
      st.room.created = { table: msg.table, name: message.name, link: inviteLink(msg.table, msg.invite) };
    });
    $("room-copy").textContent = t("copy");
    loadRoom();
  } catch (err) {
    showError(errorText(err.code, err.message, store.state.lang));
  } finally {
    $("room-add").disabled = false;
  }
}

// "Jeudi 2 · 25/50 · 3 free seats" (a full table: "full")
function tableLabel(x) {
  const free = x.max_seats - x.players;
  const seats = free > 0 ? t("freeSeatsN").replace("%n", fmt(free)) : t("tableFull");
  return `${x.name} · ${fmt(x.blinds[0])}/${fmt(x.blinds[1])} · ${seats}`;
}

function renderHostRoom(s, others) {
  const isHost = Boolean(hostToken(s)) && s.mode === "table" && Boolean(s.t.cash);
  if (!show($("room-host"), isHost)) return;
  const tables = s.room.for === s.table ? s.room.tables : [];
  if (changed("room-tables", [s.table, tables])) {
    $("room-tables").replaceChildren(
      ...tables.map((x) => {
        const li = el("li", x.table === s.table ? "here" : "", `${x.name} · ${fmt(x.players)}/${fmt(x.max_seats)}`);
        li.dataset.table = x.table;
        return li;
      }),
    );
    fillSelect($("room-merge-to"), others.map((x) => [x.table, tableLabel(x)]));
  }
  show($("room-balance"), others.length > 0);
  show($("room-merge"), others.length > 0);
  const created = s.room.created;
  if (show($("room-created"), Boolean(created))) {
    $("room-created-name").textContent = colon(created.name);
    $("room-link").value = created.link;
    $("room-open").href = created.link;
  }
}

// ------------------------------------------------------------------ a player's change

function renderChange(s, others) {
  const tb = s.t;
  const seated = s.mode === "table" && Boolean(tb.cash) && tb.you !== null && Boolean(tb.seats[tb.you]);
  const can = seated && others.length > 0;
  show($("change-open"), can);
  if (!can) $("change-form").hidden = true;
  if (changed("room-change", [s.table, others])) {
    fillSelect($("change-to"), others.map((x) => [x.table, tableLabel(x), { free: String(x.max_seats - x.players) }]));
    for (const option of $("change-to").options) option.disabled = option.dataset.free === "0";
  }
  // casino cash: « il devra obtenir l'accord du superviseur » (the host agrees, a seat fee
  // again); fpc cash: « il doit poser aussitôt ses jetons à sa nouvelle place » (at once)
  const atOnce = tb.config && tb.config.profile === "fpc";
  $("change-ok").textContent = atOnce ? t("changeNow") : t("changeAsk");
  $("change-hint").textContent = atOnce ? t("changeHintNow") : t("changeHintHost");
  const asked = s.room.asked && seated;
  if (show($("change-asked"), Boolean(asked))) {
    $("change-asked").textContent = t("changeAsked").replace("%t", roomName(s, s.room.asked));
  }
}

// Whether the listing is to be asked again: for another table, or this table's players
// changed since (at most every 3 s).
function stale(s) {
  if (s.room.for !== s.table) return true;
  const here = s.room.tables.find((x) => x.table === s.table);
  const players = Object.keys(s.t.seats).length;
  return Boolean(here) && here.players !== players && performance.now() - s.room.at > 3000;
}

export function renderRoom(s) {
  if (s.mode === "table" && s.t.cash && !s.room.loading && stale(s)) loadRoom();
  const others = otherTables(s);
  renderHostRoom(s, others);
  renderChange(s, others);
}

export function setupRoom() {
  $("room-add").addEventListener("click", addTable);
  $("room-balance").addEventListener("click", () => hostOrder("balance"));
  $("room-merge").addEventListener("submit", (event) => {
    event.preventDefault();
    const to = $("room-merge-to").value;
    if (to) hostOrder("merge", { to });
  });
  $("room-copy").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText($("room-link").value);
    } catch {
      $("room-link").select(); // no clipboard (http, or refused): select it to copy by hand
    }
    $("room-copy").textContent = t("copied");
  });
  $("change-open").addEventListener("click", () => {
    $("change-form").hidden = !$("change-form").hidden;
    if (!$("change-form").hidden) loadRoom(); // the free seats of now
  });
  $("change-cancel").addEventListener("click", () => {
    $("change-form").hidden = true;
  });
  $("change-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const to = $("change-to").value;
    if (!to) return;
    $("change-form").hidden = true;
    const id = command("change_table", { to });
    const s = store.state;
    // at the casino the host decides: the page says it waits (a refusal clears it)
    if (id !== null && !(s.t.config && s.t.config.profile === "fpc")) {
      store.update((st) => {
        st.room.asked = to;
        st.room.askId = id;
      });
    }
  });
  setInterval(() => {
    const s = store.state;
    if (s.mode === "table" && s.t.cash && !document.hidden) loadRoom();
  }, REFRESH_MS);
}
