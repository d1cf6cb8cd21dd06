// The hex fleet's map in numbers and words, as the server has them (games/hexfleet/hexes.py):
// the size of a hex as drawn, the six facings and their names, a hex's printed label, where
// a ship's steps lead, and a ship in one line. The board draws with them; the controls,
// the room and the tutorial name hexes and facings with them.

import { t } from "../../shell/i18n.js";

/** A hex's corner radius in board units. */
export const HEX_RADIUS = 10;
export const SQRT3 = Math.sqrt(3);
/** The neighbour across facing f (0 = north, clockwise), as the server's DIRECTIONS. */
export const DIRECTIONS = [[0, -1], [1, -1], [1, 0], [0, 1], [-1, 1], [-1, 0]];
/** Facing names, as the server's FACING_NAMES. */
export const FACING_NAMES = ["north", "north-east", "south-east", "south", "south-west", "north-west"];
/** The facing names in the page's language. */
export const FACING_WORDS = () => [t("north"), t("north-east"), t("south-east"), t("south"), t("south-west"), t("north-west")];

/** "0704": column then row, two digits each from 01 (as the server's hex_label). */
export function hexLabel(q, r) {
  const row = r + (q - (q & 1)) / 2;
  return `${String(q + 1).padStart(2, "0")}${String(row + 1).padStart(2, "0")}`;
}

/** The hex `steps` lead to: {q, r, facing, path: [[q, r], ...]} from `at` facing `facing`. */
export function walkSteps(at, facing, steps) {
  let [q, r] = at;
  let f = facing;
  const path = [[q, r]];
  for (const step of steps) {
    if (step === "L") f = (f + 5) % 6;
    else if (step === "R") f = (f + 1) % 6;
    else {
      q += DIRECTIONS[f][0];
      r += DIRECTIONS[f][1];
      path.push([q, r]);
    }
  }
  return { q, r, facing: f, path };
}

/** One line about a ship: for tooltips and screen readers. */
export function describeShip(ship) {
  const classes = { light: t("light ship"), heavy: t("heavy ship"), medium: t("medium ship") };
  const weapons = ship.weapons === "light" ? t("light weapons") : t("heavy weapons");
  const cls = ship.class === "medium" ? t("medium ship ({weapons})", { weapons })
    : classes[ship.class] || ship.class;
  const where = ship.at ? " " + t("at {hex} facing {facing}", { hex: hexLabel(ship.at[0], ship.at[1]), facing: FACING_WORDS()[ship.facing] }) : "";
  const shields = ship.shields_up ? t("shields {left}/{max} (up)", { left: ship.shields, max: ship.shields_max })
    : t("shields {left}/{max}", { left: ship.shields, max: ship.shields_max });
  return t("{ship}, {owner}'s {what}{where}: {shields}, weapons {weapons}/{weaponsMax}, propulsion {propulsion}/{propulsionMax}", {
    ship: ship.name, owner: ship.owner, what: cls, where, shields, weapons: ship.weapon_systems, weaponsMax: ship.weapon_systems_max,
    propulsion: ship.propulsion, propulsionMax: ship.propulsion_max });
}
