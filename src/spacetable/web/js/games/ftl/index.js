// Faster Than Light in the browser: the interface every game offers (games/index.js).
// Each part loads its own modules when asked, so a page loads only what it shows.

import { t, tn } from "../../shell/i18n.js";
import { lazyPart, rulesSection } from "../index.js";

/** Play in the room page (ctx {roomId, params, game, describe}). */
export async function room(ctx) {
  const { FtlRoom } = await import("./room.js");
  return new FtlRoom(ctx);
}

/** Show the stored match `match` on the replay page. */
export async function replay(ctx, match) {
  const { showFtlReplay } = await import("./replay.js");
  return showFtlReplay(match);
}

/** The referee sandbox for FTL turns (ctx: {onOtherGame(data, name)}). */
export const referee = lazyPart(() => import("./referee.js"), "startFtlReferee");

/** The tutorial's Faster Than Light lesson (pages/tutorial.js). */
export const tutorial = lazyPart(() => import("./tutorial.js"), "ftlLesson");

export { describe, lobbyForm, optionWords } from "./lobby.js";

/** A finished duel in the match lists (shell/matchlist.js): how many turns it took, or ""
 * when it ended before its first. */
export function matchScores(summary) {
  return summary.turns ? tn("{n} turn", "{n} turns", summary.turns) : "";
}

/** The rules page's section (pages/rules.js): its line in the contents and its text, in
 * English and French. */
export const rules = rulesSection(import.meta.url, () => t("a duel of secret orders, turn by turn"), ["fr"]);
