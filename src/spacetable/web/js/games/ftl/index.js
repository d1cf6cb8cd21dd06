// Faster Than Light in the browser: the interface every game offers (games/index.js).
// Each part loads its own modules when asked, so a page loads only what it shows.

import { t } from "../../shell/i18n.js";

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
export async function referee(ctx) {
  const { startFtlReferee } = await import("./referee.js");
  return startFtlReferee(ctx);
}

/** The tutorial's Faster Than Light lesson (pages/tutorial.js). */
export async function tutorial(api) {
  const { ftlLesson } = await import("./tutorial.js");
  return ftlLesson(api);
}

export { describe, lobbyForm, optionWords } from "./lobby.js";

/** The rules page's section (pages/rules.js): its line in the contents and its text. */
export const rules = {
  get summary() {
    return t("a duel of secret orders, turn by turn");
  },
  html: new URL("./rules.html", import.meta.url).href,
  languages: ["fr"], // its text in each: rules.<lang>.html beside rules.html
};
