// Turns of a hex fleet battle that the blank chit ended before anyone acted: found in the
// battle's log and said in words (the room shows them over the board, room.js).

import { t } from "../../shell/i18n.js";

/** A turn that ended before anyone acted, in words: "Turn 4: the blank came out first — nobody acts." */
export function blankFirstText(turns) {
  if (turns.length === 1) return t("Turn {turn}: the blank came out first — nobody acts.", { turn: turns[0] });
  return t("Turns {turns} and {last}: the blank came out first each time — nobody acted.",
    { turns: turns.slice(0, -1).join(", "), last: turns.at(-1) });
}

/**
 * The turns of `lines` (the battle's log) whose blank chit came out first: the turn's
 * opening line ("turn N begins") and the blank's line come one after the other, neither
 * about a ship.
 */
export function blankFirstTurns(lines) {
  const turns = [];
  lines.forEach((line, i) => {
    const next = lines[i + 1];
    const opens = i === 0 || lines[i - 1].turn !== line.turn;
    if (opens && next && next.turn === line.turn && !line.ships?.length && !next.ships?.length) turns.push(line.turn);
  });
  return turns;
}
