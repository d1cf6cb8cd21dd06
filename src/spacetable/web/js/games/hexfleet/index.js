// The hex fleet in the browser: the interface every game offers (games/index.js).
// Each part loads its own modules when asked, so a page loads only what it shows.

import { num, playerName, t, tn } from "../../shell/i18n.js";
import { lazyPart, rulesSection } from "../index.js";

/** Play in the room page (ctx {roomId, params, game, describe}; hot seat: see room.js). */
export async function room(ctx) {
  const { HexRoom } = await import("./room.js");
  return new HexRoom(ctx);
}

/** Show the stored battle `match` on the replay page. */
export async function replay(ctx, match) {
  const { showHexReplay } = await import("./replay.js");
  return showHexReplay(document, match);
}

/** The referee sandbox for combat scripts (ctx: {onOtherGame(data, name)}). */
export const referee = lazyPart(() => import("./referee.js"), "startHexReferee");

/** The tutorial's hex fleet lesson (pages/tutorial.js). */
export const tutorial = lazyPart(() => import("./tutorial.js"), "hexLesson");

export { describe, lobbyForm, optionWords } from "./lobby.js";

/** A finished battle in the match lists (shell/matchlist.js): each side's strength left and
 * the turns it took ("ann 40% · bob 0% left (7 turns)"), or the turns alone. */
export function matchScores(summary) {
  const turns = summary.turns ? tn("{n} turn", "{n} turns", summary.turns) : "";
  if (!summary.strength) return turns;
  const left = Object.entries(summary.strength).map(([p, s]) => `${playerName(p)} ${num(s, { style: "percent" })}`);
  return t("{strengths} left ({turns})", { strengths: left.join(" · "), turns });
}

/** The rules page's section (pages/rules.js): its line in the contents and its text, in
 * English and French (its rows and tables are laid out by the hex fleet's sheet). */
export const rules = rulesSection(
  import.meta.url,
  () => t("fleets on a hex grid, ships drawn from a cup, every shot decided by playing cards"),
  ["fr"],
  { show: () => import("./sheet.js") },
);
