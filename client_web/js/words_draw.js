// Five-card draw's words (draw.js, the seats' tags, the log, the lobby's game), English and
// French, merged into WORDS by i18n.js. "%n" is a number of cards, "%p" a player's name.

export const DRAW_EN = {
  gameDraw: "Cash game, five-card draw",
  structure: "Betting",
  noLimit: "No limit",
  potLimit: "Pot limit",
  maxSize: "max", // pot limit: the largest raise, the pot's
  drawGame: "5-card draw",
  drawHint: "Tap the cards you throw away (at most %n).",
  drawMarked: "%n of %max marked",
  discardN: "Discard %n",
  standPat: "Stand pat",
  yourDraw: "Your draw",
  drawing: "%p draws",
  drewN: "drew %n",
  drew1: "drew 1",
  stoodPat: "stood pat",
  drewLog: "%p drew %n cards",
  drewLog1: "%p drew 1 card",
  stoodPatLog: "%p stood pat",
  reshuffledLog: " (the stub ran out: %n cards shuffled into a new one)",
  marked: "marked to discard",
};

export const DRAW_FR = {
  gameDraw: "Cash game, five-card draw",
  structure: "Mises",
  noLimit: "No limit",
  potLimit: "Pot limit",
  maxSize: "max",
  drawGame: "Five-card draw",
  drawHint: "Touchez les cartes à jeter (%n au plus).",
  drawMarked: "%n sur %max marquées",
  discardN: "Jeter %n",
  standPat: "Servi",
  yourDraw: "À vous de tirer",
  drawing: "%p tire",
  drewN: "a pris %n cartes",
  drew1: "a pris 1 carte",
  stoodPat: "servi",
  drewLog: "%p a pris %n cartes",
  drewLog1: "%p a pris 1 carte",
  stoodPatLog: "%p est servi",
  reshuffledLog: " (talon épuisé : %n cartes mélangées en un nouveau talon)",
  marked: "marquée pour être jetée",
};
