// Light Speed in the browser: the interface every game offers (games/index.js). Its room,
// replay and referee are the laser games' (games/lasers/), which Stellar Conflict shares.

import { t } from "../../shell/i18n.js";
import { laserParts } from "../lasers/parts.js";

/** Play in the room page, show a stored match, the referee sandbox: the laser games'. */
export const { room, replay, referee } = laserParts("lightspeed", "rocks");

/** The tutorial's Light Speed lesson, its finale a first match (pages/tutorial.js). */
export async function tutorial(api) {
  const { lightspeedLesson } = await import("./tutorial.js");
  return lightspeedLesson(api);
}

export { describe, lobbyForm, optionWords } from "./lobby.js";

/** The rules page's section (pages/rules.js): its line in the contents, its text, its fleet. */
export const rules = {
  get summary() {
    return t("drop your ships at once, then watch the lasers fly");
  },
  html: new URL("./rules.html", import.meta.url).href,
  languages: ["fr"], // its text in each: rules.<lang>.html beside rules.html
  async show(section) {
    const { showFleet } = await import("../lasers/rules_fleet.js");
    return showFleet(section.querySelector(".fleet"), "lightspeed");
  },
};
