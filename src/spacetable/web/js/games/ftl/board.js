// The Faster Than Light table as SVG, to scale in inches (DESIGN section 5's frame).
//
// The viewBox is in inches with y flipped: a table point (x, y) is drawn at (x, -y), so
// heading 0 points up the screen and angles grow counter-clockwise. The board redraws from
// the pieces it is given (draw), never the other way round; other modules draw into the
// layers above the pieces (layer("plot"), layer("ghost"), layer("marks"), ...). Text and
// marks that must stay legible (ids, pips, the nose dot, grid labels) are sized in screen
// pixels and redrawn when the board changes size.
//
// Turned (setTurned: a quarter or half turn, the player's side at the bottom): everything is
// drawn in the same table frame inside one turned group, so whoever draws into a layer needs
// no change; text is kept upright by the page's sheet (css/touch.css: .board-turned), and what
// the board shows in numbers (edge marks, tooltips; `frame` for the others) follows the view:
// the player's own frame. Files and messages keep the table's frame.

import "./sheet.js";
import { clear, el, svg } from "../../shell/dom.js";
import { colourOf } from "../../shell/colours.js";
import { headingText, ownerName, shownId } from "./turns.js";
import { num, t, tn } from "../../shell/i18n.js";
import { panZoom } from "../../shell/panzoom.js";
import { clientToTable, tableToClient } from "../../shell/tablepoints.js";
import { LabelPlacer, shortName } from "./labels.js";

/** Footprints, [width, length] in inches, unless a piece gives its own `size`. */
export const PIECE_SIZE = { ship: [0.75, 1.5], missile: [0.25, 0.5] };
/** A ship is removed at its third hit. */
export const HITS_TO_DESTROY = 3;
/** Room around the table for the edge labels, in inches. */
const MARGIN_IN = 2.2;
/** The closest zoom: this many inches across the shorter side of the view. */
const CLOSEST_IN = 4;
/** A pointer this close (screen px) to a piece's outline picks it (a finger's width). */
const PICK_PX = 14;
/** Grid: a light line every inch, a stronger one every 6 in (counted from the centre). */
const MAJOR_EVERY_IN = 6;
const LABEL_PX = 12;
const HIT = "#ffd23f";
const SPACE = "#0a0f1f";
const TABLE = "#141c38";
// Outlines inside [-1, 1] x [-1, 1] (x across, y forward): each reaches all four sides, so
// its bounding box is exactly the footprint once scaled by the half width and half length.
const SHIP_OUTLINE = [[0, 1], [0.3, 0.6], [0.36, 0.18], [1, -0.32], [1, -0.78], [0.52, -0.62],
  [0.46, -1], [-0.46, -1], [-0.52, -0.62], [-1, -0.78], [-1, -0.32], [-0.36, 0.18], [-0.3, 0.6]];
const MISSILE_OUTLINE = [[0, 1], [0.55, 0.45], [0.55, -0.5], [1, -1], [-1, -1], [-0.55, -0.5],
  [-0.55, 0.45]];

/** The colour of seat `index` (red, blue, green, purple; grey for no seat). */
export function seatColour(index) {
  return index >= 0 ? colourOf(index) : "#8891a8";
}

/** A piece's footprint [width, length] in inches. */
export function sizeOf(piece) {
  return piece.size || PIECE_SIZE[piece.kind] || PIECE_SIZE.ship;
}

/** The unit vector along `heading` degrees (0 is +y, counter-clockwise positive). */
export function direction(heading) {
  const rad = (heading * Math.PI) / 180;
  const quarter = heading / 90;
  if (Number.isInteger(quarter)) return [[0, 1], [-1, 0], [0, -1], [1, 0]][((quarter % 4) + 4) % 4];
  return [-Math.sin(rad), Math.cos(rad)];
}

/** The middle of a piece's front edge: post + length / 2 along its heading, {x, y}. */
export function nose(piece) {
  const [dx, dy] = direction(piece.heading || 0);
  const half = sizeOf(piece)[1] / 2;
  return { x: piece.x + dx * half, y: piece.y + dy * half };
}

/** A piece's four corners on the table, [[x, y] ...]: front left, rear left, rear right, front right. */
export function footprint(piece) {
  const [w, l] = sizeOf(piece);
  return [[-w / 2, l / 2], [-w / 2, -l / 2], [w / 2, -l / 2], [w / 2, l / 2]]
    .map(([lx, ly]) => toWorld(piece, lx, ly));
}

/** A piece-local point (x across, y forward, inches) on the table, [x, y]. */
export function toWorld(piece, lx, ly) {
  const [dx, dy] = direction(piece.heading || 0);
  // Forward is (dx, dy); across to the right of it is (dy, -dx).
  return [piece.x + dy * lx + dx * ly, piece.y - dx * lx + dy * ly];
}

/** The SVG transform that puts a piece drawn in local axes (y forward) at its pose. */
export function pieceTransform(piece) {
  return `translate(${fmt(piece.x)} ${fmt(-piece.y)}) rotate(${fmt(-(piece.heading || 0))})`;
}

/**
 * The frame of a view turned `degrees` (0, 90, 180 or 270) clockwise on the screen: `point`
 * and `heading` give a table position and heading as its viewer sees them (x right, y up
 * the screen; heading 0 up, counter-clockwise positive), `fromView` and `headingFromView`
 * take them back to the table's frame.
 */
export function frameOf(degrees) {
  const turn = ((Math.round(degrees / 90) % 4) + 4) % 4 * 90;
  const rad = (turn * Math.PI) / 180;
  const [c, s] = [Math.round(Math.cos(rad)), Math.round(Math.sin(rad))];
  return Object.freeze({
    degrees: turn,
    point: (x, y) => [x * c + y * s || 0, -x * s + y * c || 0],
    heading: (heading) => normalHeading(heading - turn),
    fromView: (x, y) => [x * c - y * s || 0, x * s + y * c || 0],
    headingFromView: (heading) => normalHeading(heading + turn),
  });
}

/** The table's own frame: what files, messages and logs hold. */
export const TABLE_FRAME = frameOf(0);

/** A heading in (-180, 180]. */
function normalHeading(heading) {
  const h = ((((heading + 180) % 360) + 360) % 360) - 180;
  return h === -180 ? 180 : h;
}

/** A number as short SVG text. */
export function fmt(value) {
  return String(Math.round(value * 10000) / 10000);
}

/** Pieces as a list: a list is kept, an object {id: piece} gets each piece's id. */
export function pieceList(pieces) {
  if (Array.isArray(pieces)) return pieces;
  return Object.entries(pieces || {}).map(([id, piece]) => ({ id, ...piece }));
}

const outlinePoints = (outline, hw, hl) => outline.map(([u, v]) => `${fmt(u * hw)},${fmt(-v * hl)}`).join(" ");

export class FtlBoard {
  /** Build the board inside `svgElement` (an empty <svg>) for a table `width` x `height` in. */
  constructor(svgElement, { width = 48, height = 48 } = {}) {
    this.svg = svgElement;
    this.svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
    this.svg.classList.add("ftl-board");
    clear(this.svg);
    // Everything is drawn in the table's frame inside `root`, which a turned view turns.
    this.root = this.svg.appendChild(svg("g", { class: "ftl-view" }));
    this.background = this.root.appendChild(svg("g", { class: "ftl-background" }));
    this.pieces = this.root.appendChild(svg("g", { class: "ftl-pieces" }));
    this.layers = new Map();
    this.labels = null;
    // The last turn's tapes and marks ("anim") lie under the plot's handles; like the
    // ghosts and the labels, they never take the pointer (ftl.css: .ftl-board layers).
    for (const name of ["ghost", "anim", "plot", "marks"]) this.layer(name);
    this.labels = this.root.appendChild(svg("g", { class: "ftl-labels", "pointer-events": "none" }));
    this.last = { pieces: [], options: {} };
    this.drawnAt = new Map();
    /**
     * What the marks on the board cover (a turn's contacts: their bursts and distances,
     * animate.js), as {x, y, width, height} (the middle on the table, inches, upright to
     * the viewer): the pieces' labels keep off them.
     */
    this.keepClear = [];
    this.pxPerIn = 0;
    this.flipped = false;
    this.turnDeg = 0;
    this.frame = TABLE_FRAME;
    this.setTable({ width, height });
    if (typeof ResizeObserver !== "undefined") {
      this.resizer = new ResizeObserver(() => this.refresh());
      this.resizer.observe(this.svg);
    }
    // By hand: the wheel and two fingers zoom at the pointer, a drag and the arrow keys pan
    // (a page whose keys move pieces says so with `keysTaken`).
    this.gestures = panZoom(this.svg, { pan: (dx, dy) => this.pan(dx, dy),
      zoomAt: (factor, x, y) => this.zoom(factor, this.toTable(x, y)), keys: (e) => !this.keysTaken?.(e) });
  }

  /** A group above the pieces (and under the labels) for others to draw into, made once per name. */
  layer(name) {
    if (!this.layers.has(name)) {
      const group = svg("g", { class: `ftl-layer ftl-${name}`, dataset: { layer: name } });
      this.root.insertBefore(group, this.labels || null);
      this.layers.set(name, group);
    }
    return this.layers.get(name);
  }

  /**
   * Turn the view `degrees` clockwise (0, 90, 180 or 270: the player's side at the bottom)
   * and show the whole table.
   */
  setTurned(degrees) {
    this.frame = frameOf(degrees);
    this.turnDeg = this.frame.degrees;
    this.flipped = this.turnDeg !== 0;
    this.svg.classList.toggle("board-turned", this.flipped);
    this.svg.style.setProperty("--board-text-turn", `${-this.turnDeg}deg`);
    this.svg.dataset.turned = String(this.turnDeg);
    if (this.flipped) this.root.setAttribute("transform", `rotate(${this.turnDeg})`);
    else this.root.removeAttribute("transform");
    this.fit();
  }

  /** The table rectangle {left, right, bottom, top} that holds the viewer-frame rectangle `box`. */
  fromViewBox({ left, right, bottom, top }) {
    const corners = [[left, bottom], [left, top], [right, bottom], [right, top]].map(([x, y]) => this.frame.fromView(x, y));
    return spanOf(corners);
  }

  /** The table area on screen in the viewer's frame, {left, right, bottom, top} (inches). */
  viewerBox() {
    const v = this.visible();
    const corners = [[v.left, v.bottom], [v.left, v.top], [v.right, v.bottom], [v.right, v.top]].map(([x, y]) => this.frame.point(x, y));
    return spanOf(corners);
  }

  /** Show a table `width` x `height` inches and fit the view to it. */
  setTable({ width = 48, height = 48 } = {}) {
    this.table = { width: Number(width), height: Number(height) };
    this.fit();
  }

  /** Fit the view to the whole table and its edge labels (kept fitted as the board resizes). */
  fit() {
    // Worked out in the viewer's frame (a quarter turn swaps the table's sides on screen).
    const [width, height] = this.turnDeg % 180 ? [this.table.height, this.table.width] : [this.table.width, this.table.height];
    const box = this.svg.getBoundingClientRect();
    // Room in screen pixels for the edge labels: left, right, bottom, top.
    const room = [40, 18, 24, 10];
    let margin = [MARGIN_IN, MARGIN_IN / 3, MARGIN_IN, MARGIN_IN / 3];
    for (let i = 0; box.width > 0 && box.height > 0 && i < 3; i += 1) {
      const px = Math.min(box.width / (width + margin[0] + margin[1]), box.height / (height + margin[2] + margin[3]));
      margin = room.map((r) => r / px);
    }
    const whole = this.fromViewBox({ left: -width / 2 - margin[0], right: width / 2 + margin[1],
      bottom: -height / 2 - margin[2], top: height / 2 + margin[3] });
    this.fitView = { width: whole.right - whole.left, height: whole.top - whole.bottom };
    this.setView(whole, true);
  }

  /**
   * Show the area around `pieces` (on the table or not), at least `least` inches across,
   * with `pad` inches to spare; never beyond the fitted table.
   */
  fitPieces(pieces, { pad = 3, least = 12 } = {}) {
    const shown = pieceList(pieces).filter((p) => p.on_table !== false);
    if (!shown.length) return this.fit();
    const xs = shown.map((p) => p.x);
    const ys = shown.map((p) => p.y);
    let [left, right, bottom, top] = [Math.min(...xs) - pad, Math.max(...xs) + pad, Math.min(...ys) - pad, Math.max(...ys) + pad];
    const grow = (lo, hi) => (hi - lo < least ? [(lo + hi - least) / 2, (lo + hi + least) / 2] : [lo, hi]);
    [left, right] = grow(left, right);
    [bottom, top] = grow(bottom, top);
    const { width, height } = this.table;
    if (right - left >= width || top - bottom >= height) return this.fit();
    return this.setView({ left, right, bottom, top });
  }

  /**
   * Zoom by `factor` (> 1 zooms in) about the table point `at` (the view's centre by
   * default), which stays where it is on the screen; never closer than CLOSEST_IN across,
   * and back to the whole table past it.
   */
  zoom(factor, at = null) {
    const v = this.view;
    const c = at || { x: (v.left + v.right) / 2, y: (v.bottom + v.top) / 2 };
    const [w, h] = [v.right - v.left, v.top - v.bottom];
    if (factor < 1 && (this.fitted || Math.max(w / this.fitView.width, h / this.fitView.height) / factor >= 1)) return this.fit();
    const k = Math.max(1 / factor, CLOSEST_IN / Math.min(w, h));
    if (k >= 1 && factor > 1) return undefined; // as close as it goes
    return this.setView({ left: c.x + (v.left - c.x) * k, right: c.x + (v.right - c.x) * k,
      bottom: c.y + (v.bottom - c.y) * k, top: c.y + (v.top - c.y) * k });
  }

  /**
   * Move the view so that the table follows the pointer by (dx, dy) screen pixels; the
   * middle of the view stays over the table.
   */
  pan(dx, dy) {
    const box = this.svg.getBoundingClientRect();
    const [cx, cy] = [box.left + box.width / 2, box.top + box.height / 2];
    const a = this.toTable(cx, cy);
    const b = this.toTable(cx + dx, cy + dy);
    const v = this.view;
    const { width, height } = this.table;
    let [mx, my] = [a.x - b.x, a.y - b.y];
    const [midX, midY] = [(v.left + v.right) / 2, (v.bottom + v.top) / 2];
    mx = Math.max(-width / 2, Math.min(width / 2, midX + mx)) - midX;
    my = Math.max(-height / 2, Math.min(height / 2, midY + my)) - midY;
    if (!mx && !my) return;
    this.setView({ left: v.left + mx, right: v.right + mx, bottom: v.bottom + my, top: v.top + my });
  }

  /** Show the table area {left, right, bottom, top} (inches). */
  setView(view, fitted = false) {
    this.view = { ...view };
    this.fitted = fitted;
    const { left, right, bottom, top } = view;
    // The root group draws a table point (x, y) at (x, -y), turned by turnDeg clockwise.
    const rad = (this.turnDeg * Math.PI) / 180;
    const [c, s] = [Math.round(Math.cos(rad)), Math.round(Math.sin(rad))];
    const shown = spanOf([[left, -bottom], [left, -top], [right, -bottom], [right, -top]].map(([x, y]) => [x * c - y * s, x * s + y * c]));
    this.svg.setAttribute("viewBox", `${fmt(shown.left)} ${fmt(shown.bottom)} ${fmt(shown.right - shown.left)} ${fmt(shown.top - shown.bottom)}`);
    this.svg.dataset.zoomed = String(!fitted);
    this.refresh(true);
    // Whoever draws in screen pixels (the plot's handles) draws again.
    this.svg.dispatchEvent(new CustomEvent("viewchange"));
  }

  /** Redraw the grid and the pieces when the size of an inch on screen changed (or `force`). */
  refresh(force = false) {
    const px = this.measure();
    if (!force && Math.abs(px - this.pxPerIn) < 1e-6) return;
    if (!force && this.fitted) {
      this.fit();
      return;
    }
    this.pxPerIn = px;
    this.drawBackground();
    this.draw(this.last.pieces, this.last.options);
  }

  /** Screen pixels per inch now (from the viewBox and the element's box when not laid out). */
  measure() {
    const matrix = this.root.getScreenCTM?.();
    if (matrix && (matrix.a || matrix.b)) return Math.hypot(matrix.a, matrix.b);
    const box = this.svg.getBoundingClientRect();
    const v = this.view;
    const scale = Math.min(box.width / (v.right - v.left), box.height / (v.top - v.bottom));
    return scale > 0 ? scale : 16;
  }

  /** `px` screen pixels in inches. */
  px(px) {
    return px / (this.pxPerIn || 16);
  }

  /** The table area on screen, {left, right, bottom, top} in inches: the view and the room the aspect adds. */
  visible() {
    const box = this.svg.getBoundingClientRect();
    if (!box.width || !box.height || !this.root.getScreenCTM()) return { ...this.view };
    const a = this.toTable(box.left, box.top);
    const b = this.toTable(box.right, box.bottom);
    return { left: Math.min(a.x, b.x), right: Math.max(a.x, b.x), bottom: Math.min(a.y, b.y), top: Math.max(a.y, b.y) };
  }

  drawBackground() {
    const { left, right, bottom, top } = this.visible();
    const { width, height } = this.table;
    const g = clear(this.background);
    g.append(svg("rect", { class: "space", x: left - 50, y: -top - 50, width: right - left + 100,
      height: top - bottom + 100, fill: SPACE }));
    g.append(svg("rect", { class: "table-area", x: -width / 2, y: -height / 2, width, height, fill: TABLE }));
    const grid = svg("g", { class: "grid", stroke: "#ffffff", "vector-effect": "non-scaling-stroke" });
    const lines = (half, other, vertical) => {
      for (let v = -Math.floor(half); v <= half; v += 1) {
        const major = v % MAJOR_EVERY_IN === 0;
        const [x1, y1, x2, y2] = vertical ? [v, -other, v, other] : [-other, -v, other, -v];
        grid.append(svg("line", { x1, y1, x2, y2, class: major ? "grid-6in" : "grid-1in",
          "stroke-opacity": major ? 0.24 : 0.08, "stroke-width": 1, "vector-effect": "non-scaling-stroke" }));
      }
    };
    lines(width / 2, height / 2, true);
    lines(height / 2, width / 2, false);
    g.append(grid);
    g.append(svg("rect", { class: "table-edge", x: -width / 2, y: -height / 2, width, height, fill: "none",
      stroke: "#9aa6c4", "stroke-width": 1.5, "vector-effect": "non-scaling-stroke" }));
    // Inch marks along the screen's bottom and left edges, every 6 in from the centre, in
    // the viewer's frame (turned, the numbers count as the viewer sees the table).
    const size = this.px(11);
    // The last mark of each edge carries the unit.
    const labels = svg("g", { class: "edge-labels", fill: "#8891a8", "font-size": fmt(size) });
    const marks = (half) => {
      const out = [];
      for (let v = -Math.floor(half / MAJOR_EVERY_IN) * MAJOR_EVERY_IN; v <= half; v += MAJOR_EVERY_IN) out.push(v);
      return out.map((v, i) => [v, i === out.length - 1 ? t("{length} in", { length: v }) : num(v)]);
    };
    // Zoomed in, the marks stay inside the view's bottom and left edges. Worked out in the
    // viewer's frame (vl..vr across, vb..vt up, the table vw x vh), each text placed by its
    // middle (a turned text turns about its middle), then put on the table.
    const { left: vl, right: vr, bottom: vb, top: vt } = this.viewerBox();
    const [vw, vh] = this.turnDeg % 180 ? [height, width] : [width, height];
    const bottomY = Math.max(-vh / 2 - size * 1.3, vb + size * 0.5) + size * 0.35;
    const leftX = Math.max(-vw / 2 - size * 0.5, vl + size * 0.4);
    const inside = leftX > -vw / 2;
    const halo = { stroke: SPACE, "stroke-width": fmt(size * 0.25), "paint-order": "stroke", "text-anchor": "middle",
      "dominant-baseline": "central" };
    const put = (x, y, text) => {
      const [tx, ty] = this.frame.fromView(x, y);
      labels.append(svg("text", { x: fmt(tx), y: fmt(-ty), ...halo, text }));
    };
    for (const [v, text] of marks(vw / 2)) {
      if (v >= vl && v <= vr) put(v, bottomY, text);
    }
    for (const [v, text] of marks(vh / 2)) {
      if (v < vb + size * 2 || v > vt) continue;
      const half = text.length * size * 0.3; // about half the text's width
      put(inside ? leftX + half : leftX - half, v, text);
    }
    g.append(labels);
  }

  /**
   * Show exactly `pieces` (a list, or {id: piece}): those on the table in their owners'
   * colours (by `players`, the seat order), each with its id, its hits as pips and a ship's
   * missiles left. `highlight`: a piece id, or a list / Set of them, drawn outlined. A
   * piece's `opacity` (0..1, for animations) draws it faded.
   */
  draw(pieces, { players = [], highlight = null } = {}) {
    this.last = { pieces, options: { players, highlight } };
    const chosen = new Set(highlight == null ? [] : typeof highlight === "string" ? [highlight] : highlight);
    clear(this.pieces);
    clear(this.labels);
    const shown = pieceList(pieces).filter((p) => p.on_table !== false);
    /** Where each piece was drawn (id -> [x, y]): an animation moves it on from there. */
    this.drawnAt = new Map(shown.map((p) => [p.id, [p.x, p.y]]));
    // Labels keep off every piece and each other: ships' first, then the missiles', in the
    // order they come (the same pieces, the same labels).
    this.placer = new LabelPlacer(this.frame, this.viewerBox());
    for (const piece of shown) this.placer.avoidCorners(footprint(piece));
    for (const { x, y, width, height } of this.keepClear) this.placer.avoidLabel(x, y, width, height);
    for (const piece of shown) {
      this.pieces.append(this.pieceShape(piece, seatColour(players.indexOf(piece.owner)), chosen.has(piece.id)));
    }
    for (const piece of [...shown.filter((p) => p.kind !== "missile"), ...shown.filter((p) => p.kind === "missile")]) {
      this.labels.append(...this.pieceLabel(piece, seatColour(players.indexOf(piece.owner)), this.placer));
    }
  }

  /** The group of the piece `id` as drawn, or null. */
  pieceElement(id) {
    for (const node of this.pieces.children) if (node.dataset.piece === id) return node;
    return null;
  }

  /** A piece as a silhouette of its exact footprint, in `colour`, centred on its post. */
  pieceShape(piece, colour, highlighted = false) {
    const [w, l] = sizeOf(piece);
    const [hw, hl] = [w / 2, l / 2];
    const ship = piece.kind !== "missile";
    const group = svg("g", { class: `ftl-piece ${ship ? "ship" : "missile"}${highlighted ? " highlighted" : ""}`,
      transform: pieceTransform(piece), opacity: piece.opacity ?? null,
      dataset: { piece: piece.id, owner: piece.owner, kind: piece.kind } });
    // A finger-sized invisible target around the piece.
    group.append(svg("circle", { class: "hit-target", r: fmt(Math.max(this.px(22), hl)), fill: "transparent" }));
    if (highlighted) {
      const pad = this.px(4);
      group.append(svg("rect", { class: "highlight", x: fmt(-hw - pad), y: fmt(-hl - pad), width: fmt(w + 2 * pad),
        height: fmt(l + 2 * pad), rx: fmt(pad), fill: "none", stroke: HIT, "stroke-width": 1.5,
        "stroke-dasharray": "4 2", "vector-effect": "non-scaling-stroke" }));
    }
    group.append(svg("rect", { class: "footprint", x: -hw, y: -hl, width: w, height: l, fill: colour,
      "fill-opacity": 0.16, stroke: colour, "stroke-opacity": 0.7, "stroke-width": 1,
      "vector-effect": "non-scaling-stroke" }));
    group.append(svg("polygon", { class: "silhouette", points: outlinePoints(ship ? SHIP_OUTLINE : MISSILE_OUTLINE, hw, hl),
      fill: colour, stroke: "#ffffff", "stroke-width": ship ? 1 : 0.8, "stroke-linejoin": "round",
      "vector-effect": "non-scaling-stroke" }));
    if (ship) {
      group.append(svg("line", { class: "spine", x1: 0, y1: fmt(-hl * 0.7), x2: 0, y2: fmt(hl * 0.2),
        stroke: "#ffffff", "stroke-opacity": 0.55, "stroke-width": 1, "vector-effect": "non-scaling-stroke" }));
    }
    // The nose: where a sprint's tape starts.
    group.append(svg("circle", { class: "nose", cx: 0, cy: fmt(-hl), r: fmt(this.px(ship ? 2.6 : 2)),
      fill: "#ffffff", stroke: SPACE, "stroke-width": 0.8, "vector-effect": "non-scaling-stroke" }));
    group.append(svg("title", { text: describePiece(piece, this.frame) }));
    return group;
  }

  /**
   * The short name beside a piece ("m3" for a missile), upright whatever its heading; a
   * ship's hit pips (filled: hits, hollow: hits it can still take) and missiles left under
   * it. `placer` (a LabelPlacer) finds it a spot clear of the pieces and the labels before it.
   */
  pieceLabel(piece, colour, placer) {
    const size = this.px(LABEL_PX);
    const ship = piece.kind !== "missile";
    const reach = this.px(4);
    const id = shortName(piece);
    const width = Math.max(id.length * size * 0.64, ship ? size * 5.2 : 0);
    const height = ship ? size * 2.3 : size * 1.1;
    const spot = placer.place(piece.x, piece.y, width, height, reach + (ship ? 0 : this.px(2)));
    // Worked out in the viewer's frame: the text leans towards the piece it names.
    const anchor = spot.dir[0] > 0 ? "start" : spot.dir[0] < 0 ? "end" : "middle";
    const [cx, top] = [spot.x, -spot.y - height / 2];
    const x = anchor === "start" ? cx - width / 2 : anchor === "end" ? cx + width / 2 : cx;
    const g = svg("g", { class: "ftl-label upright", opacity: piece.opacity ?? null, dataset: { piece: piece.id },
      "aria-hidden": "true" });
    const halo = { stroke: SPACE, "stroke-width": fmt(size * 0.28), "paint-order": "stroke", "stroke-linejoin": "round" };
    g.append(svg("text", { class: "piece-id", x: fmt(x), y: fmt(top + size * 0.9), "font-size": fmt(size),
      "font-weight": "bold", fill: colour, "text-anchor": anchor, ...halo, text: id }));
    if (ship) {
      const hits = Math.max(0, piece.hits || 0);
      const r = size * 0.3;
      const row = top + size * 1.75;
      const pipsWidth = HITS_TO_DESTROY * r * 2.6;
      const start = cx - width / 2;
      const pips = svg("g", { class: "hit-pips", dataset: { hits } });
      for (let i = 0; i < HITS_TO_DESTROY; i += 1) {
        pips.append(svg("circle", { class: i < hits ? "pip hit" : "pip", cx: fmt(start + r + i * r * 2.6), cy: fmt(row - r * 0.9),
          r: fmt(r), fill: i < hits ? HIT : SPACE, stroke: i < hits ? "#ff6b00" : "#8891a8", "stroke-width": 1,
          "vector-effect": "non-scaling-stroke" }));
      }
      g.append(pips);
      g.append(svg("text", { class: "missiles-left", x: fmt(start + pipsWidth + r), y: fmt(row), "font-size": fmt(size * 0.85),
        fill: "#c9d1e6", ...halo, text: t("{n} left", { n: piece.missiles ?? 10 }), dataset: { missiles: piece.missiles ?? 10 } }));
    }
    const out = [g];
    if (spot.far) { // pushed away from its piece: a thin line tells whose it is
      const [ex, ey] = placer.leaderEnd(piece.x, piece.y, spot.box);
      out.unshift(svg("line", { class: "label-leader", x1: fmt(piece.x), y1: fmt(-piece.y), x2: fmt(ex), y2: fmt(-ey),
        stroke: colour, "stroke-opacity": 0.7, "stroke-width": 1, "vector-effect": "non-scaling-stroke", opacity: piece.opacity ?? null,
        dataset: { leaderOf: piece.id } }));
    }
    return out;
  }

  /** A placer for more labels (the plot's), clear of the pieces and labels drawn now. */
  labelPlacer() {
    return (this.placer || new LabelPlacer(this.frame, this.viewerBox())).copy();
  }

  /**
   * The pieces under the pointer at (clientX, clientY) by their own footprints, a
   * finger's width around each: those the pointer is on first, the topmost (last drawn)
   * first among them, then the nearest. Of `pieces` (the pieces drawn by default).
   */
  piecesAt(clientX, clientY, pieces = this.last.pieces) {
    const p = this.toTable(clientX, clientY);
    const reach = this.px(PICK_PX);
    const found = [];
    pieceList(pieces).forEach((piece, order) => {
      if (piece.on_table === false) return;
      const [dx, dy] = direction(piece.heading || 0);
      const [rx, ry] = [p.x - piece.x, p.y - piece.y];
      const [w, l] = sizeOf(piece);
      const out = Math.hypot(Math.max(0, Math.abs(rx * dy - ry * dx) - w / 2), Math.max(0, Math.abs(rx * dx + ry * dy) - l / 2));
      if (out <= reach) found.push({ piece, on: out <= this.px(1), out, order });
    });
    found.sort((a, b) => (b.on - a.on) || (a.on ? b.order - a.order : a.out - b.out) || b.order - a.order);
    return found.map((f) => f.piece);
  }

  /** A pointer position (client pixels) on the table, {x, y} in inches. */
  toTable(clientX, clientY) {
    return clientToTable(this.root, clientX, clientY);
  }

  /** A table point (inches) in SVG user units, {x, y}: y is flipped. */
  toSvg(x, y) {
    return { x, y: -y };
  }

  /** A table point (inches) on screen, {x, y} in client pixels. */
  toClient(x, y) {
    return tableToClient(this.root, x, y);
  }

  /**
   * Zoom buttons for a page to put by the board: closer, farther, the whole table, and the
   * pieces: `mine()` (the player's own pieces) for a player, else all of them.
   */
  zoomControls({ mine = null } = {}) {
    const button = (text, title, handler, id) => el("button", { type: "button", class: "secondary", title, "aria-label": title,
      dataset: { zoom: id }, on: { click: handler } }, text);
    const pieces = mine
      ? button(t("Mine"), t("zoom to my pieces"), () => {
        const own = pieceList(mine()).filter((p) => p.on_table !== false);
        this.fitPieces(own.length ? own : this.last.pieces);
      }, "mine")
      : button(t("Pieces"), t("zoom to the pieces"), () => this.fitPieces(this.last.pieces), "pieces");
    return el("div", { class: "ftl-zoom board-tools", role: "toolbar", "aria-label": t("zoom") },
      button("+", t("zoom in"), () => this.zoom(1.5), "in"),
      button("−", t("zoom out"), () => this.zoom(1 / 1.5), "out"),
      button(t("Table"), t("show the whole table"), () => this.fit(), "table"),
      pieces);
  }

  /** Stop watching the board's size. */
  destroy() {
    this.resizer?.disconnect();
  }
}

/** The rectangle {left, right, bottom, top} around `points` ([[x, y] ...]). */
function spanOf(points) {
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  return { left: Math.min(...xs), right: Math.max(...xs), bottom: Math.min(...ys), top: Math.max(...ys) };
}

/**
 * One line that says what a piece is and where: for tooltips and screen readers. `frame`:
 * the view's (TABLE_FRAME, or frameOf a turn), in which the position and heading are told.
 */
export function describePiece(piece, frame = TABLE_FRAME) {
  const [x, y] = frame.point(piece.x, piece.y);
  const where = t("at ({x}, {y}) in, facing {heading}", { x: Number(fmt(x)), y: Number(fmt(y)), heading: headingText(frame.heading(piece.heading || 0)) });
  const owner = ownerName(piece.owner);
  const id = shownId(piece.id, piece.owner);
  if (piece.kind === "missile") return t("{owner}'s missile {id} {where}", { owner, id, where });
  const hits = piece.hits || 0;
  return tn("{owner}'s ship {id} {where}; {n} hit of {most}, {missiles} missiles left", "{owner}'s ship {id} {where}; {n} hits of {most}, {missiles} missiles left",
    hits, { owner, id, where, most: HITS_TO_DESTROY, missiles: piece.missiles ?? 10 });
}
