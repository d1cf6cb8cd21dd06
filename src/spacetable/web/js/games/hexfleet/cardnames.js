// Hex fleet cards as a reader reads them: a card's code ("KH", "10S": DESIGN section 6; the
// files, the server's events and its log phrases keep it) shown as its rank and suit symbol,
// the rank in the page's language ("K♥" in English, "R♥" in French: roi, dame, valet; the
// ace is A in both).
//
// API:
//   export const SUITS: {S: "♠", H: "♥", D: "♦", C: "♣"}
//   export function rankShown(rank) -> string: "K" -> "K" (English) / "R" (French).
//   export function cardShown(code) -> string: "KH" -> "K♥" / "R♥"; "10S" -> "10♠"; any other
//     text as it is.
//   export function cardsShown(codes) -> string: "7H 7C" -> "7♥ 7♣".
//   export const CARD_PLACES: said()'s `shown` (shell/phrase.js) for the places of the
//     server's phrases that hold card codes ({card}, {cards}).
//   export function logText(line) -> string: a log line (lineText) with its cards shown.

import { t } from "../../shell/i18n.js";
import { lineText } from "../../shell/phrase.js";

export const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const CODE = /^(A|[2-9]|10|J|Q|K)([SHDC])$/;

/** A rank as cards print it in the page's language (the message's place is the suit). */
export function rankShown(rank) {
  const faces = {
    A: t("A{suit}", { suit: "" }),
    J: t("J{suit}", { suit: "" }),
    Q: t("Q{suit}", { suit: "" }),
    K: t("K{suit}", { suit: "" }),
  };
  return faces[rank] ?? rank;
}

/** A card's code as its rank (in the page's language) and suit symbol. */
export function cardShown(code) {
  const found = CODE.exec(String(code).trim().toUpperCase());
  return found ? rankShown(found[1]) + SUITS[found[2]] : String(code);
}

/** Codes separated by spaces, each shown as `cardShown`. */
export function cardsShown(codes) {
  return String(codes).split(" ").map(cardShown).join(" ");
}

export const CARD_PLACES = { card: cardShown, cards: cardsShown };

/** A hex fleet log line in the page's language, its cards shown. */
export function logText(line) {
  return lineText(line, CARD_PLACES);
}
