// Cards drawn with CSS and a Unicode suit (no image), and cards as text.
import { el } from "./dom.js";
import { lang } from "./i18n.js";

export const SUITS = { s: "♠", h: "♥", d: "♦", c: "♣" };
const SUIT_NAMES = {
  en: { s: "spades", h: "hearts", d: "diamonds", c: "clubs" },
  fr: { s: "pique", h: "cœur", d: "carreau", c: "trèfle" },
};
const RANK_NAMES = {
  en: { A: "ace", K: "king", Q: "queen", J: "jack", T: "10" },
  fr: { A: "as", K: "roi", Q: "dame", J: "valet", T: "10" },
};
export const rankText = (card) => (card[0] === "T" ? "10" : card[0]);

export function cardLabel(card) {
  const names = lang() === "fr" ? "fr" : "en";
  const rank = RANK_NAMES[names][card[0]] || card[0];
  return names === "fr" ? `${rank} de ${SUIT_NAMES.fr[card[1]]}` : `${rank} of ${SUIT_NAMES.en[card[1]]}`;
}

// A card face; null draws its back, "" an empty place (a board card still to come).
export function cardNode(card) {
  if (card === "") {
    const slot = el("span", "card slot");
    slot.setAttribute("aria-hidden", "true");
    return slot;
  }
  if (!card) {
    const back = el("span", "card back");
    back.setAttribute("role", "img");
    back.setAttribute("aria-label", lang() === "fr" ? "carte cachée" : "face-down card");
    return back;
  }
  const suit = card[1];
  const node = el("span", `card suit-${suit}${suit === "h" || suit === "d" ? " red" : ""}`);
  node.dataset.card = card;
  node.setAttribute("role", "img");
  node.setAttribute("aria-label", cardLabel(card));
  const rank = el("span", "rank", rankText(card));
  const pip = el("span", "suit", SUITS[suit]);
  rank.setAttribute("aria-hidden", "true");
  pip.setAttribute("aria-hidden", "true");
  node.append(rank, pip);
  return node;
}

export const cardsText = (cards) => cards.map((c) => rankText(c) + SUITS[c[1]]).join(" ");
