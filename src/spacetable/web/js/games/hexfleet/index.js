// The hex fleet in the browser: the interface every game offers (games/index.js).
// Each part loads its own modules when asked, so a page loads only what it shows.

import { t } from "../../shell/i18n.js";

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
export async function referee(ctx) {
  const { startHexReferee } = await import("./referee.js");
  return startHexReferee(ctx);
}

/** The tutorial's hex fleet lesson (pages/tutorial.js). */
export async function tutorial(api) {
  const { hexLesson } = await import("./tutorial.js");
  return hexLesson(api);
}

export { describe, lobbyForm, optionWords } from "./lobby.js";

/** The rules page's section (pages/rules.js): its line in the contents and its text (its
 * rows and tables are laid out by the hex fleet's sheet). */
export const rules = {
  get summary() {
    return t("fleets on a hex grid, ships drawn from a cup, every shot decided by playing cards");
  },
  html: new URL("./rules.html", import.meta.url).href,
  languages: ["fr"], // its text in each: rules.<lang>.html beside rules.html
  show: () => import("./sheet.js"),
};
