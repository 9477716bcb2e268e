// Fair dealing, checked in the browser: the construction of docs/fairness.md and
// protocol/verify.py (which stays the reference). A hand record opens the board cards and
// the hands shown; each opening's salted leaf hash, folded with its Merkle proof, must give
// the root that the server published (hand_start.commitment) before the cut and the deal.
import { checkDraw } from "./drawfair.js";

export const CARD_NAMES = [..."23456789TJQKA"].flatMap((r) => [..."cdhs"].map((s) => r + s));
const CARD_INDEX = Object.fromEntries(CARD_NAMES.map((name, i) => [name, i]));
const DECK = 52;
const LEAF_PREFIX = new TextEncoder().encode("brasseur-card\u0000"); // 14 bytes, NUL included
const HEX64 = /^[0-9a-f]{64}$/;
const HEX32 = /^[0-9a-f]{32}$/;
const HEX128 = /^[0-9a-f]{128}$/;

export function hexToBytes(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function bytesToHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

// ---------------------------------------------------------------- SHA-256

// WebCrypto where the page is a secure context (https, localhost); else a plain
// implementation (FIPS 180-4), so the check also works on http://192.168.x.y at home.
const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

export function sha256Plain(data) {
  const h = new Uint32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  const bits = data.length * 8;
  const padded = new Uint8Array(Math.ceil((data.length + 9) / 64) * 64);
  padded.set(data);
  padded[data.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(bits / 2 ** 32));
  view.setUint32(padded.length - 4, bits >>> 0);
  const w = new Uint32Array(64);
  const rotr = (x, n) => (x >>> n) | (x << (32 - n));
  for (let off = 0; off < padded.length; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(off + 4 * i);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) outView.setUint32(4 * i, h[i]);
  return out;
}

export async function sha256(data) {
  if (globalThis.crypto && crypto.subtle) {
    return new Uint8Array(await crypto.subtle.digest("SHA-256", data));
  }
  return sha256Plain(data);
}

// ---------------------------------------------------------------- the construction

// leaf_p = SHA-256("brasseur-card\0" || [p, card] || salt)
export function leafHash(position, card, salt) {
  return sha256(concat(LEAF_PREFIX, new Uint8Array([position, card]), salt));
}

// parent = SHA-256(0x01 || left || right)
export function nodeHash(left, right) {
  return sha256(concat(new Uint8Array([1]), left, right));
}

// The sides of the proof of `position` in a tree of `leaves` leaves, bottom up.
export function proofSides(position, leaves = DECK) {
  const sides = [];
  let index = position;
  let size = leaves;
  while (size > 1) {
    if (index % 2 === 1) sides.push("L");
    else if (index + 1 < size) sides.push("R");
    index = Math.floor(index / 2);
    size = Math.ceil(size / 2);
  }
  return sides;
}

export const holeSlots = (n) => Array.from({ length: n }, (_, i) => [i, n + i]);
export const burnSlots = (n) => [2 * n, 2 * n + 4, 2 * n + 6];
export const boardSlots = (n) => [2 * n + 1, 2 * n + 2, 2 * n + 3, 2 * n + 5, 2 * n + 7];
export const deckPosition = (cut, slot) => (cut + slot) % DECK;

// One opening {position, card, salt, proof}: null when it reaches the root, else the problem.
export async function checkOpening(opening, rootHex, expectedPosition = null) {
  if (!opening || typeof opening !== "object") return "not an object";
  const { position, card, salt, proof } = opening;
  if (!Number.isInteger(position) || position < 0 || position >= DECK) return "bad position";
  const where = `position ${position}`;
  if (!(card in CARD_INDEX)) return `${where}: bad card ${card}`;
  if (typeof salt !== "string" || !HEX32.test(salt)) return `${where}: bad salt`;
  if (!Array.isArray(proof)) return `${where}: proof is not a list`;
  for (const step of proof) {
    if (!Array.isArray(step) || step.length !== 2 || !["L", "R"].includes(step[0]) ||
        typeof step[1] !== "string" || !HEX64.test(step[1])) {
      return `${where}: malformed proof step`;
    }
  }
  if (proof.map((s) => s[0]).join("") !== proofSides(position).join("")) {
    return `${where}: the proof is not the path of position ${position}`;
  }
  if (expectedPosition !== null && expectedPosition !== position) {
    return `${where}: expected position ${expectedPosition}`;
  }
  let node = await leafHash(position, CARD_INDEX[card], hexToBytes(salt));
  for (const [side, sibling] of proof) {
    const other = hexToBytes(sibling);
    node = side === "L" ? await nodeHash(other, node) : await nodeHash(node, other);
  }
  if (bytesToHex(node) !== rootHex) return `${where}: ${card} with its salt and proof does not reach the root`;
  return null;
}

// ---------------------------------------------------------------- signature

function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

// Ed25519 over the canonical JSON of the record without "signature" (Python's
// json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=False)).
// -> true / false, or null when this browser cannot check Ed25519.
export async function checkSignature(record) {
  const { public_key: key, signature } = record;
  if (typeof key !== "string" || !HEX64.test(key)) return false;
  if (typeof signature !== "string" || !HEX128.test(signature)) return false;
  if (!(globalThis.crypto && crypto.subtle)) return null;
  const body = { ...record };
  delete body.signature;
  const message = new TextEncoder().encode(canonical(body));
  let imported;
  try {
    imported = await crypto.subtle.importKey("raw", hexToBytes(key), { name: "Ed25519" }, false, ["verify"]);
  } catch {
    return null; // no Ed25519 in this browser
  }
  try {
    return await crypto.subtle.verify({ name: "Ed25519" }, imported, hexToBytes(signature), message);
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------- a whole record

// Checks a signed hand record. `commitment`: the root this page received in hand_start (or
// null); `holeProof`: the private hole_proof of this hand (or null); `hole`: our own cards.
// -> {ok, checks: [{key, ok: true|false|null, detail}], chips: {key, ok, detail}, seen, root,
// commitment, cut}
// (ok null: could not be checked; `seen`: each board and shown card, opened where it was dealt)
export async function verifyRecord(record, { commitment = null, holeProof = null, seat = null, hole = null } = {}) {
  const checks = [];
  const root = typeof record.root === "string" && HEX64.test(record.root) ? record.root : null;
  const cut = Number.isInteger(record.cut) ? record.cut : null;
  const n = record.players_dealt;
  const slots = record.slots || {};

  // 1. every opening reaches the root along its own path
  const opened = new Map();
  const openProblems = [];
  const openings = Array.isArray(record.opened) ? record.opened : [];
  if (!root) openProblems.push("no root in the record");
  for (const opening of openings) {
    const problem = root ? await checkOpening(opening, root) : "no root";
    if (problem) openProblems.push(problem);
    else if (opened.has(opening.position)) openProblems.push(`position ${opening.position} opened twice`);
    else opened.set(opening.position, opening.card);
  }
  if (new Set(opened.values()).size !== opened.size) openProblems.push("a card is opened twice");
  checks.push({ key: "chkOpenings", ok: openProblems.length === 0, detail: openProblems.join("; ") || `${openings.length}` });

  // 2. the root is the commitment published before the cut
  if (commitment) {
    checks.push({ key: "chkCommitment", ok: commitment === root, detail: `${(root || "").slice(0, 16)}…` });
  } else {
    checks.push({ key: "chkCommitmentUnknown", ok: null, detail: `${(root || "").slice(0, 16)}…` });
  }

  // 3. board and shown cards sit where the deal put them; 4. nothing else is opened
  const posProblems = [];
  const seen = []; // each board and shown card: {card, where, seat, ok} (ok: opened where dealt)
  const allowed = new Set();
  const validN = Number.isInteger(n) && n >= 2 && n <= 22;
  const holeMap = slots.hole || {};
  if (!validN || cut === null) {
    posProblems.push("players_dealt or cut missing");
  } else if (record.game === "draw") {
    // five-card draw: its own deal, draws and stub (drawfair.js, as protocol/draw.py)
    const draw = await checkDraw(record, cut, opened);
    posProblems.push(...draw.problems);
    for (const p of draw.allowed) allowed.add(p);
    seen.push(...draw.seen);
  } else {
    if (JSON.stringify(slots.board) !== JSON.stringify(boardSlots(n))) posProblems.push("board slots are not the deal order");
    if (slots.burn && JSON.stringify(slots.burn) !== JSON.stringify(burnSlots(n))) posProblems.push("burn slots are not the deal order");
    const canonicalHoles = holeSlots(n).map((p) => p.join(",")).sort().join(" ");
    const given = Object.values(holeMap).map((p) => p.join(",")).sort().join(" ");
    if (canonicalHoles !== given) posProblems.push("hole slots are not the deal order");
    if (Array.isArray(record.deal_order)) {
      record.deal_order.forEach((s, i) => {
        const pair = holeMap[String(s)];
        if (!pair || pair[0] !== i || pair[1] !== n + i) posProblems.push(`seat ${s} is not dealt at its turn`);
      });
    }
    (record.board || []).forEach((card, i) => {
      const position = deckPosition(cut, boardSlots(n)[i]);
      allowed.add(position);
      const ok = opened.get(position) === card;
      seen.push({ card, where: "board", seat: null, ok });
      if (!ok) posProblems.push(`board card ${card} is not opened at position ${position}`);
    });
    for (const [s, cards] of Object.entries(record.shown || {})) {
      const pair = holeMap[s];
      if (!pair) {
        posProblems.push(`seat ${s} was not dealt in`);
        for (const card of cards) seen.push({ card, where: "shown", seat: Number(s), ok: false });
        continue;
      }
      const positions = pair.map((slot) => deckPosition(cut, slot));
      for (const card of cards) {
        const hit = positions.find((p) => opened.get(p) === card && !allowed.has(p));
        seen.push({ card, where: "shown", seat: Number(s), ok: hit !== undefined });
        if (hit === undefined) posProblems.push(`seat ${s} shows ${card} not opened at its positions`);
        else allowed.add(hit);
      }
    }
  }
  checks.push({ key: "chkPositions", ok: posProblems.length === 0, detail: posProblems.join("; ") });
  const extra = [...opened.keys()].filter((p) => !allowed.has(p));
  checks.push({
    key: "chkNoRabbit",
    ok: validN && cut !== null ? extra.length === 0 : null,
    detail: extra.map((p) => `${p} (${opened.get(p)})`).join(", "),
  });

  // 5. the signature
  const signed = await checkSignature(record);
  checks.push(signed === null
    ? { key: "chkSignatureUnavailable", ok: null, detail: "" }
    : { key: "chkSignature", ok: signed, detail: `${(record.public_key || "").slice(0, 16)}…` });

  // 6. our own hole cards, from the private hole_proof
  if (holeProof && seat !== null && validN && cut !== null) {
    const problems = await checkHoleProof(holeProof, commitment || root, hole);
    const pair = holeMap[String(seat)];
    const cards = (holeProof.openings && holeProof.openings.cards) || [];
    if (!pair) problems.push("your seat is not in the record");
    else {
      const expected = pair.map((slot) => deckPosition(cut, slot)).sort((a, b) => a - b).join(",");
      const got = cards.map((c) => c.position).sort((a, b) => a - b).join(",");
      if (expected !== got) problems.push(`your cards are at positions ${got}, the deal says ${expected}`);
    }
    if (holeProof.root !== root) problems.push("the private openings are for another root");
    checks.push({ key: "chkHole", ok: problems.length === 0, detail: problems.join("; ") || cards.map((c) => c.card).join(" ") });
  } else if (seat !== null) {
    checks.push({ key: "chkHoleUnknown", ok: null, detail: "" });
  }

  // 7. the chips add up (protocol/chips.py): apart from the cards' checks
  const problems = chipProblems(record);
  const chips = { key: "chkChips", ok: problems.length === 0, detail: problems.join("; ") };
  return { ok: chips.ok && checks.every((c) => c.ok !== false), checks, chips, seen, root, commitment, cut };
}

// ---------------------------------------------------------------- chips

const isInt = (v) => Number.isInteger(v);

function seatSums(items, amount, problems, what) {
  const sums = {};
  for (const item of items) {
    const value = item[amount] ?? 0;
    if (!isInt(item.seat) || !isInt(value) || value < 0) {
      problems.push(`${what}: seat ${item.seat} has a bad ${amount}`);
      continue;
    }
    sums[item.seat] = (sums[item.seat] || 0) + value;
  }
  return sums;
}

const total = (sums) => Object.values(sums).reduce((a, b) => a + b, 0);
const list = (value) => (Array.isArray(value) ? value.filter((x) => x && typeof x === "object") : []);

// What protocol/chips.py checks: the chips the actions put in are the pots plus the chips
// returned, each pot's shares pay the pot, and each seat ends with its starting stack, less
// what it put in, plus what came back and what it won. -> list of problems (empty: they add up).
export function chipProblems(record) {
  const problems = [];
  const putIn = seatSums(list(record.actions), "added", problems, "action");
  const back = seatSums(list(record.returned), "amount", problems, "returned");
  let potTotal = 0;
  const won = {};
  for (const pot of list(record.pots)) {
    if (!isInt(pot.amount) || pot.amount < 0) {
      problems.push(`pot ${pot.index}: bad amount`);
      continue;
    }
    potTotal += pot.amount;
    let paid = 0;
    for (const share of Array.isArray(pot.shares) ? pot.shares : []) {
      if (!Array.isArray(share) || share.length !== 2 || !isInt(share[0]) || !isInt(share[1])) {
        problems.push(`pot ${pot.index}: bad share`);
        continue;
      }
      won[share[0]] = (won[share[0]] || 0) + share[1];
      paid += share[1];
    }
    if (paid !== pot.amount) problems.push(`pot ${pot.index}: shares pay ${paid} of ${pot.amount}`);
  }
  if (total(putIn) !== potTotal + total(back)) {
    problems.push(`the actions put in ${total(putIn)} chips, the pots hold ${potTotal} and ${total(back)} were returned`);
  }
  const final = record.final_stacks;
  if (!final || typeof final !== "object") return problems;
  for (const player of list(record.players)) {
    const expected = player.stack - (putIn[player.seat] || 0) + (back[player.seat] || 0) + (won[player.seat] || 0);
    if (final[String(player.seat)] !== expected) {
      problems.push(`seat ${player.seat}: ${player.stack} - ${putIn[player.seat] || 0} + ${back[player.seat] || 0} + ${won[player.seat] || 0} = ${expected}, the record says ${final[String(player.seat)]}`);
    }
  }
  return problems;
}

// The private openings of our own two cards: they reach the committed root, and they are
// the cards we were dealt. -> list of problems (empty: verified).
// (five-card draw: five cards dealt, and the openings of those the draw brought, `drawn`,
// against the same root; `received` the cards the page was told it received, null when it
// does not know them: a page opened after the draw)
export async function checkHoleProof(holeProof, commitment, hole, received = null) {
  const problems = [];
  const cards = (holeProof.openings && holeProof.openings.cards) || [];
  const want = (hole && hole.length === 5) || cards.length === 5 ? 5 : 2;
  if (cards.length !== want) problems.push(`${cards.length} openings instead of ${want}`);
  if (commitment && holeProof.root !== commitment) problems.push("root differs from the commitment");
  for (const opening of cards) {
    const problem = await checkOpening(opening, holeProof.root);
    if (problem) problems.push(problem);
  }
  if (hole && hole.length === want) {
    const got = cards.map((c) => c.card).sort().join(" ");
    const dealt = [...hole].sort().join(" ");
    if (got !== dealt) problems.push(`openings ${got}, dealt ${dealt}`);
  }
  const drawn = (holeProof.openings && holeProof.openings.drawn) || [];
  for (const opening of drawn) {
    const problem = await checkOpening(opening, holeProof.root);
    if (problem) problems.push(problem);
  }
  const got = drawn.map((c) => c.card).sort().join(" ");
  if (received && got !== [...received].sort().join(" ")) problems.push(`draw openings ${got}, received ${received.join(" ")}`);
  return problems;
}
