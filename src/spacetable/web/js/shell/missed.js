// A correspondence player's own turns that ran out in a row (issue 67 item 14;
// docs/correspondence.md): "Your turn 2 ran out: two more in a row lose the match." Said
// in the room, under the banner (shell/manners.js), and on My games (pages/mygames.js),
// from what the server counts (the room's `correspondence`, My games' `your_ran_out`).

import { lang, t, tn } from "./i18n.js";

/**
 * The warning for a player whose turns `turns` (their numbers; a hex fleet's turn may
 * come twice, one activation each) ran out, `missed` of them in a row, the match lost at
 * `loseAt` in a row; "" when none did.
 */
export function missedTurnsWords(turns, missed, loseAt) {
  const count = Math.max(missed || 0, (turns || []).length);
  if (!count) return "";
  const numbers = [...new Set(turns || [])].sort((a, b) => a - b);
  const list = new Intl.ListFormat(lang, { type: "conjunction" }).format(numbers.map(String));
  const what = numbers.length
    ? tn("Your turn {turns} ran out", "Your turns {turns} ran out", numbers.length, { turns: list })
    : tn("A turn of yours ran out", "{n} turns of yours in a row ran out", count);
  const left = Math.max(1, loseAt - count);
  const then = tn("one more in a row loses the match", "{n} more in a row lose the match", left);
  return t("{what}: {then}.", { what, then });
}
