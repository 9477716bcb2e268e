// The live table's way to act: say it ("relance à 4000", "tapis", "parole"...) and push chips
// from the tray, in one motion or apart (cdc 9.4). The server applies the profile's rules to
// what was said and pushed; the page only shows what it will send.
import { act, myChoices } from "./controls.js";
import { parseDeclaration } from "./declare.js";
import { $, button, el, show } from "./dom.js";
import { myStack } from "./events.js";
import { fmt, t, words } from "./i18n.js";
import { store } from "./store.js";
import { showError } from "./ui.js";

const CHIP_COLOURS = { 1: "white", 5: "red", 25: "green", 100: "black", 500: "purple", 1000: "yellow", 5000: "orange", 25000: "blue", 100000: "grey" };

function chipNode(value, tag = "button") {
  const chip = el(tag, `chip chip-${CHIP_COLOURS[value] || "grey"}`, value >= 1000 ? `${value / 1000}k` : String(value));
  chip.dataset.value = String(value);
  if (tag === "button") chip.type = "button";
  return chip;
}

function renderTray(tb, enabled) {
  const denominations = (tb.config && tb.config.denominations) || [];
  const staged = tb.tray.reduce((a, b) => a + b, 0);
  const left = myStack(tb) - staged;
  $("tray-chips").replaceChildren(
    ...denominations.map((value) => {
      const chip = chipNode(value);
      chip.disabled = !enabled || value > left;
      chip.title = fmt(value);
      chip.setAttribute("aria-label", `${t("chipOf")} ${fmt(value)}`);
      chip.addEventListener("click", () => store.now(() => tb.tray.push(value)));
      return chip;
    }),
  );
  const counts = {};
  for (const v of tb.tray) counts[v] = (counts[v] || 0) + 1;
  $("tray-staged").replaceChildren(
    ...Object.keys(counts).map(Number).sort((a, b) => b - a).map((v) => {
      const group = button("staged", "", () => store.now(() => tb.tray.splice(tb.tray.lastIndexOf(v), 1)));
      group.dataset.value = String(v);
      group.append(chipNode(v, "span"), el("span", "count", `× ${counts[v]}`));
      return group;
    }),
  );
  $("tray-total").textContent = staged ? `= ${fmt(staged)}` : "";
  $("push").disabled = !enabled || !staged;
  $("tray-clear").disabled = !staged;
}

// What a parsed declaration will send, in words: "→ relance à 4 000", "→ montant « 5 »".
function sayText(d) {
  const w = words().said;
  if (d.amount === undefined) return `→ ${w[d.verb]}`;
  const amount = d.form === "abbreviated" ? `« ${d.amount} »` : fmt(d.amount);
  if (d.verb === "raise" || d.verb === "bet") {
    const verb = d.form === "plus" ? w.plus : d.verb === "raise" ? w.raiseTo : w.bet;
    return `→ ${verb} ${amount}`;
  }
  return `→ ${w[d.verb]} ${amount}`;
}

const bigBlind = () => (store.state.t.config ? store.state.t.config.blinds[1] : 100);

function updatePreview() {
  const tb = store.state.t;
  const text = $("declare").value;
  const d = text.trim() ? parseDeclaration(text, bigBlind()) : null;
  let preview = text.trim() ? (d ? sayText(d) : `✗ ${t("notUnderstood")}`) : "";
  if (d && tb.tray.length) preview += ` + ${fmt(tb.tray.reduce((a, b) => a + b, 0))} (${t("withChips")})`;
  $("declare-preview").textContent = preview;
}

export function renderTalk(s, c, inHand) {
  const tb = s.t;
  const talk = tb.you !== null && inHand && tb.phase === "betting" && tb.dealt.has(tb.you) &&
    !tb.folded.has(tb.you) && !tb.allin.has(tb.you);
  if (!show($("talk"), talk)) return;
  $("declare").disabled = !c;
  $("declare-send").disabled = !c;
  renderTray(tb, Boolean(c));
  updatePreview();
}

export function setupTalk() {
  $("declare").addEventListener("input", updatePreview);
  $("declare-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const tb = store.state.t;
    const d = parseDeclaration($("declare").value, bigBlind());
    if (!d) {
      showError(`${t("notUnderstood")}: « ${$("declare").value} » — ${t("declareHint")}`);
      return;
    }
    if (!myChoices(tb)) return;
    // said and pushed in one motion: the declaration with the chips of the tray, if any
    const fields = { ...d };
    if (tb.tray.length) fields.chips = [...tb.tray];
    if (act(fields) !== null) {
      $("declare").value = "";
      store.now(() => {
        tb.tray = [];
      });
    }
  });
  $("push").addEventListener("click", () => {
    const tb = store.state.t;
    if (!tb.tray.length || !myChoices(tb)) return;
    if (act({ chips: [...tb.tray] }) !== null) store.now(() => (tb.tray = []));
  });
  $("tray-clear").addEventListener("click", () => store.now((s) => (s.t.tray = [])));
}
