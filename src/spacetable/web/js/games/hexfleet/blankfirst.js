// Turns of a hex fleet battle that the blank chit ended before anyone acted: found in the
// battle's log and said in words (the room shows them over the board, room.js).

import { t, tn } from "../../shell/i18n.js";

/**
 * A run of turns that ended before anyone acted, in words: "Turn 4: the blank came out
 * first — nobody acts.", or for several "Turns 2–9: the blank came out first 8 times in a
 * row — nobody acted."
 */
export function blankFirstText(turns) {
  if (turns.length === 1) return t("Turn {turn}: the blank came out first — nobody acts.", { turn: turns[0] });
  return tn("Turns {first}–{last}: the blank came out first {n} time in a row — nobody acted.",
    "Turns {first}–{last}: the blank came out first {n} times in a row — nobody acted.",
    turns.length, { first: turns[0], last: turns.at(-1) });
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

/**
 * The latest run of blank-first turns among `lines`, if it reaches turn `since` or later
 * (the turn just before the one on now): the turns one after the other that the chits
 * ended at once, however many (the server draws them all in one go).
 */
export function latestBlankRun(lines, since) {
  const turns = blankFirstTurns(lines);
  if (!turns.length || turns.at(-1) < since) return [];
  let first = turns.length - 1;
  while (first > 0 && turns[first - 1] === turns[first] - 1) first -= 1;
  return turns.slice(first);
}
