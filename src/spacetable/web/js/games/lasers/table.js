// The table view: one SVG in table millimetres, fitted to its box on screen, that zooms
// and pans (buttons, the wheel, a pinch, a drag of the empty table).
//
// The SVG viewBox is in mm with y flipped (a table point (x, y) is drawn at (x, -y)), so
// the table keeps its proportions at any window size and pointer positions map back to
// table coordinates through the SVG's screen matrix (mouse, touch and pen alike).

import { t } from "../../shell/i18n.js";
import "./sheet.js";
import { clear, el, followPointer, svg } from "../../shell/dom.js";
import { cardFace, cubesToken } from "./cards.js";
import { CARD_SIZE, cardTransform, fmt } from "./geometry.js";
import { angleOf } from "../../shell/angles.js";
import { clientToTable, tableToClient } from "../../shell/tablepoints.js";

/** The table of a Light Speed match unless told otherwise: 1200 x 800 mm. */
const DEFAULT_TABLE = [1200, 800];
/** How far in the view zooms: the fitted width over this many times. */
const MAX_ZOOM = 8;
/** How far (px) a pointer moves before it pans the table rather than clicks. */
const DRAG_PX = 5;
/** Wheel delta (px) that zooms by a factor e. */
const WHEEL_ZOOM_PX = 400;
/** A phone's screen (the shell's sheets' width for one, css/room.css): the table sits at the top of its box. */
const NARROW = "(max-width: 820px)";

export class TableView {
  /** Build the layers inside `svgElement` (an empty <svg>). */
  constructor(svgElement, { margin = 30 } = {}) {
    this.svg = svgElement;
    this.margin = margin;
    // On a phone at the end of a match the box is taller than the table: the table sits at
    // its top, under the battle's controls and clear of the end card along the screen's
    // bottom, not in the middle of an empty band (issue 20 item 15). While the match is
    // played (and in the referee) it stays in the middle, where the hand's cards are laid.
    const narrow = matchMedia(NARROW);
    const align = () => {
      const top = narrow.matches && document.body.dataset.phase === "over";
      this.svg.setAttribute("preserveAspectRatio", `${top ? "xMidYMin" : "xMidYMid"} meet`);
    };
    align();
    narrow.addEventListener("change", align);
    new MutationObserver(align).observe(document.body, { attributes: true, attributeFilter: ["data-phase"] });
    this.svg.classList.add("table-view");
    clear(this.svg);
    this.background = this.layer("background");
    this.cards = this.layer("cards");
    this.hands = this.layer("hands");
    this.battle = this.layer("battle");
    this.overlay = this.layer("overlay");
    this.tableSize = null;
    this.box = null; // what the fitted view covers: the table, its margin, cards beyond it
    this.view = null; // what the view covers now, inside `box` when zoomed in
    this.viewListeners = [];
    /**
     * The SVG's size on screen, [width, height] px (null before it is laid out): a view
     * zoomed in takes its proportions. A resize (a phone turned) zooms the same again.
     */
    this.screen = null;
    if (typeof ResizeObserver !== "undefined") {
      new ResizeObserver(([entry]) => {
        const { width, height } = entry.contentRect;
        this.screen = width > 0 && height > 0 ? [width, height] : null;
        if (this.view && this.zoomed()) {
          const v = this.view;
          this.zoomTo(this.zoomLevel(), (v.left + v.right) / 2, (v.bottom + v.top) / 2);
        }
      }).observe(this.svg);
    }
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
    const before = this.box;
    this.box = {
      left: Math.min(...xs) - m, right: Math.max(...xs) + m,
      bottom: Math.min(...ys) - m, top: Math.max(...ys) + m,
    };
    const same = before && ["left", "right", "bottom", "top"].every((k) => before[k] === this.box[k]);
    // The whole table's proportions, for a box that takes the table's height (lasers.css).
    this.svg.style.setProperty("--table-aspect", `${fmt(this.box.right - this.box.left)} / ${fmt(this.box.top - this.box.bottom)}`);
    if (!same) this.drawBackground();
    // The same table drawn again keeps its zoom; another one is shown whole.
    if (same) this.setView(this.view);
    else this.fit();
  }

  // -- zoom and pan ----------------------------------------------------------------------------

  /** Show the whole table (the fitted box). */
  fit() {
    this.setView(this.box);
  }

  /** Whether the view shows less than the whole table. */
  zoomed() {
    return this.view.right - this.view.left < this.box.right - this.box.left - 1e-6;
  }

  /** How many times closer than the whole table the view is (1 when fitted). */
  zoomLevel() {
    return (this.box.right - this.box.left) / (this.view.right - this.view.left);
  }

  /** Zoom by `factor` (> 1 zooms in) about the table point `at` (the view's centre by default). */
  zoom(factor, at = null) {
    const v = this.view;
    const c = at || { x: (v.left + v.right) / 2, y: (v.bottom + v.top) / 2 };
    const level = Math.min(MAX_ZOOM, this.zoomLevel() * factor);
    if (level <= 1 + 1e-6) return this.fit();
    const f = level / this.zoomLevel();
    return this.setView({ left: c.x + (v.left - c.x) / f, right: c.x + (v.right - c.x) / f,
      bottom: c.y + (v.bottom - c.y) / f, top: c.y + (v.top - c.y) / f });
  }

  /** Zoom to `level` times the whole table, centred on the table point (x, y). */
  zoomTo(level, x, y) {
    const w = (this.box.right - this.box.left) / Math.min(MAX_ZOOM, Math.max(1, level));
    const h = (this.box.top - this.box.bottom) * (w / (this.box.right - this.box.left));
    this.setView({ left: x - w / 2, right: x + w / 2, bottom: y - h / 2, top: y + h / 2 });
  }

  /** Move the view by (dx, dy) table millimetres. */
  panBy(dx, dy) {
    const v = this.view;
    this.setView({ left: v.left + dx, right: v.right + dx, bottom: v.bottom + dy, top: v.top + dy });
  }

  /** Move the view, if it must, so that the table point (x, y) is `pad` mm inside it. */
  keepInView(x, y, pad = 60) {
    if (!this.zoomed()) return;
    const v = this.visible();
    const dx = Math.min(0, x - pad - v.left) + Math.max(0, x + pad - v.right);
    const dy = Math.min(0, y - pad - v.bottom) + Math.max(0, y + pad - v.top);
    if (dx || dy) this.panBy(dx, dy);
  }

  /**
   * Show the area `view` {left, right, bottom, top} (mm), kept inside the fitted box. A
   * view zoomed in grows about its middle to the proportions of the SVG on screen (as far
   * as the box allows): on a phone held upright it is a tall slice of the table, not a
   * band across the screen's middle with what lies beyond the view above and below it.
   */
  setView(view) {
    const box = this.box;
    view = this.filled(view);
    const clamp = (lo, hi, min, max) => {
      if (hi - lo >= max - min) return [min, max];
      const shift = Math.max(min - lo, Math.min(0, max - hi));
      return [lo + shift, hi + shift];
    };
    const [left, right] = clamp(view.left, view.right, box.left, box.right);
    const [bottom, top] = clamp(view.bottom, view.top, box.bottom, box.top);
    this.view = { left, right, bottom, top };
    this.svg.setAttribute("viewBox", `${fmt(left)} ${fmt(-top)} ${fmt(right - left)} ${fmt(top - bottom)}`);
    this.svg.dataset.zoom = fmt(this.zoomLevel());
    for (const listener of this.viewListeners) listener();
  }

  /** `view` grown to the screen's proportions when it shows less than the box (see setView). */
  filled(view) {
    const box = this.box;
    let [w, h] = [view.right - view.left, view.top - view.bottom];
    const [boxW, boxH] = [box.right - box.left, box.top - box.bottom];
    if (!this.screen || (w >= boxW - 1e-6 && h >= boxH - 1e-6)) return view;
    const tall = this.screen[1] / this.screen[0];
    if (h / w < tall) h = Math.max(h, Math.min(w * tall, boxH));
    else w = Math.max(w, Math.min(h / tall, boxW));
    const [x, y] = [(view.left + view.right) / 2, (view.bottom + view.top) / 2];
    return { left: x - w / 2, right: x + w / 2, bottom: y - h / 2, top: y + h / 2 };
  }

  /** Call `listener()` whenever the view zooms or pans. */
  onView(listener) {
    this.viewListeners.push(listener);
  }

  /** The table area on screen, {left, right, bottom, top} mm: the view and the room the aspect adds. */
  visible() {
    const rect = this.svg.getBoundingClientRect();
    if (!rect.width || !rect.height || !this.svg.getScreenCTM()) return { ...this.view };
    const a = this.toTable(rect.left, rect.top);
    const b = this.toTable(rect.right, rect.bottom);
    return { left: a.x, right: b.x, bottom: b.y, top: a.y };
  }

  /**
   * Let people zoom and pan: the wheel zooms about the pointer (with Ctrl, or a trackpad's
   * pinch, always; without, only when `wheelZooms()`), and a drag of the table pans it
   * (one finger or the mouse) or zooms it (two fingers) for the pointers `canPan(event)`
   * allows: the card in hand takes the others. With the table focused, + and − zoom, 0
   * shows the whole table, and the arrows pan when `arrowsPan()`.
   */
  enableGestures({ canPan = () => true, wheelZooms = () => true, arrowsPan = () => true } = {}) {
    const area = this.svg;
    area.addEventListener("keydown", (e) => {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const v = this.view;
      const step = ((v.right - v.left) / 8) * (e.shiftKey ? 3 : 1);
      const pan = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] }[e.key];
      if (e.key === "+" || e.key === "=") this.zoom(1.5);
      else if (e.key === "-" || e.key === "_") this.zoom(1 / 1.5);
      else if (e.key === "0") this.fit();
      else if (pan && arrowsPan()) this.panBy(...pan);
      else return;
      e.preventDefault();
    });
    const pointers = new Map(); // pointer id -> last client point, for the pointers panning
    let pinch = null; // {distance} while two pointers pan
    area.addEventListener("wheel", (e) => {
      if (!e.ctrlKey && !wheelZooms()) return;
      e.preventDefault();
      const at = this.toTable(e.clientX, e.clientY);
      this.zoom(Math.exp(-e.deltaY / WHEEL_ZOOM_PX), at);
    }, { passive: false });
    area.addEventListener("pointerdown", (e) => {
      if (e.pointerType === "mouse" && e.button !== 0) return;
      if (!canPan(e)) return;
      // The pointer is captured only once it drags: a click stays the card's under it.
      pointers.set(e.pointerId, { x: e.clientX, y: e.clientY, dragging: false });
      pinch = null;
    });
    area.addEventListener("pointermove", (e) => {
      const last = pointers.get(e.pointerId);
      if (!last) return;
      if (!canPan(e) || (e.pointerType === "mouse" && !(e.buttons & 1))) {
        pointers.clear();
        return;
      }
      const now = { x: e.clientX, y: e.clientY, dragging: true };
      if (!last.dragging) {
        if (pointers.size < 2 && Math.hypot(now.x - last.x, now.y - last.y) < DRAG_PX) return;
        area.setPointerCapture?.(e.pointerId);
        area.classList.add("panning");
      }
      if (pointers.size >= 2) {
        const [a, b] = [...pointers.entries()].filter(([id]) => id !== e.pointerId).map(([, p]) => p).concat([now]);
        const distance = Math.hypot(a.x - b.x, a.y - b.y);
        if (pinch && distance > 0) {
          this.zoom(distance / pinch.distance, this.toTable((a.x + b.x) / 2, (a.y + b.y) / 2));
        }
        pinch = { distance };
      }
      const scale = this.scale();
      this.panBy(-(now.x - last.x) / scale / pointers.size, (now.y - last.y) / scale / pointers.size);
      pointers.set(e.pointerId, now);
    });
    const up = (e) => {
      pointers.delete(e.pointerId);
      pinch = null;
      if (!pointers.size) area.classList.remove("panning");
    };
    area.addEventListener("pointerup", up);
    area.addEventListener("pointercancel", up);
  }

  /** Zoom buttons for the page to put by the table: closer, farther, the whole table. */
  zoomControls() {
    const button = (text, label, handler, extra = {}) => el("button", { type: "button", class: "secondary",
      title: label, "aria-label": label, on: { click: handler }, ...extra }, text);
    return el("div", { class: "zoom-controls board-tools", role: "toolbar", "aria-label": t("zoom the table") },
      button("+", t("zoom in"), () => this.zoom(1.5), { dataset: { zoom: "in" } }),
      button("−", t("zoom out"), () => this.zoom(1 / 1.5), { dataset: { zoom: "out" } }),
      button(t("Table"), t("show the whole table"), () => this.fit(), { dataset: { zoom: "fit" } }));
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
    return clientToTable(this.svg, clientX, clientY);
  }

  /** A table point on screen (client pixels): {x, y}. */
  toClient(x, y) {
    return tableToClient(this.svg, x, y);
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
    const onLift = (e) => {
      e.stopPropagation();
      handle.releasePointerCapture(event.pointerId);
    };
    followPointer(handle, move, { onLift });
  });
}

/**
 * A rotate handle for a card of `size`, drawn ahead of its front (card-local SVG axes);
 * `unit` scales the handle (1: its size in millimetres at the table's own scale).
 */
export function rotateHandle(size = CARD_SIZE, unit = 1) {
  const y = -size[1] / 2 - 16 * unit;
  return svg("g", { class: "rotate-handle" },
    svg("line", { x1: 0, y1: -size[1] / 2, x2: 0, y2: fmt(y), stroke: "#ffffff", "stroke-width": fmt(unit),
      "stroke-dasharray": `${fmt(2 * unit)} ${fmt(2 * unit)}` }),
    svg("circle", { class: "handle-hit", cx: 0, cy: fmt(y), r: fmt(18 * unit), fill: "transparent" }),
    svg("circle", { cx: 0, cy: fmt(y), r: fmt(9 * unit), fill: "#ffd23f", stroke: "#1d2230", "stroke-width": fmt(unit) }),
    svg("path", { d: `M ${fmt(-4 * unit)} ${fmt(y + unit)} A ${fmt(4 * unit)} ${fmt(4 * unit)} 0 1 1 0 ${fmt(y + 4 * unit)}`,
      fill: "none", stroke: "#1d2230", "stroke-width": fmt(1.2 * unit) }),
  );
}
