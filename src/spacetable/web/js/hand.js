// Cards in hand on the table view: yours, which follows the pointer and is placed with a
// click or a lift of the finger, and the other players', drawn faint as their poses arrive.

import { svg } from "./dom.js";
import { shipFace } from "./cards.js";
import { CARD_SIZE, cardOnTable, cardTransform, cardsTouch, fmt, normAngle } from "./geometry.js";
import { dragRotateHandle, rotateHandle } from "./table.js";

const POSE_INTERVAL_MS = 50; // at most 20 pose messages a second
const WHEEL_STEP = 50; // wheel delta (px) per rotation step

export class Hand {
  /**
   * Your card in hand on `view`. `onPose(pose)` streams its pose (throttled), `onPlace(pose)`
   * asks to place it; `obstacles()` lists the cards it must not touch ([{x, y, rotation,
   * size}]) so the outline can warn before the server refuses.
   */
  constructor(view, { onPose, onPlace, obstacles = () => [] }) {
    this.view = view;
    this.onPose = onPose;
    this.onPlace = onPlace;
    this.obstacles = obstacles;
    this.ship = null;
    this.size = CARD_SIZE;
    this.pose = { x: 0, y: -250, rotation: 0 };
    this.frozen = false;
    this.resting = false; // just placed: the next card shows when the pointer moves
    this.busy = false; // a place was sent and not yet answered
    this.dragging = null; // pointer id of a touch drag
    // The rotate handle is for fingers and pens: a mouse card follows the pointer, so a
    // mouse turns it with the wheel or the keys instead.
    this.touchy = window.matchMedia("(pointer: coarse)").matches;
    this.wheel = 0;
    this.lastSent = 0;
    this.poseTimer = null;
    this.group = svg("g", { id: "hand", class: "in-hand", visibility: "hidden" });
    this.face = this.group.appendChild(svg("g", { class: "hand-face" }));
    this.outline = this.group.appendChild(svg("rect", { class: "hand-outline" }));
    this.handle = this.group.appendChild(rotateHandle());
    view.hands.append(this.group);
    dragRotateHandle(view, this.handle, () => this.pose, (rotation) => this.setRotation(rotation));
    this.listen();
  }

  /** Hold `ship` (a key with definition `def`) in `colour`; null empties the hand. */
  setCard(ship, def, colour) {
    if (!ship) {
      this.ship = null;
      this.group.setAttribute("visibility", "hidden");
      this.group.dataset.ship = "";
      return;
    }
    if (ship !== this.ship) {
      this.ship = ship;
      this.face.replaceChildren(shipFace(def, colour, this.size));
      const [w, h] = this.size;
      for (const [k, v] of Object.entries({ x: -w / 2 - 1.5, y: -h / 2 - 1.5, width: w + 3, height: h + 3, rx: 4 })) {
        this.outline.setAttribute(k, fmt(v));
      }
      this.group.dataset.ship = ship;
      this.group.dataset.name = def.name;
    }
    this.render();
  }

  /** Our card landed: keep the next one out of sight until the pointer moves on. */
  landed() {
    this.busy = false;
    this.resting = true;
    this.render();
  }

  /** Put the card at a table pose. */
  setPose(pose) {
    this.pose = { x: pose.x, y: pose.y, rotation: normAngle(pose.rotation) };
    this.render();
  }

  /** After stop: the card stays where it is. */
  freeze(frozen = true) {
    this.frozen = frozen;
    this.dragging = null;
    this.group.classList.toggle("frozen", frozen);
    this.render();
  }

  moveTo(x, y) {
    if (!this.ship || this.frozen) return;
    this.resting = false;
    this.pose = { ...this.pose, x: Math.round(x * 10) / 10, y: Math.round(y * 10) / 10 };
    this.render();
    this.streamPose();
  }

  setRotation(rotation) {
    if (!this.ship || this.frozen) return;
    this.pose = { ...this.pose, rotation: normAngle(rotation) };
    this.render();
    this.streamPose();
  }

  rotateBy(degrees) {
    this.setRotation(this.pose.rotation + degrees);
  }

  /** Whether the card would touch another card or leave the table where it is now. */
  blocked() {
    const table = this.view.tableSize;
    if (table && !cardOnTable(this.pose, this.size, table[0], table[1])) return true;
    return this.obstacles().some((c) => cardsTouch(this.pose, this.size, c, c.size || CARD_SIZE));
  }

  render() {
    const shown = Boolean(this.ship) && (!this.resting || this.frozen);
    this.group.setAttribute("visibility", shown ? "visible" : "hidden");
    this.group.setAttribute("transform", cardTransform(this.pose));
    Object.assign(this.group.dataset, { x: this.pose.x, y: this.pose.y, rotation: this.pose.rotation });
    this.group.classList.toggle("blocked", Boolean(this.ship) && this.blocked());
    this.handle.setAttribute("visibility", this.frozen || !this.touchy ? "hidden" : "inherit");
  }

  place() {
    if (!this.ship || this.frozen || this.busy || this.resting) return;
    this.flushPose();
    this.onPlace({ ...this.pose });
  }

  // -- pose stream ---------------------------------------------------------------------------

  streamPose() {
    const wait = this.lastSent + POSE_INTERVAL_MS - performance.now();
    if (wait <= 0) this.flushPose();
    else if (!this.poseTimer) this.poseTimer = setTimeout(() => this.flushPose(), wait);
  }

  flushPose() {
    clearTimeout(this.poseTimer);
    this.poseTimer = null;
    if (!this.ship || this.frozen) return;
    this.lastSent = performance.now();
    this.onPose({ ...this.pose });
  }

  // -- input ---------------------------------------------------------------------------------

  listen() {
    const area = this.view.svg;
    const at = (e) => this.view.toTable(e.clientX, e.clientY);
    const notice = (e) => {
      const touchy = e.pointerType !== "mouse";
      if (touchy !== this.touchy) {
        this.touchy = touchy;
        this.render();
      }
    };
    area.addEventListener("pointermove", (e) => {
      notice(e);
      if (e.pointerType === "mouse" || this.dragging === e.pointerId) {
        const p = at(e);
        this.moveTo(p.x, p.y);
      }
    });
    area.addEventListener("pointerdown", (e) => {
      notice(e);
      if (!this.ship || this.frozen) return;
      if (e.pointerType !== "mouse") {
        // Touch and pen drag the card under the finger; lifting it places the card.
        this.dragging = e.pointerId;
        area.setPointerCapture(e.pointerId);
        const p = at(e);
        this.moveTo(p.x, p.y);
      }
      e.preventDefault();
    });
    area.addEventListener("pointerup", (e) => {
      if (e.pointerType === "mouse" && e.button !== 0) return;
      if (e.pointerType !== "mouse" && this.dragging !== e.pointerId) return;
      this.dragging = null;
      this.place();
    });
    area.addEventListener("pointercancel", () => {
      this.dragging = null;
    });
    area.addEventListener("wheel", (e) => {
      if (!this.ship || this.frozen) return;
      e.preventDefault();
      const delta = e.deltaY || e.deltaX;
      const step = e.shiftKey ? 5 : 15;
      this.wheel += delta;
      if (Math.abs(delta) >= WHEEL_STEP) this.wheel = Math.sign(delta) * WHEEL_STEP;
      while (Math.abs(this.wheel) >= WHEEL_STEP) {
        // Wheel down turns the card clockwise (negative degrees).
        this.rotateBy(this.wheel > 0 ? -step : step);
        this.wheel -= Math.sign(this.wheel) * WHEEL_STEP;
      }
    }, { passive: false });
    window.addEventListener("keydown", (e) => {
      if (e.target.closest?.("input, select, textarea")) return;
      const key = e.key.toLowerCase();
      if (key !== "q" && key !== "e") return;
      const step = e.shiftKey ? 5 : 15;
      this.rotateBy(key === "q" ? step : -step);
      e.preventDefault();
    });
  }
}

export class OtherHands {
  /** The other players' cards in hand on `view`, faint in their colours. */
  constructor(view) {
    this.view = view;
    this.groups = new Map();
  }

  /** Show `player`'s card (`def`) at `pose` in `colour`. */
  show(player, pose, def, colour) {
    let g = this.groups.get(player);
    if (!g || g.dataset.ship !== pose.ship) {
      g?.remove();
      g = svg("g", { class: "other-hand", dataset: { player, ship: pose.ship } },
        svg("g", { opacity: 0.5 }, shipFace(def, colour)),
        svg("rect", { x: -33, y: -45.5, width: 66, height: 91, rx: 4, fill: "none", stroke: colour,
          "stroke-width": 2, "stroke-dasharray": "6 3" }),
        svg("text", { class: "hand-label", y: 60, "font-size": 13, "text-anchor": "middle", fill: colour,
          "font-weight": "bold", stroke: "#0a0f1f", "stroke-width": 3, "paint-order": "stroke" },
        `${player}: ${def.name}`));
      this.view.hands.prepend(g);
      this.groups.set(player, g);
    }
    g.setAttribute("transform", cardTransform(pose));
    Object.assign(g.dataset, { x: pose.x, y: pose.y, rotation: pose.rotation });
  }

  /** Forget `player`'s hand (placed, or holding nothing). */
  hide(player) {
    this.groups.get(player)?.remove();
    this.groups.delete(player);
  }

  /** Keep only the hands of `players`. */
  keep(players) {
    for (const player of [...this.groups.keys()]) if (!players.includes(player)) this.hide(player);
  }

  clear() {
    this.keep([]);
  }
}
