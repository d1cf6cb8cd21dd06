// The replay page: the stored match (GET /api/matches/{id}) is shown by its game's module
// (games/index.js), the one that plays its ruleset.

import { $, fetchJSON } from "../shell/dom.js";
import { gameKeyOf, loadGame } from "../games/index.js";
import { endingLine } from "../shell/endings.js";

const matchId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());

try {
  const match = await fetchJSON(`/api/matches/${encodeURIComponent(matchId)}`);
  const game = await loadGame(await gameKeyOf(match.ruleset));
  await game.replay({}, match);
  // How the match ended, in words, whatever the game (a resignation, a draw agreed...).
  $("#replay-ending").textContent = endingLine(match.result);
  $("#replay-ending").hidden = false;
} catch (error) {
  const box = $("#replay-error");
  box.textContent = `Cannot load match ${matchId}: ${error.message}`;
  box.hidden = false;
}
