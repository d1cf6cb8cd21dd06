// Pan and zoom by hand, for the boards drawn in SVG (Faster Than Light, the hex fleet): a
// drag pans, two fingers pinch and pan together, the wheel (or a trackpad's pinch) zooms
// about the pointer, and, when asked, the arrow keys pan and + / − zoom while the board has
// the focus. Each board says how its view moves (`pan`, `zoomAt`): this module only reads
// the gestures. A press that the board's own handles take (they stop its propagation or
// prevent its default) never pans; a drag or a pinch does not end in a click; a press that
// did not move is a tap.

/** How far (CSS px) a pointer moves before a press becomes a pan. */
const PAN_THRESHOLD_PX = 8;
/** The wheel's zoom step, and the keys' pan step as a part of the board's size. */
const WHEEL_STEP = 1.2;
const KEY_PAN = 0.12;

/**
 * Read pan and zoom gestures on `target` (an <svg>). `pan(dx, dy)`: the board's content
 * follows the pointer by (dx, dy) CSS pixels; `zoomAt(factor, clientX, clientY)`: zoom in
 * (factor > 1) or out keeping that screen point still. `onTap(event)`: a press let go
 * without moving (on pointerup). `keys`: the arrow keys pan and + / − zoom (a function:
 * whether they do for this keydown, when something else may take them). Returns
 * {busy()} (a pan or pinch is under way) and {stop()} to let go of the board.
 */
export function panZoom(target, { pan, zoomAt, onTap = null, keys = false }) {
  const pointers = new Map(); // pointerId -> {x, y}: the presses this module follows
  let drag = null; // {x, y, moved, press}: one press that may become a pan
  let pinch = null; // {distance, x, y}: two presses
  let gesture = false; // this press (or pinch) panned or zoomed: no click after it
  const middle = () => {
    const [a, b] = [...pointers.values()];
    return { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2, distance: Math.max(1, Math.hypot(a.x - b.x, a.y - b.y)) };
  };
  const down = (e) => {
    if (e.button > 0 || e.defaultPrevented) return; // the middle and right buttons are the browser's
    if (!pointers.size) gesture = false;
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pointers.size === 1) drag = { x: e.clientX, y: e.clientY, moved: false, press: e };
    else if (pointers.size === 2) {
      pinch = middle();
      drag = null;
      gesture = true;
    }
  };
  const move = (e) => {
    if (!pointers.has(e.pointerId)) return;
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pinch && pointers.size === 2) {
      const now = middle();
      zoomAt(now.distance / pinch.distance, now.x, now.y);
      pan(now.x - pinch.x, now.y - pinch.y);
      pinch = now;
    } else if (drag && pointers.size === 1) {
      const [dx, dy] = [e.clientX - drag.x, e.clientY - drag.y];
      if (!drag.moved && Math.hypot(dx, dy) < PAN_THRESHOLD_PX) return;
      if (drag.press.defaultPrevented) { // a handler after us took the press (it drags a piece)
        pointers.delete(e.pointerId);
        drag = null;
        return;
      }
      if (!drag.moved && target.setPointerCapture && !target.hasPointerCapture(e.pointerId)) {
        try {
          target.setPointerCapture(e.pointerId); // keep panning when the pointer leaves the board
        } catch {
          // a pointer that already went up
        }
      }
      drag.moved = true;
      gesture = true;
      pan(dx, dy);
      drag.x = e.clientX;
      drag.y = e.clientY;
    }
  };
  const up = (e) => {
    if (!pointers.has(e.pointerId)) return;
    pointers.delete(e.pointerId);
    if (pointers.size < 2) pinch = null;
    if (pointers.size === 0) {
      drag = null;
      if (!gesture && e.type === "pointerup") onTap?.(e);
    }
  };
  // The click a browser makes up after a drag or a pinch is no click on the board.
  const click = (e) => {
    if (!gesture) return;
    gesture = false;
    e.stopImmediatePropagation(); // at the board itself too (a captured pointer clicks there)
    e.preventDefault();
  };
  const wheel = (e) => {
    e.preventDefault();
    zoomAt(e.deltaY < 0 ? WHEEL_STEP : 1 / WHEEL_STEP, e.clientX, e.clientY);
  };
  const key = (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey || e.target !== target) return;
    if (typeof keys === "function" && !keys(e)) return;
    const box = target.getBoundingClientRect();
    const steps = { ArrowLeft: [1, 0], ArrowRight: [-1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
    if (steps[e.key]) {
      pan(steps[e.key][0] * box.width * KEY_PAN, steps[e.key][1] * box.height * KEY_PAN);
    } else if (e.key === "+" || e.key === "=" || e.key === "-" || e.key === "−") {
      zoomAt(e.key === "-" || e.key === "−" ? 1 / WHEEL_STEP : WHEEL_STEP, box.left + box.width / 2, box.top + box.height / 2);
    } else return;
    e.preventDefault();
  };
  const listeners = [["pointerdown", down], ["pointermove", move], ["pointerup", up], ["pointercancel", up],
    ["click", click, true], ["wheel", wheel, { passive: false }]];
  if (keys) listeners.push(["keydown", key]);
  for (const [type, handler, options] of listeners) target.addEventListener(type, handler, options);
  return {
    busy: () => Boolean(drag?.moved || pinch),
    stop: () => {
      for (const [type, handler, options] of listeners) target.removeEventListener(type, handler, options);
    },
  };
}

/**
 * A viewBox {x, y, w, h} zoomed by `factor` about the point `at` ({x, y} in its units),
 * its width kept within [`least`, `most`].
 */
export function zoomedBox(view, factor, at, { least = 0, most = Infinity } = {}) {
  const w = Math.min(most, Math.max(least, view.w / factor));
  const k = w / view.w;
  return { x: at.x - (at.x - view.x) * k, y: at.y - (at.y - view.y) * k, w, h: view.h * k };
}
