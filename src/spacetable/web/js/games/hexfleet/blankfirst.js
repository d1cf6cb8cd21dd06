// Turns of a hex fleet battle that the blank chit ended before anyone acted: found in the
// battle's log and said in words (the room shows them over the board, room.js).

/** A turn that ended before anyone acted, in words: "Turn 4: the blank came out first — nobody acts." */
export function blankFirstText(turns) {
  if (turns.length === 1) return `Turn ${turns[0]}: the blank came out first — nobody acts.`;
  return `Turns ${turns.slice(0, -1).join(", ")} and ${turns.at(-1)}: the blank came out first each time — nobody acted.`;
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
