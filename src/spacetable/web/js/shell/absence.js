// How a page says that a seated person has no connection: in red, "disconnected", where it
// matters at once (a live match waits on him); in a correspondence room (days a turn), where
// being away is how the game is played, plainly "offline".

import { el } from "./dom.js";
import { t } from "./i18n.js";

/** The badge of a seated person with no connection (`correspondence`: the room's turns last
 * hours), with the class `extra` too. */
export function absence(correspondence, extra = "") {
  return el("span", { class: `${extra} ${correspondence ? "offline" : "away"}`.trim(),
    text: correspondence ? t("offline") : t("disconnected") });
}
