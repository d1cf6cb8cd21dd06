// The referee's tools on the FTL board: orders checked as they are typed (the server's rules
// and words), and pieces moved by dragging, turned by a handle ahead of the nose that snaps
// to 15°, or by keys. Mouse, touch and pen share one pointer path.

import "./sheet.js";
import { clear, followPointer, svg } from "../../shell/dom.js";
import { fmt, nose } from "./board.js";
import { ROTATION_STEP_DEG, parseOrder } from "./orders.js";
import { pickPieces } from "./picking.js";
import { t } from "../../shell/i18n.js";

/** Where a dragged piece's post snaps to (in), and where the arrow keys move it. */
export const SNAP_IN = 0.25;
const KNOB_PX = 34;
/** A press that moves less than this (screen px) is a click, not a drag. */
const DRAG_PX = 3;


/** An angle in degrees brought into (-180, 180]. */
export function normalHeading(deg) {
  let a = ((deg % 360) + 360) % 360;
  if (a > 180) a -= 360;
  return Math.round(a * 1e9) / 1e9 + 0;
}

/**
 * Why the order `text` cannot be carried out by `piece`, in the server's words, or null:
 * `'R+10': a rotation is a multiple of 15 degrees from -180 to +180`.
 */
export function orderProblem(piece, text) {
  let order;
  try {
    order = parseOrder(text);
  } catch (error) {
    return error.message;
  }
  if (order.kind !== "L") return null;
  if (piece.kind === "missile") return t("'{piece}' cannot launch ('L'): only ships launch missiles", { piece: piece.id });
  if ((piece.missiles ?? 10) <= 0) return t("'{piece}' cannot launch ('L'): it has no missiles left", { piece: piece.id });
  return null;
}

/**
 * Read what the referee typed for `piece` (one order, or several separated by spaces or
 * commas: the rules ignore all but the first). Returns {orders: [text], problem, note}:
 * `problem` names the piece and the first bad order, `note` says what is ignored.
 */
export function readOrders(piece, text) {
  const orders = String(text).split(/[\s,;]+/).filter(Boolean);
  for (const order of orders) {
    const problem = orderProblem(piece, order);
    if (problem) return { orders, problem: t("piece '{piece}': {problem}", { piece: piece.id, problem }), note: null };
  }
  const note = orders.length > 1 ? t("Only the first order counts: {ignored} will be ignored, as the rules say.", { ignored: orders.slice(1).join(", ") }) : null;
  return { orders, problem: null, note };
}

/**
 * Let the referee move and turn pieces on `board`. `hooks`: `pieces()` the pieces (mutable
 * objects), `selected()` the selected id or null, `select(id)`, `changed(piece)` after a
 * move or turn (the caller redraws), `remove(id)`, `enabled()` whether editing is allowed.
 * Returns {drawHandle(), rotate(degrees), destroy()}.
 */
export function attachEditor(board, hooks) {
  const find = () => hooks.pieces().find((p) => p.id === hooks.selected()) || null;
  const layer = board.layer("edit");

  function drawHandle() {
    clear(layer);
    const piece = find();
    if (!piece || !hooks.enabled() || piece.on_table === false) return;
    const front = nose(piece);
    const [dx, dy] = [front.x - piece.x, front.y - piece.y];
    const length = Math.hypot(dx, dy) || 1;
    const reach = board.px(KNOB_PX);
    const knob = { x: front.x + (dx / length) * reach, y: front.y + (dy / length) * reach };
    layer.append(svg("g", { class: "rotate-handle", dataset: { piece: piece.id } },
      svg("line", { x1: fmt(front.x), y1: fmt(-front.y), x2: fmt(knob.x), y2: fmt(-knob.y), stroke: "#ffffff",
        "stroke-width": 1, "stroke-dasharray": "3 2", "vector-effect": "non-scaling-stroke" }),
      svg("circle", { class: "rotate-knob", cx: fmt(knob.x), cy: fmt(-knob.y), r: fmt(board.px(22)), fill: "transparent" }),
      svg("circle", { class: "rotate-knob", cx: fmt(knob.x), cy: fmt(-knob.y), r: fmt(board.px(9)), fill: "#ffd23f",
        stroke: "#1d2230", "stroke-width": 1, "vector-effect": "non-scaling-stroke" }),
      svg("title", { text: t("drag to turn (15° steps)") })));
  }

  function rotate(degrees) {
    const piece = find();
    if (!piece || !hooks.enabled()) return;
    piece.heading = normalHeading(Math.round(((piece.heading || 0) + degrees) / ROTATION_STEP_DEG) * ROTATION_STEP_DEG);
    hooks.changed(piece);
  }

  /** Move the selected piece (dx, dy) inches on the screen (right, up), whatever the board's turn. */
  function move(sx, sy) {
    const piece = find();
    if (!piece || !hooks.enabled()) return;
    const [dx, dy] = board.frame.fromView(sx, sy);
    piece.x = Math.round((piece.x + dx) * 1e6) / 1e6;
    piece.y = Math.round((piece.y + dy) * 1e6) / 1e6;
    hooks.changed(piece);
  }

  const snap = (v) => Math.round(v / SNAP_IN) * SNAP_IN;

  function pointerDown(event) {
    if (!hooks.enabled() || event.button > 0) return;
    const knob = event.target.closest?.(".rotate-knob");
    // The pieces under the pointer by their own shapes (the ship pressed, not the missile
    // drawn in front of it); the selected one keeps the drag when it is among them, so a
    // piece picked from under another (picking.js: click again) is the one that moves.
    const under = knob ? [] : board.piecesAt(event.clientX, event.clientY).map((p) => p.id);
    if (!knob && !under.length) {
      picker.pickAt(event.clientX, event.clientY); // nothing there: the next press starts over
      if (hooks.selected()) hooks.select(null);
      return;
    }
    event.preventDefault();
    if (!knob && !under.includes(hooks.selected())) hooks.select(under[0]);
    const piece = find();
    if (!piece) return;
    const start = board.toTable(event.clientX, event.clientY);
    const from = [event.clientX, event.clientY];
    const origin = { x: piece.x, y: piece.y };
    let dragged = false;
    board.svg.setPointerCapture(event.pointerId);
    const onMove = (e) => {
      dragged ||= Math.hypot(e.clientX - from[0], e.clientY - from[1]) > DRAG_PX;
      if (!dragged) return;
      const p = board.toTable(e.clientX, e.clientY);
      if (knob) {
        const angle = (Math.atan2(-(p.x - piece.x), p.y - piece.y) * 180) / Math.PI;
        piece.heading = normalHeading(Math.round(angle / ROTATION_STEP_DEG) * ROTATION_STEP_DEG);
      } else {
        piece.x = snap(origin.x + p.x - start.x);
        piece.y = snap(origin.y + p.y - start.y);
      }
      hooks.changed(piece);
    };
    const onUp = () => {
      // A press that did not drag picks (again at the same spot: the next piece there);
      // a drag, or a press on the knob, picks nothing. (Not on "click": the board is drawn
      // again as a press selects, and the browser then sends no click.)
      if (!dragged && !knob) picker.pickAt(from[0], from[1]);
    };
    followPointer(board.svg, onMove, { onLift: onUp });
  }

  function keyDown(event) {
    if (!hooks.enabled() || !find() || event.target.closest?.("input, select, textarea")) return;
    const step = event.shiftKey ? 1 : SNAP_IN;
    const actions = {
      q: () => rotate(ROTATION_STEP_DEG), e: () => rotate(-ROTATION_STEP_DEG),
      arrowleft: () => move(-step, 0), arrowright: () => move(step, 0), arrowup: () => move(0, step), arrowdown: () => move(0, -step),
      delete: () => hooks.remove(hooks.selected()), backspace: () => hooks.remove(hooks.selected()),
    };
    const action = actions[event.key.toLowerCase()];
    if (!action) return;
    event.preventDefault();
    action();
  }

  board.svg.addEventListener("pointerdown", pointerDown);
  window.addEventListener("keydown", keyDown);
  // A press again at the same spot picks the next piece there, as a click does in the room.
  const picker = pickPieces(board, { allowed: () => hooks.enabled(), onPick: (id) => hooks.select(id), current: hooks.selected,
    listen: false });
  // The arrow keys move the selected piece: they pan the board only when none is.
  board.keysTaken = () => hooks.enabled() && Boolean(find());
  return {
    drawHandle,
    rotate,
    destroy() {
      board.svg.removeEventListener("pointerdown", pointerDown);
      window.removeEventListener("keydown", keyDown);
      picker.stop();
    },
  };
}
