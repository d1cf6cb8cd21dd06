// How a match ended, in words (docs/protocol.md "How a match ended"): the result's
// `ending` and `ending_by`, for the room's end, the match list and the replay page.

import { t } from "./i18n.js";

/** The words of each ending (kept together for translation). */
const WORDS = {
  rules: () => t("played to the end"),
  turn_limit: () => t("decided at the turn limit"),
  resigned: (by) => t("{names} resigned", { names: by }),
  agreed_draw: () => t("draw agreed by the players"),
  claimed: (by) => t("{names} went away; the win was claimed", { names: by }),
  timeout: (by) => t("{names} let the time run out three turns in a row", { names: by }),
};
const WINS = (winner) => t("{winner} wins", { winner });
const DRAW = () => t("a draw");
const ON_THE_WAY = (names) => t("{names} resigned on the way", { names });

/** The ending of `result` ("rules" for matches stored before endings were). */
export function endingOf(result) {
  return result?.ending || "rules";
}

/** Whether the match was stopped by its players (resigned, draw agreed, win claimed). */
export function stoppedByPlayers(result) {
  return ["resigned", "agreed_draw", "claimed", "timeout"].includes(endingOf(result));
}

/** "Ann resigned", "draw agreed by the players", "played to the end (Cid resigned on the way)". */
export function endingText(result) {
  const ending = endingOf(result);
  const by = (result?.ending_by || []).join(t(" and "));
  const words = (WORDS[ending] || (() => ending))(by);
  if ((ending === "rules" || ending === "turn_limit") && by) return `${words} (${ON_THE_WAY(by)})`;
  return words;
}

/** The whole line: "Ann resigned: Bob wins." / "Draw agreed by the players." */
export function endingLine(result) {
  const words = endingText(result);
  const head = words[0].toUpperCase() + words.slice(1);
  if (endingOf(result) === "agreed_draw") return `${head}.`;
  return t("{ending}: {result}.", { ending: head, result: result?.winner ? WINS(result.winner) : DRAW() });
}
