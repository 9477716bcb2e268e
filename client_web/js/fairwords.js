// The fairness check in plain words: each sentence says what one check of fairness.js
// verified ("All 7 cards you saw were committed before the cut ✓"), or, when it failed, what
// that means for the person (✗ and a plain explanation). The technical details (root, salts,
// proofs) are shown below them, folded (history.js).
import { cardsText } from "./cards.js";
import { t } from "./i18n.js";

const MARK = { true: "✓", false: "✗", null: "–" };
export const mark = (ok) => MARK[String(ok)];

const checkOf = (result, ...keys) => [...result.checks, result.chips].find((c) => c && keys.includes(c.key)) || null;
const fill = (text, values) => Object.entries(values).reduce((s, [k, v]) => s.split(`%${k}`).join(String(v)), text);

// false wins over true, true over null (not checked)
const merge = (a, b) => (a === false || b === false ? false : a === true || b === true ? true : null);

// Every card the person saw once: their own two (checked by their private proof), the board
// and the hands shown (checked by the record's openings). -> [{card, ok, where}]
export function cardsSeen(record, result, hole) {
  const items = [];
  const holeCheck = checkOf(result, "chkHole", "chkHoleUnknown");
  const add = (card, ok, where) => {
    const known = items.find((x) => x.card === card);
    if (known) known.ok = merge(known.ok, ok);
    else items.push({ card, ok, where });
  };
  for (const card of hole || []) add(card, holeCheck ? holeCheck.ok : null, "hole");
  const names = Object.fromEntries((record.players || []).map((p) => [p.seat, p.name]));
  for (const x of result.seen) add(x.card, x.ok, x.where === "board" ? "board" : names[x.seat] || `${t("seat")} ${x.seat}`);
  return items;
}

function whereText(where) {
  if (where === "hole") return t("fwInHand");
  if (where === "board") return t("fwOnBoard");
  return fill(t("fwInHandOf"), { p: where });
}

// -> {ok: true|false|null, text, why?}
function cardsSentence(record, result, hole) {
  const items = cardsSeen(record, result, hole);
  const sealed = result.commitment ? result.commitment === result.root : null;
  const shape = [checkOf(result, "chkOpenings"), checkOf(result, "chkPositions")].filter((c) => c && c.ok === false);
  const bad = items.filter((x) => x.ok === false);
  if (sealed === false) return { ok: false, text: t("fwSwapped"), why: t("fwSwappedWhy") };
  if (bad.length) {
    const list = bad.map((x) => `${cardsText([x.card])} (${whereText(x.where)})`).join(", ");
    const why = fill(t(bad.length > 1 ? "fwCardsBadWhy" : "fwCardBadWhy"), { list });
    return { ok: false, text: t("fwCardsBad"), why: `${why} ${t("fwDont")}` };
  }
  if (shape.length) {
    return { ok: false, text: t("fwCardsBad"), why: `${fill(t("fwCardsOdd"), { d: shape.map((c) => c.detail).join("; ") })} ${t("fwDont")}` };
  }
  if (!items.length) return { ok: null, text: t("fwCardsNone") };
  const open = items.filter((x) => x.ok === true);
  if (open.length < items.length) {
    return { ok: true, text: fill(t(sealed ? "fwCardsTable" : "fwCardsTableLate"), { n: open.length }) };
  }
  return { ok: true, text: fill(t(sealed ? "fwCards" : "fwCardsLate"), { n: items.length }) };
}

// The deck was sealed (hand_start's commitment) before the cut_prompt, and who cut it.
function cutSentence(record, result, entry, you) {
  if (!result.commitment) return { ok: null, text: t("fwCutLate") };
  if (result.commitment !== result.root) return { ok: false, text: t("fwSwapped"), why: t("fwSwappedWhy") };
  const cutter = entry.cutter ?? null;
  if (cutter !== null && cutter === you) {
    if (entry.myCut === undefined || entry.myCut === null) return { ok: true, text: t("fwCutYouTimeout") };
    if (entry.myCut % 52 !== result.cut) {
      return { ok: false, text: t("fwCutNotYours"), why: `${fill(t("fwCutNotYoursWhy"), { c: entry.myCut % 52, r: result.cut })} ${t("fwDont")}` };
    }
    return { ok: true, text: fill(t("fwCutYou"), { c: result.cut }) };
  }
  const player = (record.players || []).find((p) => p.seat === cutter);
  if (!player) return { ok: true, text: t("fwCutRight") };
  return { ok: true, text: fill(t("fwCutOther"), { p: player.name }) };
}

function holeSentence(result, record) {
  const check = checkOf(result, "chkHole", "chkHoleUnknown");
  if (!check) return null; // not dealt in: nothing of ours to check
  // (five-card draw: five cards dealt, and those drawn)
  if (check.ok === true) return { ok: true, text: t(record.game === "draw" ? "fwHoleDraw" : "fwHole") };
  if (check.ok === false) return { ok: false, text: t("fwHoleBad"), why: `${check.detail}. ${t("fwDont")}` };
  return { ok: null, text: t("fwHoleNone") };
}

// One check said in one sentence; `detail`: its technical detail explains a failure.
function simple(result, key, [good, badKey, noneKey], detail = true) {
  const check = checkOf(result, key, `${key}Unavailable`);
  if (!check) return null;
  if (check.ok === true) return { ok: true, text: t(good) };
  if (check.ok === false) return { ok: false, text: t(badKey), why: `${detail && check.detail ? `${check.detail}. ` : ""}${t("fwDont")}` };
  return noneKey ? { ok: null, text: t(noneKey) } : null;
}

// The sentences of one checked record, in the order a person reads them.
// entry: what this page kept of the hand (commitment, cutter, myCut, hole, proof).
export function plainSentences(record, result, entry, you) {
  const said = [
    ["cards", cardsSentence(record, result, entry.hole)],
    ["cut", cutSentence(record, result, entry, you)],
    ["hole", holeSentence(result, record)],
    ["signed", simple(result, "chkSignature", ["fwSigned", "fwSignedBad", "fwSignedNone"], false)],
    ["secret", simple(result, "chkNoRabbit", ["fwSecret", "fwSecretBad", null])],
    ["chips", simple(result, "chkChips", ["fwChips", "fwChipsBad", null])],
  ];
  return said.filter(([, s]) => s).map(([key, s]) => ({ key, ...s }));
}
