// A cash table in the page (docs/cash.md): the runs of the board, run it twice, adding
// chips, the ledger, and the host's panel (approve players, pause, new blinds). Nothing here
// computes a rule: the limits, the ledger and the runs are the server's.
import { cardNode } from "./cards.js";
import { fill, renderCashForms, setupCashForms } from "./cash_forms.js";
import { $, button, el, show } from "./dom.js";
import { fmt, t } from "./i18n.js";
import { command } from "./net.js";
import { renderOption, setupOption } from "./option.js";
import { KEY, store } from "./store.js";
import { showError } from "./ui.js";

export const hostToken = (s) => (s.table ? localStorage.getItem(KEY.host(s.table)) : null);

export function hostOrder(op, fields = {}) {
  const s = store.state;
  command("host", { token: hostToken(s), op, ...fields });
}

// The ledger as the server writes it (CSV): each player's buy-ins, cash-outs, stack and net.
async function openLedger() {
  const s = store.state;
  const token = localStorage.getItem(KEY.seat(s.table)) || hostToken(s) || s.invite;
  const url = `/api/tables/${encodeURIComponent(s.table)}/ledger.csv?t=${encodeURIComponent(token)}`;
  let text;
  try {
    const response = await fetch(url);
    if (!response.ok) throw new Error(String(response.status));
    text = await response.text();
  } catch (err) {
    showError(`${t("ledger")}: ${err.message}`);
    return;
  }
  const [lines, totals = ""] = text.split("\n\n");
  const rows = totals.trim().split("\n").slice(1).map((line) => line.split(","));
  const head = el("tr");
  for (const key of ["ledgerPlayer", "ledgerBought", "ledgerOut", "ledgerOnTable", "ledgerNet"]) head.append(el("th", "", t(key)));
  const body = rows.map(([, name, bought, out, onTable, net]) => {
    const tr = el("tr");
    tr.dataset.player = name;
    for (const value of [name, fmt(Number(bought)), fmt(Number(out)), fmt(Number(onTable)), fmt(Number(net))]) tr.append(el("td", "", value));
    return tr;
  });
  // what friends check before settling: every chip bought is on the table, cashed out or raked
  const sum = (i) => rows.reduce((total, row) => total + Number(row[i]), 0);
  const rakeLine = lines.split("\n").find((line) => line.split(",")[1] === "rake");
  const sums = { bought: sum(2), on: sum(4), out: sum(3), rake: rakeLine ? Number(rakeLine.split(",")[4]) : 0 };
  $("ledger-table").replaceChildren(head, ...body);
  $("ledger-totals").textContent = fill("ledgerTotals", sums);
  Object.assign($("ledger-totals").dataset, sums);
  $("ledger-csv").href = url;
  if (!$("ledger-panel").open) $("ledger-panel").showModal();
}

export function setupCash() {
  $("run-twice").addEventListener("click", () => {
    const tb = store.state.t;
    command("run_it", { hand: tb.hand, runs: tb.runIt > 1 ? tb.runIt : 2 });
    tb.runsOffer = null;
    store.update();
  });
  $("run-once").addEventListener("click", () => {
    const tb = store.state.t;
    command("run_it", { hand: tb.hand, runs: 1 });
    tb.runsOffer = null;
    store.update();
  });
  setupCashForms();
  $("ledger-open").addEventListener("click", openLedger);
  $("ledger-close").addEventListener("click", () => $("ledger-panel").close());
  setupOption();
  $("host-pause").addEventListener("click", () => {
    const s = store.state;
    s.t.paused = !s.t.paused;
    hostOrder(s.t.paused ? "pause" : "resume");
    store.update();
  });
  $("host-blinds").addEventListener("submit", (event) => {
    event.preventDefault();
    const [sb, bb] = [Number($("host-sb").value), Number($("host-bb").value)];
    // said on the page, not by a browser bubble (the server checks the rest: its limits)
    if (!(Number.isInteger(sb) && Number.isInteger(bb) && sb > 0 && bb >= sb)) {
      showError(t("blindsProblem"));
      return;
    }
    hostOrder("blinds", { sb, bb });
  });
}

function renderRuns(tb) {
  const rows = Object.keys(tb.runs).sort().map((run) => {
    const row = el("div", "cards run-board");
    row.dataset.run = run;
    row.append(el("span", "run-label", `${t("run")} ${run}`), ...tb.runs[run].map(cardNode));
    return row;
  });
  $("run-boards").replaceChildren(...rows);
}

// A casino player asks to change table (a `seat_request` with `to`): « il devra obtenir
// l'accord du superviseur » (casino cash); the host agrees with `move` or refuses (the
// player is told: a `notice` `change_refused`).
function changeRequest(s, seat, r) {
  const tb = s.t;
  const li = el("li", "host-request change-request");
  li.dataset.seat = seat;
  li.dataset.to = r.to;
  const found = s.room.tables.find((x) => x.table === r.to);
  const what = t("asksChange").replace("%p", r.player).replace("%t", found ? found.name : r.to);
  const drop = () => {
    delete tb.requests[seat];
    store.update();
  };
  li.append(
    el("span", "", what),
    button("small primary", t("approveChange"), () => {
      hostOrder("move", { seat: Number(seat), to: r.to });
      drop();
    }),
    button("small", t("refuse"), () => {
      hostOrder("refuse", { seat: Number(seat) });
      drop();
    }),
  );
  return li;
}

function renderHost(s) {
  const tb = s.t;
  const isHost = Boolean(hostToken(s)) && s.mode === "table";
  if (!show($("host-panel"), isHost)) return;
  const items = Object.entries(tb.requests).map(([seat, r]) => {
    if (r.to) return changeRequest(s, seat, r);
    const li = el("li", "host-request");
    li.dataset.seat = seat;
    const what = `${r.player} → ${t("seatWord")} ${seat}${r.buyIn ? ` (${fmt(r.buyIn)})` : ""}`;
    li.append(
      el("span", "", what),
      button("small primary", t("approve"), () => {
        hostOrder("approve", { seat: Number(seat) });
        delete tb.requests[seat];
        store.update();
      }),
      button("small", t("refuse"), () => {
        hostOrder("refuse", { seat: Number(seat) });
        delete tb.requests[seat];
        store.update();
      }),
    );
    return li;
  });
  $("host-requests").replaceChildren(...items);
  $("host-pause").textContent = tb.paused ? t("resume") : t("pause");
  if (tb.config && !$("host-sb").value) {
    $("host-sb").value = String(tb.config.blinds[0]);
    $("host-bb").value = String(tb.config.blinds[1]);
  }
}

export function renderCash(s) {
  const tb = s.t;
  renderRuns(tb);
  renderHost(s);
  const cash = tb.cash && s.mode === "table";
  const me = tb.you !== null ? tb.seats[tb.you] : null;
  show($("runs-offer"), Boolean(tb.runsOffer && tb.runsOffer === tb.hand && me));
  show($("ledger-open"), Boolean(cash));
  renderOption(s);
  renderCashForms(s);
}
