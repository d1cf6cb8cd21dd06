// Stellar Conflict in the browser: the interface every game offers (games/index.js). Its
// room, replay and referee are the laser games' (games/lasers/), with its races, its
// fleet builder and cargo cubes.

import { t } from "../../shell/i18n.js";
import { laserParts } from "../lasers/parts.js";
import { rulesSection } from "../index.js";

/** Play in the room page (its race choice too), show a stored match, the referee sandbox:
 * the laser games'. */
export const { room, replay, referee } = laserParts("stellar", "cubes", { races: true });

/** No lesson of its own in the tutorial: Light Speed's teaches its battle. */
export const tutorial = null;

/** What the tutorial says of this game, which has no lesson of its own: at the end of `lesson`'s. */
export const lessonNote = {
  lesson: "lightspeed",
  get text() {
    return t("Stellar Conflict has no lesson of its own: it is Light Speed's battle with four alien races, each with its own ships, a fleet you buy with credits, cargo to carry and a countdown to deploy against. Learn Light Speed, then read its rules.");
  },
};

export { describe, lobbyForm, optionWords } from "./lobby.js";

/** A finished match's scores in the match lists: the laser games'. */
export { matchScores } from "../lasers/summary.js";

/** The rules page's section (pages/rules.js): its line in the contents and its text, in
 * English and French. */
export const rules = rulesSection(
  import.meta.url,
  () => t("the same battle with four alien races, credits and a countdown"),
  ["fr"],
);
