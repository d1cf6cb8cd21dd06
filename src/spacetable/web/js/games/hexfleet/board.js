// The hex fleet board: flat-topped hexes drawn to scale in SVG, labelled as printed maps
// are (column then row, "0704"), with the ships on it (a silhouette per class pointing to
// its facing, in its owner's seat colour, a ring when its shields are up, small gauges for
// shields, weapons and propulsion). It zooms and pans (buttons, the wheel, a drag, two
// fingers) and redraws from the state it is given, never the other way round. Used by the
// room page, the replay and the tutorial.
//
// API:
//   const board = new HexBoard(container, { width, height, colourOf })
//     container: an <svg> to draw in, or an element an <svg> is appended to.
//     bottomRoomPx: room kept under the map when it is shown whole (buttons over the board).
//     width, height: the board in columns and rows (odd-q offset, as the server's Board).
//     colourOf(owner) -> CSS colour (default: by order of first appearance, seat colours).
//   board.render({ ships, activation })   the ships (the server's ship JSON) and the
//     activation ({ship, movement, done, placing} or null: the active ship is outlined).
//   board.highlightMoves(reach)   light the hexes the active ship can end on ([{at, facing,
//     steps, cost}], the view's `reach`; [] clears); with a ship active, the six facings
//     around it that a turn reaches are drawn as arrows.
//   board.highlightTargets(aim)   light the ships that can be fired at, dim the others with
//     the reason as their tooltip (the view's `aim`; [] clears).
//   board.showPath(steps, cost, movement)   draw the path of `steps` ("FFR") from the active
//     ship, with "cost of movement hexes" at its end (null clears).
//   board.select(hexKey | null)   outline a chosen hex ("q,r").
//   board.showArc(range | null)   while aiming: tint the hexes the active ship can fire at
//     (within `range` hexes and, for a light ship, ahead of it) and draw a light ship's
//     arc edge; null clears.
//   Hex numbers and ship names keep at least about 10 screen pixels when the whole board
//   is shown (up to what a hex holds): their size follows the zoom.
//   board.animateMove(shipId, from, path)   the ship (drawn where it ended) glides from hex
//     `from` ([q, r]) through `path` (the hexes entered), 0.15 s a hex.
//   board.layers.fx   a layer over the ships for marks that come and go (reveal.js: beams).
//   board.onHex(cb)      cb({q, r, label, pointerType}) on a click or tap of a hex.
//   board.onShip(cb)     cb(ship, {pointerType}) on a click or tap of a ship.
//   board.onFacing(cb)   cb(facing) on a click of one of the facing arrows.
//   board.onHover(cb)    cb({q, r} | null) as the mouse goes over hexes.
//   board.hexCentre(q, r) -> {x, y} in board units (corner radius HEX_RADIUS).
//   board.zoomControls() -> an element with zoom in / out / fit buttons.
//   board.fit(), board.zoom(factor, at?), board.centreOn(q, r)
//   board.frameHexes([[q, r], ...], { focus, minHexPx })   zoom to show those hexes, each
//     no smaller than minHexPx screen pixels (a phone's finger) around `focus`
//   board.bringIntoView([[q, r], ...], { right })   pan, zooming out if need be, to show those
//     hexes (clear of `right` px a tray covers), the view kept on the map.
//   board.setTurned(degrees)   turn the board 0, 90, 180 or 270 degrees clockwise about its
//     middle (your side at the bottom). Hex labels and compass facings stay the map's, as
//     the log names them; text stays upright (css/touch.css: .board-turned).
//   board.turnFor(owner, ships) -> the turn that puts `owner`'s ships at the bottom.

import "./sheet.js";
import { el, reducedMotion, svg } from "../../shell/dom.js";
import { t, tn } from "../../shell/i18n.js";
import { said } from "../../shell/phrase.js";
import { colourOf as seatColour } from "../../shell/colours.js";
import { turnToBottom } from "../../shell/boardturn.js";
import { panZoom, zoomedBox } from "../../shell/panzoom.js";
import { DIRECTIONS, FACING_WORDS, HEX_RADIUS, SQRT3, describeShip, hexLabel, walkSteps } from "./hexes.js";

/** Class silhouettes, pointing north (−y), inside a unit circle. */
const HULLS = {
  light: [[0, -1], [0.32, 0.2], [0.6, 0.75], [0, 0.5], [-0.6, 0.75], [-0.32, 0.2]],
  medium: [[0, -1], [0.3, -0.45], [0.85, 0.25], [0.85, 0.7], [0.3, 0.55], [0, 0.8], [-0.3, 0.55],
    [-0.85, 0.7], [-0.85, 0.25], [-0.3, -0.45]],
  heavy: [[0, -1], [0.45, -0.7], [0.55, -0.1], [0.95, 0.2], [0.95, 0.85], [0.35, 0.95], [-0.35, 0.95],
    [-0.95, 0.85], [-0.95, 0.2], [-0.55, -0.1], [-0.45, -0.7]],
};
/** A turning arrow's glyph about its button's centre, pointing north (−y): a slim head on a
 * shaft, longer than wide. (An equilateral triangle turned 60° reads as one pointing the
 * other way: ▲ turned to north-east looks like ▼.) */
const ARROW_GLYPH = "M 0 -2 L 1.35 -0.25 L 0.45 -0.25 L 0.45 1.7 L -0.45 1.7 L -0.45 -0.25 L -1.35 -0.25 Z";
const GAUGES = [["shields", "shields_max", "#5fe1ff"], ["weapon_systems", "weapon_systems_max", "#ffb347"],
  ["propulsion", "propulsion_max", "#3ddc84"]];

/** A view's edge on one axis, kept on the map (centred when the view is larger than it). */
const place = (lo, size, mapLo, mapSize) => (size >= mapSize ? mapLo + (mapSize - size) / 2 : Math.min(Math.max(lo, mapLo), mapLo + mapSize - size));

/** The points of a flat-topped hexagon around (x, y). */
function corners(x, y, radius = HEX_RADIUS) {
  return Array.from({ length: 6 }, (_, k) => {
    const angle = (Math.PI / 3) * k;
    return `${(x + radius * Math.cos(angle)).toFixed(2)},${(y + radius * Math.sin(angle)).toFixed(2)}`;
  }).join(" ");
}

export class HexBoard {
  /** `bottomRoomPx`: screen pixels the whole board's view keeps free under the map (for buttons over its bottom edge). */
  constructor(container, { width, height, colourOf = null, bottomRoomPx = 0 }) {
    this.bottomRoomPx = bottomRoomPx;
    this.svg = container instanceof SVGSVGElement ? container
      : container.appendChild(svg("svg", { xmlns: "http://www.w3.org/2000/svg" }));
    this.svg.classList.add("hex-board");
    this.svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
    this.owners = [];
    this.colourOf = colourOf || ((owner) => {
      if (!this.owners.includes(owner)) this.owners.push(owner);
      return seatColour(this.owners.indexOf(owner));
    });
    this.handlers = { hex: [], ship: [], facing: [], hover: [] };
    this.ships = [];
    this.activation = null;
    this.layers = {};
    this.turnDeg = 0;
    // Everything is drawn in the map's frame inside `root`, which a turned board turns.
    this.root = this.svg.appendChild(svg("g", { class: "hex-view" }));
    for (const name of ["hexes", "arc", "path", "ships", "fx", "arrows"]) {
      this.layers[name] = this.root.appendChild(svg("g", { class: `hex-${name}` }));
    }
    this.setSize(width, height);
    this.listen();
    if (typeof ResizeObserver === "function") new ResizeObserver(() => this.sizeText()).observe(this.svg);
  }

  /** Redraw the grid for a board of `width` columns and `height` rows. */
  setSize(width, height) {
    this.width = width;
    this.height = height;
    this.hexes = new Map();
    const layer = this.layers.hexes;
    layer.replaceChildren();
    for (let col = 0; col < width; col += 1) {
      for (let row = 0; row < height; row += 1) {
        const q = col;
        const r = row - (col - (col & 1)) / 2;
        const { x, y } = this.hexCentre(q, r);
        const label = hexLabel(q, r);
        const g = svg("g", { class: "hex", dataset: { hex: `${q},${r}`, label } },
          svg("polygon", { points: corners(x, y) }),
          svg("text", { class: "hex-label", x, y: y - HEX_RADIUS * 0.4, "text-anchor": "middle", "dominant-baseline": "central" }, label),
          svg("title", {}, t("hex {hex}", { hex: label })));
        layer.append(g);
        this.hexes.set(`${q},${r}`, g);
      }
    }
    const xs = HEX_RADIUS * 1.5 * (width - 1);
    const ys = SQRT3 * HEX_RADIUS * (height - 0.5);
    this.bounds = { x: -HEX_RADIUS - 2, y: -SQRT3 * HEX_RADIUS / 2 - 2, w: xs + 2 * HEX_RADIUS + 4, h: ys + SQRT3 * HEX_RADIUS + 4 };
    this.turnRoot();
    this.fit();
  }

  /**
   * Turn the board `degrees` (0, 90, 180 or 270) clockwise about its middle: your side at the
   * bottom. The whole board is shown again.
   */
  setTurned(degrees) {
    this.turnDeg = ((Math.round(degrees / 90) % 4) + 4) % 4 * 90;
    this.flipped = this.turnDeg !== 0;
    this.svg.classList.toggle("board-turned", this.flipped);
    this.svg.style.setProperty("--board-text-turn", `${-this.turnDeg}deg`);
    this.svg.dataset.turned = String(this.turnDeg);
    this.turnRoot();
    this.fit();
  }

  /** The root group's turn, and the map's bounds as the screen shows them (`shown`). */
  turnRoot() {
    if (!this.bounds) return;
    const { x, y, w, h } = this.bounds;
    const [cx, cy] = [x + w / 2, y + h / 2];
    if (this.turnDeg) this.root.setAttribute("transform", `rotate(${this.turnDeg} ${cx.toFixed(2)} ${cy.toFixed(2)})`);
    else this.root.removeAttribute("transform");
    const across = this.turnDeg % 180 === 0;
    this.shown = across ? { ...this.bounds } : { x: cx - h / 2, y: cy - w / 2, w: h, h: w };
  }

  /** A map point as the screen shows it (the SVG's own units): turned about the board's middle. */
  mirror({ x, y }) {
    if (!this.turnDeg) return { x, y };
    const b = this.bounds;
    const [cx, cy] = [b.x + b.w / 2, b.y + b.h / 2];
    const rad = (this.turnDeg * Math.PI) / 180;
    const [c, s] = [Math.round(Math.cos(rad)), Math.round(Math.sin(rad))];
    return { x: cx + (x - cx) * c - (y - cy) * s, y: cy + (x - cx) * s + (y - cy) * c };
  }

  /**
   * The turn (degrees clockwise) that puts `owner`'s ships (`ships`: the server's ship JSON)
   * at the bottom of the screen, from where they stand against the other sides' ships.
   */
  turnFor(owner, ships = this.ships) {
    const placed = (ships || []).filter((s) => s.at && s.status === "table");
    const mean = (list) => {
      const points = list.map((s) => this.hexCentre(s.at[0], s.at[1]));
      return { x: points.reduce((a, p) => a + p.x, 0) / points.length, y: points.reduce((a, p) => a + p.y, 0) / points.length };
    };
    const mine = placed.filter((s) => s.owner === owner);
    if (!mine.length) return 0;
    const others = placed.filter((s) => s.owner !== owner);
    const b = this.bounds;
    const from = others.length ? mean(others) : { x: b.x + b.w / 2, y: b.y + b.h / 2 };
    const at = mean(mine);
    return turnToBottom(at.x - from.x, at.y - from.y);
  }

  /** The centre of hex (q, r) in board units. */
  hexCentre(q, r) {
    return { x: 1.5 * HEX_RADIUS * q, y: SQRT3 * HEX_RADIUS * (r + q / 2) };
  }

  // -- drawing -----------------------------------------------------------------------------

  /** Draw `ships` (those on the table) and outline the active one. */
  render({ ships, activation = null }) {
    this.ships = ships;
    this.activation = activation;
    const layer = this.layers.ships;
    layer.replaceChildren();
    for (const g of this.hexes.values()) g.classList.remove("occupied");
    for (const ship of ships) {
      if (ship.status !== "table" || !ship.at) continue;
      this.hexes.get(`${ship.at[0]},${ship.at[1]}`)?.classList.add("occupied");
      layer.append(this.drawShip(ship, activation?.ship === ship.id));
    }
  }

  drawShip(ship, active) {
    const { x, y } = this.hexCentre(ship.at[0], ship.at[1]);
    const colour = this.colourOf(ship.owner);
    const size = { light: 4.4, medium: 5.1, heavy: 5.7 }[ship.class] || 5.1;
    const hull = HULLS[ship.class] || HULLS.medium;
    const points = hull.map(([hx, hy]) => `${(hx * size).toFixed(2)},${(hy * size).toFixed(2)}`).join(" ");
    const body = svg("g", { transform: `translate(${x.toFixed(2)} ${y.toFixed(2)}) rotate(${ship.facing * 60})` },
      svg("polygon", { class: "hull", points, fill: colour }));
    if (ship.weapons === "heavy") {
      // Heavy guns: two barrels ahead of the hull (a medium's choice shows at a glance).
      for (const side of [-1, 1]) {
        body.append(svg("rect", { class: "guns", x: side * size * 0.42 - 0.45, y: -size * 0.95, width: 0.9, height: size * 0.7 }));
      }
    }
    const gauges = svg("g", { class: "gauges" });
    GAUGES.forEach(([key, max, colour2], k) => {
      const gy = y + HEX_RADIUS * 0.59 + k * 0.9;
      const full = 8;
      const fraction = ship[max] ? Math.max(0, ship[key]) / ship[max] : 0;
      gauges.append(svg("rect", { class: "gauge-back", x: x - full / 2, y: gy, width: full, height: 0.7 }),
        svg("rect", { class: `gauge gauge-${key}`, x: x - full / 2, y: gy, width: (full * fraction).toFixed(2), height: 0.7, fill: colour2 }));
    });
    const name = svg("text", { class: "ship-name", x, y: y - HEX_RADIUS * 0.6, "text-anchor": "middle", fill: colour }, ship.name);
    const g = svg("g", { class: `ship ship-${ship.class}${active ? " active" : ""}${ship.shields_up ? " shielded" : ""}`,
      dataset: { ship: ship.id, piece: ship.id, owner: ship.owner, hex: `${ship.at[0]},${ship.at[1]}`, facing: ship.facing } },
    svg("circle", { class: "ship-hit", cx: x, cy: y, r: HEX_RADIUS * 0.82 }),
    ship.shields_up ? svg("circle", { class: "shield-ring", cx: x, cy: y, r: size + 1.1 }) : null,
    body, svg("g", { class: "ship-marks upright" }, gauges, name),
    svg("title", {}, describeShip(ship)));
    return g;
  }

  /** Light the hexes of `reach`; arrows for the facings a turn in place reaches. */
  highlightMoves(reach) {
    this.reach = reach || [];
    const best = new Map();
    const here = this.activeShip()?.at?.join(",");
    for (const move of this.reach) {
      const key = `${move.at[0]},${move.at[1]}`;
      if (key === here) continue; // turning in place: the arrows around the ship
      if (!best.has(key) || best.get(key).cost > move.cost) best.set(key, move);
    }
    this.bestMove = best;
    for (const [key, g] of this.hexes) {
      const move = best.get(key);
      g.classList.toggle("reachable", Boolean(move));
      if (move) g.dataset.cost = move.cost;
      else delete g.dataset.cost;
    }
    this.drawArrows();
  }

  /** The cheapest move that ends on hex `key` ("q,r"), or undefined. */
  moveTo(key) {
    return this.bestMove?.get(key);
  }

  /** The cheapest move that ends on the active ship's own hex facing `facing`. */
  turnTo(facing) {
    const ship = this.activeShip();
    if (!ship) return undefined;
    return (this.reach || []).find((m) => m.at[0] === ship.at[0] && m.at[1] === ship.at[1] && m.facing === facing);
  }

  activeShip() {
    return this.ships.find((s) => s.id === this.activation?.ship && s.at);
  }

  drawArrows() {
    const layer = this.layers.arrows;
    layer.replaceChildren();
    const ship = this.activeShip();
    if (!ship || !this.reach?.length) return;
    const { x, y } = this.hexCentre(ship.at[0], ship.at[1]);
    for (let facing = 0; facing < 6; facing += 1) {
      const move = this.turnTo(facing);
      if (!move) continue;
      const angle = facing * 60;
      const g = svg("g", { class: "facing-arrow", dataset: { facing, cost: move.cost },
        transform: `translate(${x.toFixed(2)} ${y.toFixed(2)}) rotate(${angle})` },
      svg("circle", { cx: 0, cy: -HEX_RADIUS * 1.05, r: 2.6 }),
      svg("path", { class: "facing-glyph", d: ARROW_GLYPH, transform: `translate(0 ${-HEX_RADIUS * 1.05})` }),
      svg("title", {}, tn("turn to face {facing}: {n} hex of movement", "turn to face {facing}: {n} hexes of movement", move.cost,
        { facing: FACING_WORDS()[facing] })));
      layer.append(g);
    }
  }

  /** Light the ships `aim` says can be fired at; dim the others with the reason. */
  highlightTargets(aim) {
    const byShip = new Map((aim || []).map((a) => [a.ship, a]));
    for (const g of this.layers.ships.querySelectorAll(".ship")) {
      const entry = byShip.get(g.dataset.ship);
      g.classList.toggle("target", Boolean(entry && !entry.problem));
      g.classList.toggle("not-target", Boolean(entry && entry.problem));
      const ship = this.ships.find((s) => s.id === g.dataset.ship);
      const title = g.querySelector("title");
      if (ship) {
        const cannot = t("cannot fire: {problem}", { problem: said(entry?.problem_says) || entry?.problem });
        title.textContent = entry?.problem ? `${describeShip(ship)} — ${cannot}`
          : entry?.odds ? `${describeShip(ship)} — ${said(entry.odds.summary_says) || entry.odds.summary}` : describeShip(ship);
      }
    }
  }

  /** Draw the path of `steps` from the active ship with "cost of movement hexes". */
  showPath(steps, cost = null, movement = null) {
    const layer = this.layers.path;
    layer.replaceChildren();
    const ship = this.activeShip();
    if (steps === null || steps === undefined || !ship) return;
    const end = walkSteps(ship.at, ship.facing, steps);
    const points = end.path.map(([q, r]) => { const c = this.hexCentre(q, r); return `${c.x.toFixed(2)},${c.y.toFixed(2)}`; });
    const last = this.hexCentre(end.q, end.r);
    const text = movement === null ? `${cost ?? steps.length}` : tn("{cost} of {n} hex", "{cost} of {n} hexes", movement, { cost: cost ?? steps.length });
    layer.append(
      points.length > 1 ? svg("polyline", { class: "move-path", points: points.join(" ") }) : null,
      svg("g", { class: "ghost", transform: `translate(${last.x.toFixed(2)} ${last.y.toFixed(2)}) rotate(${end.facing * 60})` },
        svg("polygon", { points: (HULLS[ship.class] || HULLS.medium).map(([hx, hy]) => `${(hx * 4).toFixed(2)},${(hy * 4).toFixed(2)}`).join(" ") })),
      svg("text", { class: "path-cost", x: last.x, y: last.y + HEX_RADIUS * 1.3, "text-anchor": "middle" }, text));
  }

  /** While aiming: the hexes the active ship can fire at (`range` hexes, ahead only for a
   * light ship) tinted, and a light ship's arc edge drawn; `null` clears. */
  showArc(range) {
    const layer = this.layers.arc;
    layer.replaceChildren();
    const ship = range ? this.activeShip() : null;
    const dir = ship && this.hexCentre(...DIRECTIONS[ship.facing % 6]);
    const from = ship && this.hexCentre(ship.at[0], ship.at[1]);
    for (const [key, g] of this.hexes) {
      let inside = false;
      if (ship) {
        const [q, r] = key.split(",").map(Number);
        const dq = q - ship.at[0];
        const dr = r - ship.at[1];
        const apart = (Math.abs(dq) + Math.abs(dr) + Math.abs(dq + dr)) / 2;
        const c = this.hexCentre(q, r);
        const ahead = (c.x - from.x) * dir.x + (c.y - from.y) * dir.y >= -1e-6;
        inside = apart > 0 && apart <= range && (ship.all_round !== false || ahead);
      }
      g.classList.toggle("in-arc", inside);
    }
    this.svg.classList.toggle("aiming", Boolean(ship));
    if (!ship || ship.all_round !== false) return;
    // The edge of a light ship's forward arc: the line through it square to its facing.
    const reach = (range + 0.5) * SQRT3 * HEX_RADIUS;
    const len = Math.hypot(dir.x, dir.y);
    const [ex, ey] = [-dir.y / len * reach, dir.x / len * reach];
    layer.append(svg("line", { class: "arc-edge", x1: from.x - ex, y1: from.y - ey, x2: from.x + ex, y2: from.y + ey }));
  }

  /** Outline the hex `key` ("q,r"), or none. */
  select(key) {
    for (const [k, g] of this.hexes) g.classList.toggle("selected", k === key);
  }

  /** The ship `shipId`, drawn at its end, glides there from `from` through `path`. */
  animateMove(shipId, from, path) {
    const node = this.layers.ships.querySelector(`.ship[data-ship="${shipId}"]`);
    if (!node || !from || !path?.length || reducedMotion()) return;
    const end = this.hexCentre(...path[path.length - 1]);
    const frames = [from, ...path].map(([q, r]) => {
      const c = this.hexCentre(q, r);
      return { transform: `translate(${(c.x - end.x).toFixed(2)}px, ${(c.y - end.y).toFixed(2)}px)` };
    });
    node.animate(frames, { duration: 150 * path.length, easing: "ease-in-out" });
  }

  // -- input -------------------------------------------------------------------------------

  onHex(cb) { this.handlers.hex.push(cb); }

  onShip(cb) { this.handlers.ship.push(cb); }

  onFacing(cb) { this.handlers.facing.push(cb); }

  onHover(cb) { this.handlers.hover.push(cb); }

  listen() {
    // Pan and zoom by hand (shell/panzoom.js, shared with the FTL board); a press that did
    // not move is a tap. The arrow keys stay the room's (they move the active ship).
    this.gestures = panZoom(this.svg, {
      pan: (dx, dy) => {
        const scale = this.unitsPerPixel();
        this.setView({ ...this.view, x: this.view.x - dx * scale, y: this.view.y - dy * scale });
      },
      zoomAt: (factor, x, y) => this.zoom(factor, { x, y }),
      onTap: (e) => this.tap(e),
    });
    this.svg.addEventListener("pointermove", (e) => {
      if (e.pointerType === "mouse" && !this.gestures.busy()) {
        const hex = e.target.closest?.(".hex, .ship");
        const key = hex?.dataset.hex || null;
        if (key !== this.hovered) {
          this.hovered = key;
          const [q, r] = key ? key.split(",").map(Number) : [];
          for (const cb of this.handlers.hover) cb(key ? { q, r } : null);
        }
      }
    });
    this.svg.addEventListener("pointerleave", (e) => {
      if (e.pointerType === "mouse" && this.hovered) {
        this.hovered = null;
        for (const cb of this.handlers.hover) cb(null);
      }
    });
    // A tap acts on pointerup: the click the browser makes up after it must not reach what
    // the tap put under the finger (a phone's move bar and its Confirm, over the board).
    this.svg.addEventListener("touchend", (e) => {
      if (e.cancelable) e.preventDefault();
    }, { passive: false });
  }

  tap(e) {
    const info = { pointerType: e.pointerType || "mouse" };
    const arrow = e.target.closest?.(".facing-arrow");
    if (arrow) {
      for (const cb of this.handlers.facing) cb(Number(arrow.dataset.facing), info);
      return;
    }
    const shipNode = e.target.closest?.(".ship");
    const ship = shipNode && this.ships.find((s) => s.id === shipNode.dataset.ship);
    if (ship && this.handlers.ship.length) {
      for (const cb of this.handlers.ship) cb(ship, info);
      return;
    }
    const hex = e.target.closest?.(".hex") || (shipNode && this.hexes.get(shipNode.dataset.hex));
    if (!hex) return;
    const [q, r] = hex.dataset.hex.split(",").map(Number);
    for (const cb of this.handlers.hex) cb({ q, r, label: hex.dataset.label, ...info });
  }

  // -- the view: zoom and pan ----------------------------------------------------------------

  /** Show the whole board. */
  fit() {
    const map = this.shown || this.bounds;
    const box = this.svg.getBoundingClientRect();
    const unitsPerPx = box.width && box.height ? Math.max(map.w / box.width, map.h / box.height) : 0;
    this.setView({ ...map, h: map.h + this.bottomRoomPx * unitsPerPx });
  }

  /**
   * Frame `hexes` ([[q, r], ...]) with `pad` hexes around them, as large as the screen
   * allows but never closer than `least` hexes across, and kept on the map (both fleets in
   * sight when a battle opens on a phone). With `minHexPx`, a hex is never drawn smaller
   * than that many screen pixels across: hexes that do not fit are left out around `focus`
   * ([q, r], kept in the middle as far as the map allows), which the player then pans to or
   * zooms out from.
   */
  frameHexes(hexes, { pad = 2.5, least = 7, focus = null, minHexPx = 0 } = {}) {
    const points = hexes.map(([q, r]) => this.mirror(this.hexCentre(q, r)));
    const box = this.svg.getBoundingClientRect();
    if (!points.length || !box.width || !box.height) return;
    const room = pad * 2 * HEX_RADIUS;
    const xs = points.map((p) => p.x);
    const ys = points.map((p) => p.y);
    let w = Math.max(Math.max(...xs) - Math.min(...xs) + room, least * 1.5 * HEX_RADIUS);
    let h = Math.max(Math.max(...ys) - Math.min(...ys) + room, least * 1.5 * HEX_RADIUS);
    const open = Math.max(1, box.height - this.bottomRoomPx); // the buttons keep their room
    const aspect = box.width / open;
    if (w / h > aspect) h = w / aspect;
    else w = h * aspect;
    let cx = (Math.min(...xs) + Math.max(...xs)) / 2;
    let cy = (Math.min(...ys) + Math.max(...ys)) / 2;
    const most = minHexPx ? (2 * HEX_RADIUS * box.width) / minHexPx : Infinity; // the widest view
    if (w > most) {
      [w, h] = [most, most / aspect];
      if (focus) ({ x: cx, y: cy } = this.mirror(this.hexCentre(focus[0], focus[1])));
    }
    const map = this.shown || this.bounds;
    const below = this.bottomRoomPx * (w / box.width);
    this.setView({ x: place(cx - w / 2, w, map.x, map.w), y: place(cy - h / 2, h, map.y, map.h), w, h: h + below });
  }

  /**
   * Zoom in (factor > 1) or out about the middle of the view, or about the screen point
   * `at` ({x, y} client pixels), which stays where it is.
   */
  zoom(factor, at = null) {
    if (!at) return this.setView(this.scaled(this.view, factor));
    const ctm = this.svg.getScreenCTM();
    if (!ctm) return undefined;
    const p = new DOMPoint(at.x, at.y).matrixTransform(ctm.inverse());
    const most = (this.shown || this.bounds).w * 1.5;
    return this.setView(zoomedBox(this.view, factor, p, { least: HEX_RADIUS * 6, most }));
  }

  /** Keep the zoom, put hex (q, r) in the middle. */
  centreOn(q, r) {
    const { x, y } = this.mirror(this.hexCentre(q, r));
    this.setView({ ...this.view, x: x - this.view.w / 2, y: y - this.view.h / 2 });
  }

  /** See the module header (a tray covering `right` px draws the board from its left edge). */
  bringIntoView(hexes, { right = 0 } = {}) {
    const points = hexes.map(([q, r]) => this.mirror(this.hexCentre(q, r)));
    const margin = HEX_RADIUS * 1.5;
    const v = this.view;
    const box = this.svg.getBoundingClientRect();
    const open = right && box.width ? Math.min(v.w, (box.width - right) * this.unitsPerPixel()) : v.w; // the view's uncovered width
    if (!points.length || open <= 0 || points.every((p) => p.x - margin >= v.x && p.x + margin <= v.x + open
      && p.y - margin >= v.y && p.y + margin <= v.y + v.h)) return;
    const xs = points.map((p) => p.x);
    const ys = points.map((p) => p.y);
    const need = Math.max((Math.max(...xs) - Math.min(...xs) + 2 * margin) / open, (Math.max(...ys) - Math.min(...ys) + 2 * margin) / v.h, 1);
    const [w, h] = [open * need, v.h * need];
    const [cx, cy] = [(Math.max(...xs) + Math.min(...xs)) / 2, (Math.max(...ys) + Math.min(...ys)) / 2];
    const map = this.shown || this.bounds;
    this.setView({ x: place(cx - w / 2, w, map.x, map.w), y: place(cy - h / 2, h, map.y, map.h), w: v.w * need, h });
  }

  scaled(view, factor) {
    const w = Math.min((this.shown || this.bounds).w * 1.5, Math.max(HEX_RADIUS * 6, view.w / factor));
    const h = view.h * (w / view.w);
    return { x: view.x + (view.w - w) / 2, y: view.y + (view.h - h) / 2, w, h };
  }

  setView(view) {
    this.view = view;
    this.svg.setAttribute("viewBox", `${view.x.toFixed(2)} ${view.y.toFixed(2)} ${view.w.toFixed(2)} ${view.h.toFixed(2)}`);
    this.sizeText();
  }

  /** Words on the board stay readable zoomed out: about 10 screen pixels, up to what a hex
   * holds (board units: a hex is 20 across); zoomed in, their size on the map. Again each
   * time the board's box changes size (a tray of cards under it, a turned phone). */
  sizeText() {
    const box = this.svg.getBoundingClientRect();
    if (!this.view || !box.width || !box.height) return;
    const units = Math.max(this.view.w / box.width, this.view.h / box.height);
    const size = (most) => `${Math.min(most, Math.max(2.4, 10.5 * units)).toFixed(2)}px`;
    this.svg.style.setProperty("--hex-label-size", size(5.6));
    this.svg.style.setProperty("--ship-name-size", size(5.6));
  }

  unitsPerPixel() {
    const box = this.svg.getBoundingClientRect();
    return Math.max(this.view.w / Math.max(1, box.width), this.view.h / Math.max(1, box.height));
  }

  /** Zoom in / out / whole board buttons. */
  zoomControls() {
    const button = (text, title, handler) => el("button", { type: "button", class: "secondary", title, "aria-label": title,
      on: { click: handler } }, text);
    return el("div", { class: "hex-zoom board-tools", role: "toolbar", "aria-label": t("zoom") },
      button("+", t("zoom in"), () => this.zoom(1.5)),
      button("−", t("zoom out"), () => this.zoom(1 / 1.5)),
      button(t("Board"), t("show the whole board"), () => this.fit()));
  }
}
