// The table view: one SVG in table millimetres, fitted to its box on screen.
//
// The SVG viewBox is in mm with y flipped (a table point (x, y) is drawn at (x, -y)), so
// the table keeps its proportions at any window size and pointer positions map back to
// table coordinates through the SVG's screen matrix (mouse, touch and pen alike).

import { clear, svg } from "./dom.js";
import { cardFace, cubesToken } from "./cards.js";
import { CARD_SIZE, angleOf, cardTransform, fmt } from "./geometry.js";

/** The table of a Light Speed match unless told otherwise: 1200 x 800 mm. */
const DEFAULT_TABLE = [1200, 800];

export class TableView {
  /** Build the layers inside `svgElement` (an empty <svg>). */
  constructor(svgElement, { margin = 30 } = {}) {
    this.svg = svgElement;
    this.margin = margin;
    this.svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
    this.svg.classList.add("table-view");
    clear(this.svg);
    this.background = this.layer("background");
    this.cards = this.layer("cards");
    this.hands = this.layer("hands");
    this.battle = this.layer("battle");
    this.overlay = this.layer("overlay");
    this.tableSize = null;
    this.box = null;
    /** What asteroids hold: "rocks" (Light Speed) or "cubes" (Stellar Conflict). */
    this.unit = "rocks";
    this.setTable(DEFAULT_TABLE);
  }

  /** A new group appended to the SVG with class `name`. */
  layer(name) {
    return this.svg.appendChild(svg("g", { class: name }));
  }

  /**
   * Show a table of `size` [width, height] mm (null: no edge). The view covers the table
   * plus a margin, any cards in `extra` ([{x, y, size}]) that lie outside it, and at least
   * a `minimum` [width, height] area around the origin.
   */
  setTable(size, extra = [], minimum = null) {
    this.tableSize = size;
    const xs = [];
    const ys = [];
    for (const [w, h] of [size, minimum].filter(Boolean)) {
      xs.push(-w / 2, w / 2);
      ys.push(-h / 2, h / 2);
    }
    for (const card of extra) {
      const reach = Math.hypot(...(card.size || CARD_SIZE)) / 2;
      xs.push(card.x - reach, card.x + reach);
      ys.push(card.y - reach, card.y + reach);
    }
    if (!xs.length) xs.push(-300, 300), ys.push(-200, 200);
    const m = this.margin;
    this.box = {
      left: Math.min(...xs) - m, right: Math.max(...xs) + m,
      bottom: Math.min(...ys) - m, top: Math.max(...ys) + m,
    };
    const { left, right, bottom, top } = this.box;
    this.svg.setAttribute("viewBox", `${fmt(left)} ${fmt(-top)} ${fmt(right - left)} ${fmt(top - bottom)}`);
    this.drawBackground();
  }

  drawBackground() {
    const { left, right, bottom, top } = this.box;
    clear(this.background);
    this.background.append(svg("rect", { class: "space", x: left, y: -top, width: right - left,
      height: top - bottom, fill: "#0a0f1f" }));
    // A fixed field of stars: the same sky every time for the same box.
    let seed = 7;
    const random = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    const stars = svg("g", { class: "stars" });
    const count = Math.round(((right - left) * (top - bottom)) / 4000);
    for (let i = 0; i < count; i += 1) {
      stars.append(svg("circle", { cx: fmt(left + random() * (right - left)),
        cy: fmt(-top + random() * (top - bottom)), r: fmt(0.4 + random() * 1.1),
        fill: "#ffffff", "fill-opacity": fmt(0.15 + random() * 0.5) }));
    }
    this.background.append(stars);
    if (this.tableSize) {
      const [w, h] = this.tableSize;
      this.background.append(svg("rect", { class: "table-edge", x: -w / 2, y: -h / 2, width: w,
        height: h, rx: 6, fill: "#121a33", "fill-opacity": 0.55, stroke: "#55607a",
        "stroke-width": 1.5, "stroke-dasharray": "8 5" }));
    }
  }

  /** A pointer event's position in table coordinates: {x, y}. */
  toTable(clientX, clientY) {
    const matrix = this.svg.getScreenCTM();
    if (!matrix) return { x: 0, y: 0 };
    const p = new DOMPoint(clientX, clientY).matrixTransform(matrix.inverse());
    return { x: p.x, y: -p.y };
  }

  /** A table point on screen (client pixels): {x, y}. */
  toClient(x, y) {
    const matrix = this.svg.getScreenCTM();
    if (!matrix) return { x: 0, y: 0 };
    const p = new DOMPoint(x, -y).matrixTransform(matrix);
    return { x: p.x, y: p.y };
  }

  /** Screen pixels per table millimetre at the current size. */
  scale() {
    const matrix = this.svg.getScreenCTM();
    return matrix ? Math.hypot(matrix.a, matrix.b) : 1;
  }

  /**
   * Show exactly `cards` (table-file card objects) on the table, reusing the groups of
   * cards already drawn at the same pose. `ships` maps ship keys to definitions and
   * `colourOf(owner)` gives a team colour; `cardSize` is the table's default card size.
   */
  showCards(cards, ships, colourOf, cardSize = CARD_SIZE) {
    const wanted = new Set(cards.map((c) => c.id));
    for (const node of [...this.cards.children]) {
      if (!wanted.has(node.dataset.card)) node.remove();
    }
    for (const card of cards) {
      const node = this.cardElement(card.id);
      const key = cardKey(card);
      if (node && node.dataset.key === key) continue;
      if (node) node.remove();
      this.addCard(card, ships, colourOf, cardSize);
    }
  }

  /** Draw one more card (a table-file card object); returns its group. */
  addCard(card, ships, colourOf, cardSize = CARD_SIZE) {
    this.cardElement(card.id)?.remove();
    const asteroid = card.type === "asteroid";
    const group = svg("g", {
      class: `table-card ${asteroid ? "asteroid" : "ship"}`,
      transform: cardTransform(card),
      dataset: { card: card.id, key: cardKey(card), ...(asteroid ? {} : { owner: card.owner, ship: card.ship }) },
    });
    group.append(cardFace(card, ships, asteroid ? null : colourOf(card.owner), card.size || cardSize, this.unit));
    if (!asteroid && card.rocks) {
      // Cargo cubes (or rocks) the card carries as it lands; the battle draws its own.
      group.append(cubesToken(0, 0, card.rocks, { transform: `rotate(${fmt(card.rotation || 0)})` }));
    }
    this.cards.append(group);
    return group;
  }

  /** The group of the card `id` on the table, or null. */
  cardElement(id) {
    for (const node of this.cards.children) if (node.dataset.card === id) return node;
    return null;
  }
}

function cardKey(card) {
  return [card.x, card.y, card.rotation, card.ship || "", card.rocks ?? "", card.size || ""].join("|");
}

/**
 * Drag a rotate handle: while the pointer that went down on `handle` moves, call
 * `onRotate(rotation)` with the rotation that points the card's front at the pointer.
 * `centre()` gives the card's centre in table coordinates.
 */
export function dragRotateHandle(view, handle, centre, onRotate) {
  handle.addEventListener("pointerdown", (event) => {
    event.stopPropagation();
    event.preventDefault();
    handle.setPointerCapture(event.pointerId);
    const move = (e) => {
      e.stopPropagation(); // the card must not follow the pointer while it turns
      const c = centre();
      const p = view.toTable(e.clientX, e.clientY);
      onRotate(Math.round(angleOf(p.x - c.x, p.y - c.y)));
    };
    const up = (e) => {
      e.stopPropagation();
      handle.releasePointerCapture(event.pointerId);
      handle.removeEventListener("pointermove", move);
      handle.removeEventListener("pointerup", up);
      handle.removeEventListener("pointercancel", up);
    };
    handle.addEventListener("pointermove", move);
    handle.addEventListener("pointerup", up);
    handle.addEventListener("pointercancel", up);
  });
}

/** A rotate handle for a card of `size`, drawn ahead of its front (card-local SVG axes). */
export function rotateHandle(size = CARD_SIZE) {
  const y = -size[1] / 2 - 16;
  return svg("g", { class: "rotate-handle" },
    svg("line", { x1: 0, y1: -size[1] / 2, x2: 0, y2: y, stroke: "#ffffff", "stroke-width": 1,
      "stroke-dasharray": "2 2" }),
    svg("circle", { class: "handle-hit", cx: 0, cy: y, r: 18, fill: "transparent" }),
    svg("circle", { cx: 0, cy: y, r: 9, fill: "#ffd23f", stroke: "#1d2230", "stroke-width": 1 }),
    svg("path", { d: `M -4 ${y + 1} A 4 4 0 1 1 0 ${y + 4}`, fill: "none", stroke: "#1d2230",
      "stroke-width": 1.2 }),
  );
}
