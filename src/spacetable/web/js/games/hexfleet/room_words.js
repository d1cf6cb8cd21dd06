// What the hex fleet room says in its own words: why a battle ended, the deck, a share
// as a percentage, how to play and the board's key (every word through the catalogs).

import { num, t, tn } from "../../shell/i18n.js";

/** Why a battle ended, in words: `winner` is null for a draw. */
export function endReason(reason, winner) {
  if (reason === "last-side") return t("{winner} is the last side with a ship that can fight", { winner });
  if (reason === "no-side") return t("No side has a ship left that can fight");
  if (reason === "turn-limit") {
    return winner ? t("The turn limit is reached: {winner} has the most strength left", { winner })
      : t("The turn limit is reached with the sides level");
  }
  return reason;
}
/** The deck in words: "Deck: 32 cards to draw, 20 discarded, reshuffled 1×". */
export function deckWords(deck) {
  const pile = tn("{n} card to draw", "{n} cards to draw", deck.pile);
  const discards = tn("{n} discarded", "{n} discarded", deck.discards.length);
  return t("Deck: {pile}, {discards}", { pile, discards }) + (deck.reshuffles ? t(", reshuffled {n}×", { n: deck.reshuffles }) : "");
}
/** A share (0..1) as a whole percentage, the reader's way ("50 %" in French). */
export function percentText(share) {
  return num(Math.round(share * 100) / 100, { style: "percent" });
}
/** How to play, beside the board. */
export const HELP = () => [
  t("Each turn, chits come out of a cup one by one: the ship named on a chit is activated. The blank chit ends the turn."),
  t("An activated ship may move (1 hex per propulsion cell; a turn of 60° costs 1), raise its shields, fire once and hail once, in any order; or jump out instead of moving. Undo move (Ctrl+Z) takes a move back until a card is turned or the activation ends."),
  t("Firing turns cards from the deck: suits that get through the target's shields hit; each hit turns a damage card (diamonds: weapons, hearts: shields, spades: propulsion; clubs are drawn again)."),
  t("A ship with no weapons and no propulsion is a wreck. The last side that can fight wins; at the turn limit, the side with the most strength left (its systems left, as a share of its fleet's)."),
];
/** The board's key: the three gauges under each ship (colours as board.js draws them), the firing arc. */
export const LEGEND = () => ({
  title: t("Under each ship"),
  gauges: [["#5fe1ff", t("shields: points left (a dashed ring while they are up)")],
    ["#ffb347", t("weapons: the systems left, and so the cards a salvo turns")],
    ["#3ddc84", t("propulsion: the cells left, a hex of movement each")]],
  arc: t("while you aim: the hexes your ship can fire at"),
});
