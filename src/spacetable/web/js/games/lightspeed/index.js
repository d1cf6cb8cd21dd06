// Light Speed in the browser: the interface every game offers (games/index.js). Its room,
// replay and referee are the laser games' (games/lasers/), which Stellar Conflict shares.

import { t } from "../../shell/i18n.js";
import { laserParts } from "../lasers/parts.js";
import { lazyPart, rulesSection } from "../index.js";

/** Play in the room page, show a stored match, the referee sandbox: the laser games'. */
export const { room, replay, referee } = laserParts("lightspeed", "rocks");

/** The tutorial's Light Speed lesson, its finale a first match (pages/tutorial.js). */
export const tutorial = lazyPart(() => import("./tutorial.js"), "lightspeedLesson");

export { describe, lobbyForm, optionWords } from "./lobby.js";

/** A finished match's scores in the match lists: the laser games'. */
export { matchScores } from "../lasers/summary.js";

/** The rules page's section (pages/rules.js): its line in the contents, its text in
 * English and French, its fleet. */
export const rules = rulesSection(
  import.meta.url,
  () => t("drop your ships at once, then watch the lasers fly"),
  ["fr"],
  {
    async show(section) {
      const { showFleet } = await import("../lasers/rules_fleet.js");
      return showFleet(section.querySelector(".fleet"), "lightspeed");
    },
  },
);
