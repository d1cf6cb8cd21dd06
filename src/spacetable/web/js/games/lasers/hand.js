// Cards in hand on the table view: yours, and the other players', drawn faint as their
// poses arrive. Yours follows the mouse and lands with a click; on a touch screen a tap on
// the table brings it there and a second tap on it puts it down, one finger drags it (from
// the card, or from the bar under the table straight onto it), its large handle or a second
// finger turns it, while the first one drags it too, and the page's Place button puts it
// down (lifting a finger after a drag never does); from the keyboard, the arrows move it
// (Shift: bigger steps), Q / E or [ / ] turn it, Enter or Space put it down. One path for
// all of them: moveTo, setRotation, place.

import { t } from "../../shell/i18n.js";
import "./sheet.js";
import { followPointer, reducedMotion, svg } from "../../shell/dom.js";
import { shipFace } from "./cards.js";
import { CARD_SIZE, cardOnTable, cardTransform, cardsTouch, fmt } from "./geometry.js";
import { normAngle } from "../../shell/angles.js";
import { dragRotateHandle, rotateHandle } from "./table.js";

/**
 * How a card in hand is turned, in a player's words: "not turned", "turned 30° right"
 * (clockwise, as the ⟳ button and E turn it), "turned 45° left". A pose's `rotation` is in
 * degrees counter-clockwise, as the table files write it.
 */
export function turnedWords(rotation) {
  const degrees = Math.round(normAngle(rotation));
  if (degrees === 0) return t("not turned");
  return degrees < 0 ? t("turned {degrees}° right", { degrees: -degrees }) : t("turned {degrees}° left", { degrees });
}

/**
 * At most 10 pose messages a second (the load test's clients send as many: lab/loadtest.py
 * PAGE_POSE_HZ). The other pages glide each hand to its pose over one interval, so a hand
 * moves smoothly at every frame; the stream is most of what a room's server reads and
 * writes, and 20 a second cost it about 1.4 times the processor time (docs/performance.md).
 */
export const POSE_INTERVAL_MS = 100;
const WHEEL_STEP = 50; // wheel delta (px) per rotation step
const KEY_STEP_MM = 5; // an arrow key's step (with Shift: KEY_STEP_MM * 5)
const EDGE_PX = 40; // a card dragged this close to the table's edge on screen pans the view
const EDGE_SPEED_PX = 9; // ... this many screen pixels a frame
const HANDLE_PX = 16; // the touch handle's radius on screen
const TAP_PX = 10; // a finger that moves less than this before it lifts taps

export class Hand {
  /**
   * Your card in hand on `view`. `onPose(pose)` streams its pose (throttled), `onPlace(pose)`
   * asks to place it; `obstacles()` lists the cards it must not touch ([{x, y, rotation,
   * size, type}]) so the outline can warn before the server refuses; `onChange()` is told
   * whenever the card moves, turns or changes.
   */
  constructor(view, { onPose, onPlace, obstacles = () => [], onChange = () => {} }) {
    this.view = view;
    this.onPose = onPose;
    this.onPlace = onPlace;
    this.obstacles = obstacles;
    this.onChange = onChange;
    this.ship = null;
    this.size = CARD_SIZE;
    this.pose = { x: 0, y: -250, rotation: 0 };
    this.frozen = false;
    this.resting = false; // just placed: the next card shows when the pointer moves
    this.busy = false; // a place was sent and not yet answered
    // Touch and pen: the fingers on the table, and what they do with the card.
    this.fingers = new Map(); // pointer id -> {x, y} client point
    // {kind: "drag", id, dx, dy} or {kind: "turn", angle, rotation, drag: the drag it goes on with}
    this.gesture = null;
    this.tap = null; // {id, x, y, onCard}: a finger down that has not moved yet
    this.aimed = false; // the player moved or turned this card: a tap on it puts it down
    this.edgeFrame = null;
    // The rotate handle is for fingers and pens: a mouse card follows the pointer, so a
    // mouse turns it with the wheel or the keys instead.
    this.touchy = window.matchMedia("(pointer: coarse)").matches;
    this.wheel = 0;
    this.lastSent = -Infinity; // no pose sent yet
    this.poseTimer = null;
    this.pulse = null; // a beat of the room's pose pulse (performance.now()), once told
    this.handleUnit = 0;
    this.group = svg("g", { id: "hand", class: "in-hand", visibility: "hidden" });
    this.face = this.group.appendChild(svg("g", { class: "hand-face" }));
    this.outline = this.group.appendChild(svg("rect", { class: "hand-outline" }));
    this.handle = this.group.appendChild(svg("g", { class: "rotate-handle" }));
    // What stops the card going down, written by it, upright whatever its turn.
    this.note = svg("g", { class: "hand-note", visibility: "hidden", "pointer-events": "none" });
    view.hands.append(this.group, this.note);
    dragRotateHandle(view, this.handle, () => this.pose, (rotation) => this.setRotation(rotation));
    view.onView(() => this.render());
    this.listen();
  }

  /** Hold `ship` (a key with definition `def`) in `colour`; null empties the hand. */
  setCard(ship, def, colour) {
    if (!ship) {
      this.ship = null;
      this.gesture = null;
      this.group.setAttribute("visibility", "hidden");
      this.group.dataset.ship = "";
      this.render();
      return;
    }
    if (ship !== this.ship) {
      this.ship = ship;
      this.aimed = false;
      this.face.replaceChildren(shipFace(def, colour, this.size));
      const [w, h] = this.size;
      for (const [k, v] of Object.entries({ x: -w / 2 - 1.5, y: -h / 2 - 1.5, width: w + 3, height: h + 3, rx: 4 })) {
        this.outline.setAttribute(k, fmt(v));
      }
      this.group.dataset.ship = ship;
      this.group.dataset.name = def.name;
      // A finger or the keys have no pointer to bring the next card: it shows at once.
      if (this.resting && (this.touchy || document.activeElement === this.view.svg)) this.showNext();
    }
    this.render();
  }

  /** Our card landed: keep the next one out of sight until the pointer moves on. */
  landed() {
    this.busy = false;
    this.resting = true;
    this.render();
  }

  /** The next card shows at once, beside the one that landed (touch and keyboard). */
  showNext() {
    const table = this.view.tableSize;
    // The two cards share a turn: side by side with a gap, whatever the turn.
    const turn = (this.pose.rotation * Math.PI) / 180;
    const step = Math.abs(Math.cos(turn)) * this.size[0] + Math.abs(Math.sin(turn)) * this.size[1] + 12;
    const x = table && this.pose.x + 1.5 * step > table[0] / 2 ? this.pose.x - step : this.pose.x + step;
    this.resting = false;
    this.moveTo(x, this.pose.y);
    this.aimed = false; // shown beside the last one: the first tap brings it, the second puts it down
    this.view.keepInView(this.pose.x, this.pose.y);
  }

  /** Put the card at a table pose. */
  setPose(pose) {
    this.pose = { x: pose.x, y: pose.y, rotation: normAngle(pose.rotation) };
    this.render();
  }

  /** After stop: the card stays where it is. */
  freeze(frozen = true) {
    this.frozen = frozen;
    this.gesture = null;
    this.group.classList.toggle("frozen", frozen);
    this.render();
  }

  /** Whether the card is in hand and free to move. */
  movable() {
    return Boolean(this.ship) && !this.frozen;
  }

  moveTo(x, y) {
    if (!this.movable()) return;
    this.resting = false;
    this.aimed = true;
    this.pose = { ...this.pose, x: Math.round(x * 10) / 10, y: Math.round(y * 10) / 10 };
    this.render();
    this.streamPose();
  }

  moveBy(dx, dy) {
    if (!this.movable()) return;
    this.moveTo(this.pose.x + dx, this.pose.y + dy);
    this.view.keepInView(this.pose.x, this.pose.y);
  }

  setRotation(rotation) {
    if (!this.movable()) return;
    this.resting = false;
    this.aimed = true;
    this.pose = { ...this.pose, rotation: normAngle(rotation) };
    this.render();
    this.streamPose();
  }

  rotateBy(degrees) {
    this.setRotation(this.pose.rotation + degrees);
  }

  /** Why the card cannot go down where it is ("off the table", "overlaps a card"), or null. */
  blockedBy() {
    if (!this.ship) return null;
    const table = this.view.tableSize;
    if (table && !cardOnTable(this.pose, this.size, table[0], table[1])) return t("off the table");
    const hit = this.obstacles().find((c) => cardsTouch(this.pose, this.size, c, c.size || CARD_SIZE));
    if (!hit) return null;
    return hit.type === "asteroid" ? t("overlaps an asteroid") : t("overlaps a card");
  }

  /** Whether the card would touch another card or leave the table where it is now. */
  blocked() {
    return this.blockedBy() !== null;
  }

  /** Whether the card is on show (in hand, and not waiting for the pointer after a landing). */
  shown() {
    return Boolean(this.ship) && (!this.resting || this.frozen);
  }

  render() {
    const shown = this.shown();
    const reason = this.blockedBy();
    this.group.setAttribute("visibility", shown ? "visible" : "hidden");
    this.group.setAttribute("transform", cardTransform(this.pose));
    Object.assign(this.group.dataset, { x: this.pose.x, y: this.pose.y, rotation: this.pose.rotation });
    this.group.dataset.blocked = reason ?? "";
    this.group.classList.toggle("blocked", reason !== null);
    this.group.classList.toggle("touch", this.touchy);
    this.handle.setAttribute("visibility", this.frozen || !this.touchy ? "hidden" : "inherit");
    // On a touch screen the handle keeps a finger's size on screen at any zoom.
    const unit = this.touchy ? Math.max(1, HANDLE_PX / (9 * this.view.scale())) : 1;
    if (Math.abs(unit - this.handleUnit) > 0.05) {
      this.handleUnit = unit;
      this.handle.replaceChildren(...rotateHandle(this.size, unit).childNodes);
    }
    this.renderNote(shown && this.frozen ? reason : null);
    this.onChange();
  }

  /** Write on the frozen card why it cannot be dropped where it is (null: nothing to say). */
  renderNote(reason) {
    this.note.setAttribute("visibility", reason ? "visible" : "hidden");
    this.note.dataset.reason = reason ?? "";
    if (!reason) return;
    const px = 1 / this.view.scale(); // mm per screen pixel: the note keeps its size on screen
    const lines = [t("can't drop here:"), reason];
    const width = 150 * px;
    // Just above the card, and inside the part of the table on screen.
    const v = this.view.visible();
    const clamp = (value, lo, hi) => (lo > hi ? (lo + hi) / 2 : Math.max(lo, Math.min(hi, value)));
    const x = clamp(this.pose.x, v.left + width / 2 + 4 * px, v.right - width / 2 - 4 * px);
    const y = clamp(this.pose.y + Math.hypot(...this.size) / 2 + 24 * px, v.bottom + 25 * px, v.top - 25 * px);
    this.note.setAttribute("transform", `translate(${fmt(x)} ${fmt(-y)})`);
    this.note.replaceChildren(
      svg("rect", { x: fmt(-width / 2), y: fmt(-21 * px), width: fmt(width), height: fmt(42 * px),
        rx: fmt(6 * px), fill: "#3a0d15", "fill-opacity": 0.92, stroke: "#ff4d5e", "stroke-width": fmt(2 * px) }),
      ...lines.map((line, i) => svg("text", { x: 0, y: fmt((i * 17 - 3) * px), "text-anchor": "middle",
        "font-size": fmt(14 * px), "font-weight": "bold", fill: "#ffd6da" }, line)));
  }

  place() {
    if (!this.ship || this.frozen || this.busy || this.resting) return;
    this.flushPose();
    this.onPlace({ ...this.pose });
  }

  // -- pose stream ---------------------------------------------------------------------------

  streamPose() {
    const wait = this.nextPoseAt() - performance.now();
    if (wait <= 0) this.flushPose();
    else if (!this.poseTimer) this.poseTimer = setTimeout(() => this.flushPose(), wait);
  }

  /**
   * The room's pose pulse: a `poses` message says it beats again in `next` ms. Your poses
   * aim at its beats, where the other moving hands' do, so that they reach the server
   * together and leave in one message (about half the pose frames a room's server wrote
   * when every hand moved; docs/performance.md).
   */
  beat(next) {
    if (Number.isFinite(next)) this.pulse = performance.now() + next;
  }

  /**
   * When the next pose may leave: an interval after the last one, or, when the room's pulse
   * is known, its first beat at least half an interval after the last pose (so a hand that
   * starts to move sends at once and falls in step with the others at the next beats).
   */
  nextPoseAt() {
    if (this.pulse === null) return this.lastSent + POSE_INTERVAL_MS;
    const beats = Math.ceil((this.lastSent + POSE_INTERVAL_MS / 2 - this.pulse) / POSE_INTERVAL_MS);
    return this.pulse + beats * POSE_INTERVAL_MS;
  }

  flushPose() {
    clearTimeout(this.poseTimer);
    this.poseTimer = null;
    if (!this.ship || this.frozen) return;
    this.lastSent = performance.now();
    this.onPose({ ...this.pose });
  }

  // -- input ---------------------------------------------------------------------------------

  /** Whether the pointer of `event` is the card's (the table must not pan with it). */
  owns(event) {
    if (!this.movable()) return false;
    if (event.pointerType === "mouse") return true;
    return Boolean(this.gesture) && (this.gesture.kind === "turn" || this.gesture.id === event.pointerId);
  }

  /** Whether a client point is on the card in hand (with a finger's width to spare). */
  under(clientX, clientY) {
    if (!this.shown()) return false;
    const p = this.view.toTable(clientX, clientY);
    const [c, s] = [Math.cos((this.pose.rotation * Math.PI) / 180), Math.sin((this.pose.rotation * Math.PI) / 180)];
    const dx = p.x - this.pose.x;
    const dy = p.y - this.pose.y;
    const spare = 12 / this.view.scale();
    return Math.abs(c * dx + s * dy) <= this.size[0] / 2 + spare && Math.abs(-s * dx + c * dy) <= this.size[1] / 2 + spare;
  }

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
    const fingerAngle = () => {
      const [a, b] = [...this.fingers.values()];
      return (Math.atan2(b.y - a.y, b.x - a.x) * 180) / Math.PI;
    };
    area.addEventListener("pointermove", (e) => {
      notice(e);
      if (e.pointerType === "mouse") {
        const p = at(e);
        this.moveTo(p.x, p.y);
        return;
      }
      if (!this.fingers.has(e.pointerId)) return;
      this.fingers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (this.tap?.id === e.pointerId && Math.hypot(e.clientX - this.tap.x, e.clientY - this.tap.y) > TAP_PX) this.tap = null;
      const g = this.gesture;
      if (!g || !this.movable()) return;
      if (g.kind === "turn" && this.fingers.size >= 2) {
        // Screen angles grow clockwise, table angles counter-clockwise.
        this.setRotation(Math.round(g.rotation - (fingerAngle() - g.angle)));
        // The finger that dragged the card goes on dragging it while the other turns it.
        if (g.drag?.id === e.pointerId) {
          const p = at(e);
          this.moveTo(p.x + g.drag.dx, p.y + g.drag.dy);
        }
      } else if (g.kind === "drag" && g.id === e.pointerId) {
        const p = at(e);
        this.moveTo(p.x + g.dx, p.y + g.dy);
        this.edgePan(e.clientX, e.clientY);
      }
    });
    area.addEventListener("pointerdown", (e) => {
      notice(e);
      if (e.pointerType === "mouse") {
        if (this.movable()) e.preventDefault();
        return;
      }
      this.fingers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (!this.movable()) return;
      if (this.fingers.size >= 2) {
        // A second finger turns the card (the table stops panning); a drag goes on.
        const drag = this.gesture?.kind === "drag" ? this.gesture : null;
        this.gesture = { kind: "turn", angle: fingerAngle(), rotation: this.pose.rotation, drag };
        this.tap = null;
        this.stopEdgePan();
      } else if (this.under(e.clientX, e.clientY)) {
        const p = at(e);
        this.gesture = { kind: "drag", id: e.pointerId, dx: this.pose.x - p.x, dy: this.pose.y - p.y };
        area.setPointerCapture?.(e.pointerId);
      }
      if (this.fingers.size === 1) this.tap = { id: e.pointerId, x: e.clientX, y: e.clientY, onCard: this.under(e.clientX, e.clientY) };
      e.preventDefault();
    });
    const lift = (e) => {
      if (e.pointerType === "mouse") return;
      this.fingers.delete(e.pointerId);
      const tap = this.tap?.id === e.pointerId && e.type === "pointerup" ? this.tap : null;
      this.tap = null;
      // A tap on the card puts it down; a tap elsewhere on the table brings it there.
      if (tap && this.movable() && this.fingers.size === 0) {
        if (tap.onCard && this.shown() && this.aimed) this.place();
        else {
          const p = at(e);
          this.moveTo(p.x, p.y);
        }
      }
      // Lifting a finger never puts the card down: the Place button does.
      if (this.gesture && (this.gesture.kind === "turn" || this.gesture.id === e.pointerId)) this.gesture = null;
      this.stopEdgePan();
    };
    area.addEventListener("pointerup", (e) => {
      lift(e);
      if (e.pointerType === "mouse" && e.button === 0) this.place();
    });
    area.addEventListener("pointercancel", lift);
    area.addEventListener("wheel", (e) => {
      if (!this.movable() || e.ctrlKey) return; // Ctrl + wheel (a trackpad's pinch) zooms
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
    // Turning works from anywhere on the page; moving and placing while the table has the focus.
    window.addEventListener("keydown", (e) => {
      if (e.target.closest?.("input, select, textarea") || e.ctrlKey || e.metaKey || e.altKey) return;
      const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
      const step = e.shiftKey ? 5 : 15;
      const turn = { q: step, "[": step, "{": step, e: -step, "]": -step, "}": -step }[key];
      if (turn !== undefined) {
        if (!this.movable()) return;
        this.rotateBy(turn);
        e.preventDefault();
        return;
      }
      if (e.target !== area) return;
      const move = e.shiftKey ? KEY_STEP_MM * 5 : KEY_STEP_MM;
      const arrow = { ArrowLeft: [-move, 0], ArrowRight: [move, 0], ArrowUp: [0, move], ArrowDown: [0, -move] }[key];
      if (arrow && this.movable()) {
        this.moveBy(...arrow);
        e.preventDefault();
      } else if ((key === "Enter" || key === " ") && this.movable()) {
        if (!this.shown()) this.moveBy(0, 0); // the next card shows before it can go down
        else this.place();
        e.preventDefault();
      }
    });
  }

  /**
   * A finger (or pen) that came down on `source` (the bar under the table) drags the card
   * straight onto the table: the card jumps under the finger and follows it from there.
   */
  dragFrom(source) {
    const area = this.view.svg;
    source.addEventListener("pointerdown", (e) => {
      if (e.pointerType === "mouse" || !this.movable()) return;
      e.preventDefault();
      source.releasePointerCapture?.(e.pointerId);
      const follow = (move) => {
        if (move.pointerId !== e.pointerId) return;
        const p = this.view.toTable(move.clientX, move.clientY);
        const rect = area.getBoundingClientRect();
        // Only over the table: on the bar the card waits for the finger to come up.
        if (move.clientY <= rect.bottom && move.clientY >= rect.top) {
          this.moveTo(p.x, p.y);
        }
      };
      followPointer(window, follow, { pointer: e.pointerId });
    });
  }

  /** While a finger drags the card near the table's edge on screen, pan the view that way. */
  edgePan(clientX, clientY) {
    const rect = this.view.svg.getBoundingClientRect();
    const push = (v, lo, hi) => (v < lo + EDGE_PX ? -1 : v > hi - EDGE_PX ? 1 : 0);
    const dir = [push(clientX, rect.left, rect.right), -push(clientY, rect.top, rect.bottom)];
    this.stopEdgePan();
    if (!this.view.zoomed() || (!dir[0] && !dir[1])) return;
    const step = () => {
      const g = this.gesture;
      if (!g || g.kind !== "drag" || !this.movable()) return;
      const mm = EDGE_SPEED_PX / this.view.scale();
      const before = this.view.view;
      this.view.panBy(dir[0] * mm, dir[1] * mm);
      const after = this.view.view;
      const moved = [after.left - before.left, after.bottom - before.bottom];
      if (!moved[0] && !moved[1]) return;
      this.moveTo(this.pose.x + moved[0], this.pose.y + moved[1]);
      this.edgeFrame = requestAnimationFrame(step);
    };
    this.edgeFrame = requestAnimationFrame(step);
  }

  stopEdgePan() {
    if (this.edgeFrame) cancelAnimationFrame(this.edgeFrame);
    this.edgeFrame = null;
  }
}

/** Where a glide from pose `a` to pose `b` is at `f` (0 to 1), turning the short way. */
function between(a, b, f) {
  const turn = normAngle((b.rotation ?? 0) - (a.rotation ?? 0));
  return { x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f, rotation: (a.rotation ?? 0) + turn * f };
}

export class OtherHands {
  /**
   * The other players' cards in hand on `view`, faint in their colours. Each glides to its
   * newest pose over one pose interval (at once for a person who asked for less motion);
   * its `data-x`, `data-y` and `data-rotation` name the pose it goes to.
   */
  constructor(view) {
    this.view = view;
    this.groups = new Map();
    /** player -> { from, to, start, at }: where each hand is drawn and where it goes. */
    this.glides = new Map();
    this.frame = null;
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
        t("{player}: {ship}", { player, ship: def.name })));
      this.view.hands.prepend(g);
      this.groups.set(player, g);
      this.glides.delete(player); // a new card appears where it is
    }
    Object.assign(g.dataset, { x: pose.x, y: pose.y, rotation: pose.rotation });
    const glide = this.glides.get(player);
    if (!glide || reducedMotion()) {
      this.glides.set(player, { from: pose, to: pose, start: 0, at: pose });
      g.setAttribute("transform", cardTransform(pose));
      return;
    }
    this.glides.set(player, { from: glide.at, to: pose, start: performance.now(), at: glide.at });
    this.frame ??= requestAnimationFrame((now) => this.step(now));
  }

  /** One frame of the hands that glide; the next is asked for while one still does. */
  step(now) {
    this.frame = null;
    let moving = false;
    for (const [player, glide] of this.glides) {
      if (glide.at === glide.to) continue;
      const f = Math.min(1, Math.max(0, (now - glide.start) / POSE_INTERVAL_MS));
      glide.at = f === 1 ? glide.to : between(glide.from, glide.to, f);
      this.groups.get(player)?.setAttribute("transform", cardTransform(glide.at));
      moving ||= f < 1;
    }
    if (moving) this.frame = requestAnimationFrame((next) => this.step(next));
  }

  /** Forget `player`'s hand (placed, or holding nothing). */
  hide(player) {
    this.groups.get(player)?.remove();
    this.groups.delete(player);
    this.glides.delete(player);
  }

  /** Keep only the hands of `players`. */
  keep(players) {
    for (const player of [...this.groups.keys()]) if (!players.includes(player)) this.hide(player);
  }

  clear() {
    this.keep([]);
  }
}
