// Card faces as SVG, drawn like spacetable.render.svg: a stock border in the team colour,
// dark art with the ship's own silhouette (render/ship_art.py, fetched as the games' `art`
// resource), speed badge top left, health dots down the top right, laser stubs coloured by
// power, shields as cyan bars on their edge, the name below.
// Faces are centred on the origin in SVG axes (a local card point (x, y) is at (x, -y)).

import { t } from "../../shell/i18n.js";
import "./sheet.js";
import { fetchJSON, svg } from "../../shell/dom.js";
import { CARD_SIZE, fmt } from "./geometry.js";
import { heading } from "../../shell/angles.js";

const STOCK = "#f2efe6";
const ART = "#0f1730";
const SHIELD = "#5fe1ff";
const HEALTH = "#e11d2a";
// Most health drawn as dots (printed cards have up to 6): more is one dot and its number,
// whatever a table file's definition says (as render/svg.py draws it).
const MAX_HEALTH_DOTS = 8;
const KIND_COLOUR = { ion: "#39a7ff", penetrating: "#ff8c1a" };
/** Cargo cubes (Stellar Conflict) are amber. */
export const CUBE = "#f5b82e";
const HULL = [[0, 24], [6, 9], [16, -5], [16, -13], [6, -9], [4, -17], [-4, -17], [-6, -9],
  [-16, -13], [-16, -5], [-6, 9]];
const ROCK_RADII = [1.0, 0.86, 0.95, 1.08, 0.9, 0.97, 1.1, 0.84, 0.98, 1.05, 0.88, 1.0, 1.12, 0.9];

const catalogs = new Map();
// Ship art (lists of {d, fill} paths on a 63 x 88 card) by definition and by ship key.
const artByDef = new WeakMap();
const artByKey = new Map();

/**
 * A ruleset's ship definitions (GET /api/games/{ruleset}/catalog), fetched once per page,
 * with their art (GET /api/games/{ruleset}/art): faces drawn after it resolves show it.
 */
export function loadCatalog(ruleset = "lightspeed") {
  if (!catalogs.has(ruleset)) {
    const art = fetchJSON(`/api/games/${ruleset}/art`).catch(() => ({}));
    catalogs.set(ruleset, Promise.all([fetchJSON(`/api/games/${ruleset}/catalog`), art]).then(([ships, drawings]) => {
      for (const [key, parts] of Object.entries(drawings)) {
        artByKey.set(key, parts);
        if (ships[key]) artByDef.set(ships[key], parts);
      }
      return ships;
    }));
  }
  return catalogs.get(ruleset);
}

/** The art of a ship (by its definition, else its key), or null. */
export function artOf(def, key = null) {
  return artByDef.get(def) ?? (key ? artByKey.get(key) : null) ?? null;
}

/** The ship's art scaled by `s` (the generic silhouette when it has none). */
function shipArt(def, colour, s, key) {
  const parts = artOf(def, key);
  const fill = colour || "#aab4c8";
  if (!parts) {
    const hull = HULL.map(([x, y]) => `${fmt(x * s)},${fmt(-y * s)}`).join(" ");
    return svg("g", { class: "art generic" },
      svg("polygon", { class: "hull", points: hull, fill, stroke: "#e8ecf5", "stroke-width": fmt(0.5 * s) }),
      svg("ellipse", { cx: 0, cy: fmt(-11 * s), rx: fmt(2.2 * s), ry: fmt(4 * s), fill: "#cfe8ff" }));
  }
  return svg("g", { class: "art", transform: `scale(${fmt(s)})`, dataset: { ship: key || "" } },
    ...parts.map((p) => svg("path", { d: p.d, fill: p.fill === "team" ? fill : p.fill, opacity: p.opacity ?? null,
      stroke: "#e8ecf5", "stroke-width": 0.35 })));
}

/** A ship's speeds as a list (a definition's `speed` is a number or a list). */
function speedsOf(def) {
  return Array.isArray(def.speed) ? def.speed : [def.speed];
}

/**
 * The strokes that draw a laser beam of `power` and `kind`, outermost first:
 * [colour, width mm, opacity, dash pattern]. Power 1 thin white with a purple aura, 2
 * medium red, 3 thick green with a white core; ion blue with a pale dotted core;
 * penetrating orange with a white dashed core (it goes through shields).
 */
function beamStrokes(power, kind = "normal") {
  if (KIND_COLOUR[kind]) {
    const core = { 1: 0.8, 2: 1.4, 3: 2.2 }[power] ?? 1.4;
    const centre = kind === "penetrating"
      ? ["#ffffff", core * 0.6, 1, `${fmt(core * 2.5)} ${fmt(core * 1.5)}`]
      : ["#d8f0ff", core * 0.45, 0.9, `${fmt(core * 0.6)} ${fmt(core * 1.4)}`];
    return [[KIND_COLOUR[kind], core * 2.4, 0.35], [KIND_COLOUR[kind], core, 1], centre];
  }
  if (power <= 1) return [["#b48cff", 2.4, 0.55], ["#ffffff", 0.7, 1]];
  if (power === 2) return [["#ff6b6b", 2.8, 0.3], ["#e3142b", 1.5, 1]];
  return [["#22c55e", 3.6, 1], ["#ffffff", 1.1, 1]];
}

/**
 * A beam from `a` to `b` (SVG coordinates) as a group of round-capped lines. `scale`
 * widens the strokes (the table view draws them thicker than the printed stubs).
 */
export function beam(a, b, power, kind = "normal", attrs = {}, scale = 1) {
  const g = svg("g", attrs);
  for (const [colour, width, opacity, dash] of beamStrokes(power, kind)) {
    g.append(svg("line", {
      x1: fmt(a[0]), y1: fmt(a[1]), x2: fmt(b[0]), y2: fmt(b[1]),
      stroke: colour, "stroke-width": fmt(width * scale), "stroke-linecap": dash ? "butt" : "round",
      "stroke-opacity": opacity < 1 ? opacity : null,
      "stroke-dasharray": dash ? dash.split(" ").map((v) => fmt(Number(v) * scale)).join(" ") : null,
    }));
  }
  return g;
}

function blank(size, border, art) {
  const [w, h] = size;
  const s = Math.min(w / 63, h / 88);
  const b = 2.6 * s;
  const g = svg("g", { class: "face" },
    svg("rect", { x: -w / 2, y: -h / 2, width: w, height: h, rx: 3 * s, fill: border,
      stroke: "#222222", "stroke-width": 0.3 }),
    svg("rect", { x: b - w / 2, y: b - h / 2, width: w - 2 * b, height: h - 2 * b,
      rx: 1.5 * s, fill: art }));
  return { g, s, b };
}

function text(x, y, content, size, attrs = {}) {
  return svg("text", { x: fmt(x), y: fmt(y), "font-size": fmt(size), "text-anchor": "middle",
    fill: "#1d2230", ...attrs }, content);
}

/**
 * A ship's face: `def` is a catalog definition, `colour` the team colour (or null); `key`
 * the ship's key finds its art when `def` is not the catalog's own object.
 */
export function shipFace(def, colour, size = CARD_SIZE, key = null) {
  const [w, h] = size;
  const hw = w / 2;
  const hl = h / 2;
  const sx = w / 63;
  const sy = h / 88;
  const { g, s, b } = blank(size, colour || STOCK, ART);
  g.append(shipArt(def, colour, s, key));
  for (const sh of def.shields || []) {
    const along = sh.edge === "front" || sh.edge === "back" ? sx : sy;
    const lo = sh.from * along;
    const hi = Math.max(sh.to * along, lo + 0.8);
    const [x, y, bw, bh] = {
      front: [lo, -hl, hi - lo, b],
      back: [lo, hl - b, hi - lo, b],
      left: [-hw, -hi, b, hi - lo],
      right: [hw - b, -hi, b, hi - lo],
    }[sh.edge];
    g.append(svg("rect", { class: `shield edge-${sh.edge}`, x: fmt(x), y: fmt(y), width: fmt(bw),
      height: fmt(bh), fill: SHIELD, stroke: "#0b6e8a", "stroke-width": 0.3 }));
  }
  (def.lasers || []).forEach((lz, index) => {
    const [dx, dy] = heading(lz.angle);
    const end = [lz.at[0] * sx, -lz.at[1] * sy];
    const start = [end[0] - dx * 10 * s, end[1] + dy * 10 * s];
    const kind = lz.kind || "normal";
    g.append(beam(start, end, lz.power, kind,
      { class: `laser-stub power-${lz.power} kind-${kind}`, "data-laser": index }));
  });
  const speeds = speedsOf(def).join("/");
  const bw = Math.max(9, 4.4 * speeds.length + 3.5) * s;
  const bx = 1.2 * s - hw;
  const by = 1.2 * s - hl;
  g.append(
    svg("rect", { x: fmt(bx), y: fmt(by), width: fmt(bw), height: fmt(9.5 * s), rx: fmt(2 * s),
      fill: "#ffffff", stroke: "#222222", "stroke-width": 0.4 }),
    text(bx + bw / 2, by + 7.4 * s, speeds, 7.5 * s,
      { class: "speed", "font-weight": "bold", "data-speeds": speeds }),
  );
  const health = Number(def.health) || 0;
  const dots = health <= MAX_HEALTH_DOTS ? health : 1;
  for (let i = 0; i < dots; i += 1) {
    g.append(svg("circle", { class: "health-dot", cx: fmt(hw - 6 * s), cy: fmt((6.5 + i * 5.2) * s - hl),
      r: fmt(2 * s), fill: HEALTH, stroke: "#ffffff", "stroke-width": fmt(0.4 * s) }));
  }
  if (dots < health) {
    g.append(text(hw - 6 * s, 15 * s - hl, String(health), 4 * s,
      { class: "health-count", fill: "#ffffff", "font-weight": "bold" }));
  }
  const name = def.name || "?";
  // The name as large as the card's width allows, to be read on the table.
  const font = Math.min(9 * s, (w - 8 * s) / (0.64 * Math.max(name.length, 1)));
  g.append(text(0, 33 * s, name, font, { class: "name", fill: "#ffffff", "font-weight": "bold",
    stroke: ART, "stroke-width": fmt(0.8 * s), "paint-order": "stroke" }));
  if (def.role && def.role !== "warship") {
    const roles = { cargo: t("CARGO"), flag: t("FLAG"), scout: t("SCOUT") };
    g.append(text(0, 38.3 * s, roles[def.role] || def.role.toUpperCase(), 3.6 * s, { class: "role", fill: "#9fb3d9" }));
  }
  // Stellar Conflict cards print their VP and credits (as render/svg.py draws them).
  const vp = def.vp ?? def.health;
  const [gx, gy] = [hw - 4.5 * s, hl - 4.5 * s];
  if (def.credits || vp !== def.health) {
    g.append(text(-gx, gy, t("{vp} VP", { vp }), 4 * s, { class: "vp", fill: "#ffe08a", "text-anchor": "start" }));
  }
  if (def.credits) {
    g.append(text(gx, gy, t("{credits} cr", { credits: def.credits }), 4 * s, { class: "credits", fill: "#ffe08a", "text-anchor": "end" }));
  }
  return g;
}

/** Cargo cubes on a card: a small stack of cubes with their count (`.cargo-cubes`). */
export function cubesToken(x, y, count, attrs = {}) {
  return svg("g", { dataset: { count }, ...attrs, class: `cargo-cubes ${attrs.class || ""}`.trim() },
    svg("rect", { x: fmt(x - 9), y: fmt(y - 6), width: 8, height: 8, rx: 1, fill: CUBE, stroke: "#ffffff", "stroke-width": 0.7 }),
    svg("rect", { x: fmt(x - 5), y: fmt(y - 9), width: 8, height: 8, rx: 1, fill: CUBE, stroke: "#ffffff", "stroke-width": 0.7 }),
    svg("text", { x: fmt(x + 9), y: fmt(y + 2), "font-size": 9, "text-anchor": "middle", "font-weight": "bold",
      fill: "#ffffff", stroke: "#0a0f1f", "stroke-width": 2.5, "paint-order": "stroke" }, String(count)));
}

/**
 * An asteroid card with its rock count (the `.rock-count` text can be updated later);
 * `unit` names what it holds: rocks (Light Speed) or cubes (Stellar Conflict).
 */
export function asteroidFace(size = CARD_SIZE, rocks = 12, unit = "rocks") {
  const { g, s } = blank(size, STOCK, "#1a1d28");
  // A large asteroid (two cards side by side) keeps a rock that fits its height.
  const base = 0.36 * Math.min(size[0], (size[1] * 63) / 88);
  const hl = size[1] / 2;
  const points = ROCK_RADII.map((r, i) => {
    const [dx, dy] = heading((360 * i) / ROCK_RADII.length);
    return `${fmt(dx * r * base)},${fmt(dy * r * base * 1.15)}`;
  }).join(" ");
  g.append(svg("polygon", { points, fill: "#7d7468", stroke: "#b9ad9c", "stroke-width": fmt(0.8 * s) }));
  for (const [cx, cy, r] of [[-8, 10, 3.5], [9, -12, 2.6], [7, 14, 2.0]]) {
    g.append(svg("circle", { cx: cx * s, cy: cy * s, r: r * s, fill: "#5f574d" }));
  }
  g.append(
    text(0, 3.5 * s, String(rocks), 12 * s,
      { class: "rock-count", "data-rocks": rocks, fill: "#ffffff", "font-weight": "bold" }),
    text(0, 9.5 * s, unit === "cubes" ? t("cubes") : t("rocks"), 4 * s, { class: "rock-unit", fill: "#f0e6d6" }),
    text(0, hl - 5 * s, t("ASTEROID"), 4.5 * s, { fill: "#d8d2c6", "font-weight": "bold" }),
  );
  return g;
}

/** Show `rocks` on an asteroid card element drawn by `asteroidFace`. */
export function setAsteroidRocks(cardElement, rocks) {
  const label = cardElement.querySelector(".rock-count");
  if (label) {
    label.textContent = String(rocks);
    label.dataset.rocks = String(rocks);
  }
}

/**
 * The face of a table card: `card` as in a table file or a `placed` message (`type`
 * asteroid, or `owner` and `ship`), `ships` the definitions by key, `colour` the owner's.
 * A ship missing from `ships` is drawn as a plain card with its key. `unit`: what an
 * asteroid holds ("rocks" or "cubes").
 */
export function cardFace(card, ships, colour, size = CARD_SIZE, unit = "rocks") {
  if (card.type === "asteroid") return asteroidFace(size, card.rocks ?? 12, unit);
  const def = ships[card.ship] || { name: card.ship, speed: "?", health: 0, lasers: [], shields: [] };
  return shipFace(def, colour, size, card.ship);
}
