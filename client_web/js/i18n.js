// Words of the page in French and English (words_fr.js, words_en.js), numbers in the page's
// language, and the French reading of the server's English notes (rule corrections,
// out-of-turn notices). The language is the store's `lang`.
import { KEY, store } from "./store.js";
import { ACCOUNT_EN, ACCOUNT_FR } from "./words_account.js";
import { EN } from "./words_en.js";
import { CASH_EN, CASH_FR } from "./words_cash.js";
import { DRAW_EN, DRAW_FR } from "./words_draw.js";
import { FAIR_EN, FAIR_FR } from "./words_fair.js";
import { FR } from "./words_fr.js";
import { LEAGUE_EN, LEAGUE_FR } from "./words_league.js";

const merge = (base, ...more) => ({
  ...Object.assign({}, base, ...more),
  errors: { ...base.errors, ...Object.assign({}, ...more.map((m) => ({ ...m.leagueErrors, ...m.cashErrors }))) },
});

export const WORDS = {
  en: merge(EN, FAIR_EN, ACCOUNT_EN, LEAGUE_EN, CASH_EN, DRAW_EN),
  fr: merge(FR, FAIR_FR, ACCOUNT_FR, LEAGUE_FR, CASH_FR, DRAW_FR),
};

export const lang = () => store.state.lang;
export const words = () => WORDS[lang()];
export const t = (key) => WORDS[lang()][key] ?? WORDS.en[key] ?? key;
export const fmt = (n) => Number(n).toLocaleString(lang() === "fr" ? "fr-FR" : "en-US");
// "Label: value" with the French space before the colon
// "main pot", "side pot 2"; a hand run several times says which run's part: "main pot (run 2)"
export const potName = (index, run) =>
  `${index === 0 ? t("mainPot") : `${t("sidePot")} ${index}`}${run ? ` (${t("run").toLowerCase()} ${run})` : ""}`;
export const colon = (label) => (lang() === "fr" ? `${label} :` : `${label}:`);

// Static words of the page: data-i18n (text), data-i18n-ph (placeholder), -title, -label.
export function translatePage() {
  document.documentElement.lang = lang();
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of document.querySelectorAll("[data-i18n-ph]")) node.placeholder = t(node.dataset.i18nPh);
  for (const node of document.querySelectorAll("[data-i18n-title]")) node.title = t(node.dataset.i18nTitle);
  for (const node of document.querySelectorAll("[data-i18n-label]")) {
    node.setAttribute("aria-label", t(node.dataset.i18nLabel));
  }
  const other = document.getElementById("lang"); // the switch names the other language
  if (other) {
    other.textContent = lang() === "fr" ? "EN" : "FR";
    other.title = t("language");
  }
}

// The page's language, kept for the next visits ("fr" or "en"; anything else is ignored).
export function setLang(next) {
  if ((next !== "fr" && next !== "en") || next === lang()) return;
  store.update((s) => {
    s.lang = next;
    s.ui.drawn = {};
  });
  localStorage.setItem(KEY.lang, next);
  translatePage();
}

// The engine's notes are English sentences with numbers; each pattern gives the French.
const NOTE_FR = [
  [/^clock expired: check$/, () => "temps écoulé : parole"],
  [/^clock expired: fold$/, () => "temps écoulé : main passée"],
  [/^Time expired: dead hand$/, () => "Time écoulé : main morte"],
  [/^absent at the deal: dead hand$/, () => "absent à la donne : main morte"],
  [/^uncalled chips returned$/, () => "mise non suivie rendue"],
  [/^fold out of turn binds$/, () => "passer hors de son tour engage"],
  [/^out of turn: binds if the action has not changed$/, () => "hors de son tour : engage si l'action ne change pas"],
  [/^the action has not changed: binding$/, () => "l'action n'a pas changé : l'annonce engage"],
  [/^the action changed: the player gets every option back$/, () => "l'action a changé : le joueur retrouve tous ses choix"],
  [/^the round ended before this player's turn$/, () => "le tour d'enchères s'est fini avant son tour"],
  [/^incomplete declaration$/, () => "annonce incomplète"],
  [/^call or fold only: chips taken as a call$/, () => "suivre ou passer seulement : les jetons valent un suivi"],
  [/^fold when a check was possible: binding, penalised$/, () => "passer alors que parole était possible : engage, pénalisable"],
  [/^check facing a bet: call or fold, no raise$/, () => "parole face à une mise : suivre ou passer, pas de relance"],
  [/^call with no bet to call is a check$/, () => "suivre sans mise à suivre : parole"],
  [/^verbal call prevails over the chips pushed$/, () => "l'annonce « je suis » prime sur les jetons poussés"],
  [/^not enough chips to raise: all-in call$/, () => "pas assez de jetons pour relancer : suivi à tapis"],
  [/^no opponent can call a raise: call$/, () => "aucun adversaire ne peut suivre une relance : suivi"],
  [/^raise announced: amount to follow$/, () => "relance annoncée : le montant doit suivre"],
  [/^raise not allowed: call, change returned$/, () => "relance interdite : suivi, monnaie rendue"],
  [/^raise not allowed here: call, change returned$/, () => "relance interdite ici : suivi, monnaie rendue"],
  [/^declared (bet|raise) to (\d+) is short: completed to (\d+)$/, (m, f) =>
    `${m[1] === "bet" ? "mise annoncée" : "relance annoncée"} à ${f(m[2])} insuffisante : complétée à ${f(m[3])}`],
  [/^bet below the big blind: aligned to (\d+)$/, (m, f) => `mise sous la grosse blinde : portée à ${f(m[1])}`],
  [/^single (\d+) chip facing (\d+): call, change (\d+) returned$/, (m, f) =>
    `un seul jeton de ${f(m[1])} face à ${f(m[2])} : suivi, ${f(m[3])} de monnaie rendus`],
  [/^single (\d+) chip facing (\d+): call$/, (m, f) => `un seul jeton de ${f(m[1])} face à ${f(m[2])} : suivi`],
  [/^(\d+) in chips below the call is committed: call or fold$/, (m, f) =>
    `${f(m[1])} en jetons sous le suivi restent engagés : suivre ou passer`],
  [/^(\d+) chips facing (\d+): removing one leaves less than the call: call, change (\d+) returned$/, (m, f) =>
    `${m[1]} jetons face à ${f(m[2])} : sans l'un d'eux il manque de quoi suivre : suivi, ${f(m[3])} de monnaie rendus`],
  [/^single (\d+) chip below the call: a call, completed$/, (m, f) =>
    `un seul jeton de ${f(m[1])} sous le suivi : suivi, complété`],
  [/^single (\d+) chip below the call is committed: call or fold$/, (m, f) =>
    `un seul jeton de ${f(m[1])} sous le suivi reste engagé : suivre ou passer`],
  [/^undercall: completed to a call$/, () => "suivi insuffisant : complété"],
  [/^(\d+) is at least half a raise: completed to (\d+)$/, (m, f) =>
    `${f(m[1])} fait au moins la moitié d'une relance : complétée à ${f(m[2])}`],
  [/^(\d+) is less than half a raise: (call|check), change returned$/, (m, f) =>
    `${f(m[1])} fait moins de la moitié d'une relance : ${m[2] === "call" ? "suivi" : "parole"}, monnaie rendue`],
  [/^the player in turn checked: the offender may only check$/, () => "le joueur à parler a dit parole : le fautif ne peut que dire parole"],
  [/^bet no more than announced: call or fold$/, () => "mise pas plus haute que l'annonce : suivre ou passer"],
  [/^bet more than announced: every option$/, () => "mise plus haute que l'annonce : tous les choix"],
  [/^a raise came before: call or fold only; chips committed$/, () => "une relance est venue avant : suivre ou passer ; jetons engagés"],
  [/^held until the hand ends$/, () => "retenu jusqu'à la fin de la main"],
  // casino cash, the option (the private notice that answers `option`)
  [/^you post the option when first after the big blind, from the next deal$/, () =>
    "vous mettez l'option quand vous êtes le premier après la grosse blinde, dès la prochaine donne"],
  [/^no option from the next deal$/, () => "plus d'option dès la prochaine donne"],
];

// Hand categories as the server names them (eval7), in French.
const RANK_FR = {
  "High Card": "hauteur",
  Pair: "paire",
  "Two Pair": "deux paires",
  Trips: "brelan",
  "Three of a Kind": "brelan",
  Straight: "quinte",
  Flush: "couleur",
  "Full House": "full",
  Quads: "carré",
  "Four of a Kind": "carré",
  "Straight Flush": "quinte flush",
  "Royal Flush": "quinte flush royale",
};

export function rankName(rank, lang) {
  return lang === "fr" ? RANK_FR[rank] || rank : rank;
}

// "cdc-9.13" -> "cdc 9.13"
export function ruleText(rule) {
  return (rule || "").replace(/^([a-z]+)-/, "$1 ");
}

// The server's note in the page's language: French when a pattern is known, else the
// English note as sent (always with the rule it cites).
export function noteText(note, lang, fmt) {
  if (!note) return "";
  if (lang !== "fr") return note;
  const f = (n) => fmt(Number(n));
  for (const [pattern, render] of NOTE_FR) {
    const m = note.match(pattern);
    if (m) return render(m, f);
  }
  return note;
}

// The server's English explanations of a refused command (tournaments, director's console),
// in French.
const MESSAGE_FR = {
  "a positive stack and a reason": "il faut un tapis positif et un motif",
  "unknown player": "joueur inconnu",
  "a table and a seat": "il faut une table et un siège",
  "1 to 100 hands": "de 1 à 100 mains",
  "the player has no seat": "le joueur n'a pas de place",
  "no such table here": "table inconnue",
  "forged or malformed token": "lien invalide (jeton falsifié ou abîmé)",
  "malformed token": "lien invalide (jeton abîmé)",
  "this token is for another tournament": "ce lien est celui d'un autre tournoi",
  "say hello with a nickname first": "choisissez d'abord un pseudo",
  "the room's tables are balanced": "les tables de la salle sont déjà équilibrées",
  "nobody with chips sits there": "personne avec des jetons à ce siège",
  "this host token is for another table": "ce jeton d'hôte est celui d'une autre table",
};

export function errorText(code, message, lang) {
  const errs = WORDS[lang].errors;
  if (lang === "fr" && MESSAGE_FR[message]) return MESSAGE_FR[message];
  if (lang === "fr" && /^no tournament /.test(message || "")) return "tournoi inconnu";
  return errs[code] || WORDS.en.errors[code] || message || code;
}

// "web-3" -> "Table 3" (a tournament's tables are named ID-N)
export function tableLabel(name) {
  const prefix = `${store.state.tour.id}-`;
  const n = name && name.startsWith(prefix) ? name.slice(prefix.length) : name;
  return t("tableN").replace("%n", n);
}

export const secs = (ms) => `${Math.round(ms / 1000)} ${t("sec")}`;
