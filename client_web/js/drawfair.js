// Five-card draw in a hand record: where each card of a draw hand comes from, checked in the
// page as protocol/draw.py checks it for `python -m protocol.verify` (its docstring has the
// whole construction): player i's five cards at slots i, n+i, .., 4n+i, the burn card at
// 5n, the stub from 5n+1; each drawer dealt from the top of the stub in turn; a new stub (the
// stub ran out) ordered by SHA-256("brasseur-stub\0" || seed || position), the seed committed
// before the deal as SHA-256("brasseur-stub-commit\0" || seed); each hand shown opened at
// its seat's positions after the draw. Nothing else may be opened.

const DECK = 52;
const SEED_HEX = /^[0-9a-f]{64}$/;
const enc = new TextEncoder();
const position = (cut, slot) => (cut + slot) % DECK;
const ints = (v) => (Array.isArray(v) && v.every(Number.isInteger) ? [...v] : null);
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const hexBytes = (hex) => Uint8Array.from(hex.match(/../g), (h) => parseInt(h, 16));
const toHex = (buf) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");
const sha = (...parts) => crypto.subtle.digest("SHA-256", Uint8Array.from(parts.flatMap((p) => [...p])));

export const drawHoleSlots = (n) => Array.from({ length: n }, (_, i) => [0, 1, 2, 3, 4].map((r) => r * n + i));

function compare(a, b) {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

// Deck position -> its rank in a new stub's order.
async function stubRanks(seed) {
  const keyed = [];
  for (let p = 0; p < DECK; p++) keyed.push({ p, key: new Uint8Array(await sha(enc.encode("brasseur-stub\0"), seed, [p])) });
  keyed.sort((x, y) => compare(x.key, y.key) || x.p - y.p);
  return new Map(keyed.map((x, k) => [x.p, k]));
}

// The positions each drawer is dealt (discards: the positions each discarded, in turn); a
// new stub when the stub runs out. (Exported for the test that compares it with Python's.)
export async function replacements(n, cut, seed, discards) {
  const ranks = await stubRanks(seed);
  let stub = [];
  for (let slot = 5 * n + 1; slot < DECK; slot++) stub.push(position(cut, slot));
  let burn = position(cut, 5 * n);
  let pending = [];
  const received = [];
  for (const discarded of discards) {
    if (discarded.length > stub.length) {
      stub = [...stub, ...(burn === null ? [] : [burn]), ...pending].sort((a, b) => ranks.get(a) - ranks.get(b));
      burn = null;
      pending = [];
    }
    received.push(stub.slice(0, discarded.length));
    stub = stub.slice(discarded.length);
    pending.push(...discarded);
  }
  return received;
}

function layout(record, n, problems) {
  const slots = record.slots || {};
  if (!same(ints(slots.burn), [5 * n])) problems.push(`slots.burn is not the draw's burn slot [${5 * n}]`);
  const stub = [];
  for (let s = 5 * n + 1; s < DECK; s++) stub.push(s);
  if (!same(ints(slots.stub), stub)) problems.push(`slots.stub is not the draw's stub, slots ${5 * n + 1}..51`);
  const hole = slots.hole || {};
  const order = Array.isArray(record.deal_order) ? record.deal_order.map(String) : [];
  if (Object.keys(hole).length !== n || order.length !== n || !order.every((s) => ints(hole[s]))) {
    problems.push(`slots.hole must give five slots for each of the ${n} players of deal_order`);
    return null;
  }
  const canonical = drawHoleSlots(n);
  order.forEach((s, i) => {
    if (!same(hole[s], canonical[i])) problems.push(`seat ${s} is number ${i + 1} in deal_order but holds slots ${hole[s]}`);
  });
  return { hole, order };
}

// Each seat's positions after the draw, the draws checked against the committed order.
async function draws(record, { hole, order }, cut, seed, problems) {
  const final = Object.fromEntries(Object.entries(hole).map(([s, five]) => [s, five.map((x) => position(cut, x))]));
  const seats = [];
  const discards = [];
  const claimed = [];
  for (const [k, entry] of (Array.isArray(record.draws) ? record.draws : []).entries()) {
    const seat = String(entry && entry.seat);
    const discarded = entry && ints(entry.discarded);
    if (!hole[seat] || !discarded || !discarded.every((x) => hole[seat].includes(x)) || new Set(discarded).size !== discarded.length) {
      problems.push(`draws[${k}] must give a seat dealt in and slots of its own cards`);
      return final;
    }
    if (seats.includes(seat) || (seats.length && order.indexOf(seat) < order.indexOf(seats[seats.length - 1]))) {
      problems.push(`draws[${k}]: seat ${seat} draws out of turn or twice`);
    }
    seats.push(seat);
    discards.push(discarded.map((x) => position(cut, x)));
    claimed.push(ints(entry.received));
  }
  const received = await replacements(Object.keys(hole).length, cut, seed, discards);
  seats.forEach((seat, k) => {
    const expected = received[k].map((p) => (((p - cut) % DECK) + DECK) % DECK);
    if (!same(claimed[k], expected)) problems.push(`draws[${k}]: seat ${seat} received slots ${claimed[k]}, the committed order deals ${expected}`);
    discards[k].forEach((p, i) => {
      final[seat][final[seat].indexOf(p)] = received[k][i];
    });
  });
  return final;
}

// -> {problems, allowed: positions that may be opened, seen: [{card, where, seat, ok}]}
// (opened: position -> card name, each opening checked already)
export async function checkDraw(record, cut, opened) {
  const problems = [];
  const allowed = new Set();
  const seen = [];
  const n = record.players_dealt;
  if (!Number.isInteger(n) || n < 2 || n > 9) return { problems: ["players_dealt must be 2..9 (draw)"], allowed, seen };
  if ((record.board || []).length) problems.push("a draw hand has no board");
  const deal = layout(record, n, problems);
  const seed = record.stub_seed;
  if (typeof seed !== "string" || !SEED_HEX.test(seed)) problems.push("stub_seed is missing or not 32 bytes of hex");
  else if (toHex(await sha(enc.encode("brasseur-stub-commit\0"), hexBytes(seed))) !== record.stub_commit) {
    problems.push("stub_seed does not match stub_commit (the order of a new stub)");
  }
  if (!deal || !SEED_HEX.test(seed || "")) return { problems: [...problems, "cannot match the draw's cards to their positions"], allowed, seen };
  const final = await draws(record, deal, cut, hexBytes(seed), problems);
  for (const [s, cards] of Object.entries(record.shown || {})) {
    const positions = final[s] || [];
    for (const card of cards) {
      const hit = positions.find((p) => opened.get(p) === card && !allowed.has(p));
      seen.push({ card, where: "shown", seat: Number(s), ok: hit !== undefined });
      if (hit === undefined) problems.push(`seat ${s} shows ${card} not opened at its positions after the draw`);
      else allowed.add(hit);
    }
  }
  return { problems, allowed, seen };
}
