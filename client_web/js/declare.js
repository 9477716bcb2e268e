// What a player says at the table, in French or English, as an `act` declaration
// (docs/protocol.md "Acting"): {verb, amount?, form?}. The server applies the profile's rules
// to it (a short raise is completed, "pot" is void under cdc, "5" is read by the pot...).
//
//   "raise 4000", "relance 4000", "relance à 4000", "je relance à 4k" -> raise 4000 (total)
//   "plus 4000", "relance de 4000", "4000 de mieux"                   -> raise 4000 (plus)
//   "bet 600", "je mise 600"                                          -> bet 600
//   "raise", "je relance" (amount to follow)                           -> raise
//   "tapis", "all-in", "je fais tapis"                                 -> allin
//   "parole", "check"                                                  -> check
//   "je suis", "payé", "call"                                          -> call
//   "je passe", "fold"                                                 -> fold
//   "pot"                                                              -> pot
//   "1200" said alone                                                  -> amount 1200
//   "5" (a number as spoken, under the big blind)                      -> amount 5 (abbreviated)

const WORD_NUMBERS = {
  un: 1, une: 1, one: 1, deux: 2, two: 2, trois: 3, three: 3, quatre: 4, four: 4, cinq: 5,
  five: 5, six: 6, sept: 7, seven: 7, huit: 8, eight: 8, neuf: 9, nine: 9, dix: 10, ten: 10,
  douze: 12, twelve: 12, quinze: 15, fifteen: 15, vingt: 20, twenty: 20, trente: 30,
  thirty: 30, quarante: 40, forty: 40, cinquante: 50, fifty: 50,
};

function normalise(text) {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "") // accents: "payé" -> "paye", "à" -> "a"
    .toLowerCase()
    .replace(/[’']/g, "'")
    .replace(/[!?;:«»"]/g, " ")
    .replace(/\.(?=\s|$)/g, " ") // a full stop, not a decimal point
    .replace(/\s+/g, " ")
    .trim();
}

// "4000", "4 000", "4.000", "4,000", "4k", "2,5k", "2.5 k", "cinq" -> integer, else null
export function parseNumber(raw) {
  let s = raw.replace(/\s+/g, "");
  if (s in WORD_NUMBERS) return { value: WORD_NUMBERS[s], spoken: true };
  let k = false;
  if (/k$/.test(s)) {
    k = true;
    s = s.slice(0, -1);
  }
  if (!/^\d[\d.,]*$/.test(s)) return null;
  let value;
  if (/^\d{1,3}([.,]\d{3})+$/.test(s)) value = Number(s.replace(/[.,]/g, "")); // separators
  else if (/^\d+([.,]\d+)?$/.test(s)) value = Number(s.replace(",", "."));
  else return null;
  if (k) value *= 1000;
  if (!Number.isFinite(value) || value <= 0 || !Number.isInteger(value) || value >= 2 ** 53) {
    return null;
  }
  return { value, spoken: !k && value < 100 };
}

const NUM = "(\\d[\\d .,]*k?|[a-z]+)";
const PATTERNS = [
  [/^(?:fold|je passe|passe|je jette|jette|je me couche|couche|je couche)$/, () => ({ verb: "fold" })],
  [/^(?:check|parole|je check|checke?)$/, () => ({ verb: "check" })],
  [/^(?:call|je suis|suis|suivi|je suivi|paye|je paye|je paie|paie|je call|i call)$/, () => ({ verb: "call" })],
  [/^(?:all[- ]?in|tapis|je fais tapis|fais tapis|je mets tapis|je suis tapis|i'?m all[- ]?in|shove)$/, () => ({ verb: "allin" })],
  [new RegExp(`^(?:call|je suis|suivi|paye|je paye|je paie) ${NUM}$`), (n) => ({ verb: "call", n, drop: true })],
  [/^(?:pot|le pot|je mise le pot|je relance pot|relance pot|raise pot|bet pot|pot-size)$/, () => ({ verb: "pot" })],
  [new RegExp(`^(?:plus|je relance de|relance de|relancer de|raise by|i raise by) ${NUM}$`), (n) => ({ verb: "raise", n, form: "plus" })],
  [new RegExp(`^${NUM} de (?:mieux|plus)$`), (n) => ({ verb: "raise", n, form: "plus" })],
  [new RegExp(`^(?:je )?(?:relance|relancer|raise|raise to|i raise|i raise to|relance a|relancer a) (?:a )?${NUM}$`), (n) => ({ verb: "raise", n })],
  [new RegExp(`^(?:je )?(?:mise|miser|bet|i bet|mise de|bet of) ${NUM}$`), (n) => ({ verb: "bet", n })],
  [/^(?:je )?(?:relance|relancer|raise|i raise)$/, () => ({ verb: "raise" })],
  [/^(?:je )?(?:mise|miser|bet|i bet)$/, () => ({ verb: "bet" })],
  [new RegExp(`^${NUM}$`), (n) => ({ verb: "amount", n })],
];

// -> {verb, amount?, form?} or null when the words mean nothing at a poker table.
// `bb`: the big blind; a bare number under it (and under 100) is a number as spoken, "5".
export function parseDeclaration(text, bb = 100) {
  const s = normalise(text || "");
  if (!s) return null;
  for (const [pattern, build] of PATTERNS) {
    const m = s.match(pattern);
    if (!m) continue;
    const out = build(m[1]);
    if (out.n === undefined) return { verb: out.verb };
    const number = parseNumber(m[1]);
    if (!number) continue;
    if (out.drop) return { verb: out.verb }; // "je suis 400": a call says no amount
    const result = { verb: out.verb, amount: number.value };
    if (out.form) result.form = out.form;
    else if (number.spoken && number.value < Math.max(bb, 1)) result.form = "abbreviated";
    else result.form = "total";
    return result;
  }
  return null;
}
