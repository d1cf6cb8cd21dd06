// The rules page's fleet of a laser game: every ship drawn as the table draws it
// (cards.js), one face per ship with its speed, health, lasers and shields in words.

import { clear, el, svg } from "../../shell/dom.js";
import { colourOf } from "../../shell/colours.js";
import { loadCatalog, shipFace } from "./cards.js";
import { CARD_SIZE } from "./geometry.js";
import { t } from "../../shell/i18n.js";

/** A laser's direction in words: its angle off the bow (degrees, + to the left). */
function side(angle) {
  const a = ((Math.round(angle) % 360) + 540) % 360 - 180;
  if (a === 0) return t("ahead");
  if (a === 180 || a === -180) return t("back");
  if (a === 90) return t("left");
  if (a === -90) return t("right");
  return a > 0 ? t("{deg}° left", { deg: Math.abs(a) }) : t("{deg}° right", { deg: Math.abs(a) });
}

/** One line about a ship: speed, health, lasers, shields. */
function shipWords(def) {
  const speed = Array.isArray(def.speed) ? def.speed.join(t(" and ")) : def.speed;
  const lasers = (def.lasers || []).map((l) => `${l.power} ${side(l.angle ?? 0)}`).join(", ") || t("none");
  const edges = { front: t("front"), back: t("back"), left: t("left"), right: t("right") };
  const shields = [...new Set((def.shields || []).map((s) => s.edge))].map((e) => edges[e] || e).join(", ");
  const words = t("speed {speed}, health {health}; lasers: {lasers}", { speed, health: def.health, lasers });
  return shields ? t("{ship}; shields: {shields}", { ship: words, shields }) : words;
}

/** Draw the fleet of `ruleset` in `box`, slowest first (or say why it could not load). */
export async function showFleet(box, ruleset) {
  let catalog;
  try {
    catalog = await loadCatalog(ruleset);
  } catch (error) {
    box.replaceChildren(el("p", { class: "muted", text: t("The fleet could not be loaded: {error}", { error: error.message }) }));
    return;
  }
  const ships = Object.entries(catalog).sort(([, a], [, b]) => Number(a.speed) - Number(b.speed));
  clear(box);
  const [w, h] = CARD_SIZE;
  for (const [key, def] of ships) {
    const face = svg("svg", { viewBox: `${-w / 2 - 2} ${-h / 2 - 2} ${w + 4} ${h + 4}`, class: "fleet-face",
      role: "img", "aria-label": t("{ship} card", { ship: def.name }) }, shipFace(def, colourOf(0)));
    box.append(el("figure", { class: "fleet-card", dataset: { ship: key } }, face,
      el("figcaption", {}, el("b", { text: def.name }), el("span", { text: shipWords(def) }))));
  }
}
