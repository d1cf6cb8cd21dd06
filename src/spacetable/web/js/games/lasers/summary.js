// A laser battle's line in the match lists (shell/matchlist.js): each player's score.

import { num, playerName } from "../../shell/i18n.js";

/** The scores of a finished laser battle (GET /api/matches's summary): "ann 12 · bob 9",
 * or "" when the match ended before they were counted. */
export function matchScores(summary) {
  return Object.entries(summary.scores || {}).map(([p, s]) => `${playerName(p)} ${num(s)}`).join(" · ");
}
