// Main pot and side pots from what each seat put in this hand, layered as the server's
// engine does (server/engine/hand.py `_layers`, view mode): one layer per all-in level,
// layers with the same players merged, a bet nobody has called yet not counted as a pot,
// and dead money (button or big-blind antes) in the main pot for every live hand.
//
// A live player who is not all-in can win every layer (folded chips are dead money); a layer
// no live player can win is not a pot (it goes back to those who put it in).
//
// contrib: {seat: chips put in}; folded: Set of seats; dead: dead money;
// allin: Set of seats all-in (by default every live seat is taken as capped by what it put in).
// -> [{amount, eligible: [seats]}], main pot first.
export function layerPots(contrib, folded, dead = 0, allin = null) {
  const seats = Object.keys(contrib).map(Number).sort((a, b) => a - b);
  const live = seats.filter((s) => !folded.has(s));
  const capped = (s) => allin === null || allin.has(s);
  const values = seats.map((s) => contrib[s]);
  const top = Math.max(0, ...values);
  const pots = [];
  if (top === 0 && !dead) return pots;
  if (live.every((s) => contrib[s] === top) && values.filter((c) => c > 0).length !== 1) {
    return [{ amount: values.reduce((a, b) => a + b, 0) + dead, eligible: live }];
  }
  if (dead) pots.push({ amount: dead, eligible: live });
  const levels = [...new Set(values.filter((c) => c > 0))].sort((a, b) => a - b);
  let prev = 0;
  for (const level of levels) {
    let amount = 0;
    let contributors = 0;
    let owner = 0;
    for (const s of seats) {
      if (contrib[s] > prev) {
        amount += Math.min(contrib[s], level) - prev;
        contributors += 1;
        owner = s;
      }
    }
    const eligible = live.filter((s) => contrib[s] >= level || !capped(s));
    prev = level;
    // a bet not called (yet) is not a pot; a folded player's chips are dead money (ligue 6)
    if (contributors === 1 && !folded.has(owner)) continue;
    if (!eligible.length) continue; // nobody can win it: it goes back to its owners
    const last = pots[pots.length - 1];
    if (last && last.eligible.join() === eligible.join()) last.amount += amount;
    else pots.push({ amount, eligible });
  }
  return pots;
}
