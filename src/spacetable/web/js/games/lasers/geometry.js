// Table geometry in the browser: the same conventions as spacetable.geometry.
//
// Table coordinates are millimetres with +y up; angles are degrees counter-clockwise. A card
// at (x, y, rotation) maps its local point p (+y toward its front) to (x, y) + R(rotation) p.
// SVG has +y down, so every drawing flips y: a table point (x, y) is drawn at (x, -y).

import { cosSin, heading } from "../../shell/angles.js";

/** A card's size unless the table says otherwise: 63 x 88 mm. */
export const CARD_SIZE = [63, 88];

/** A local card point in table coordinates. */
export function toWorld(pose, lx, ly) {
  const [c, s] = cosSin(pose.rotation ?? 0);
  return [pose.x + c * lx - s * ly, pose.y + s * lx + c * ly];
}

/** The unit vector on the table of a direction given relative to the card's front. */
export function direction(pose, localAngle) {
  return heading((pose.rotation ?? 0) + localAngle);
}

/** The four corners of a card (table coordinates), counter-clockwise from front-left. */
export function corners(pose, size = CARD_SIZE) {
  const hw = size[0] / 2;
  const hl = size[1] / 2;
  return [[-hw, hl], [-hw, -hl], [hw, -hl], [hw, hl]].map(([x, y]) => toWorld(pose, x, y));
}

/**
 * Whether two cards touch or overlap (separating-axis test on their rectangles). Cards
 * closer than `gap` mm count as touching, like the server's check.
 */
export function cardsTouch(a, sizeA, b, sizeB, gap = 1e-6) {
  const ca = corners(a, sizeA);
  const cb = corners(b, sizeB);
  for (const pose of [a, b]) {
    const turn = pose.rotation ?? 0;
    for (const axis of [heading(turn), heading(turn - 90)]) {
      const pa = ca.map(([x, y]) => x * axis[0] + y * axis[1]);
      const pb = cb.map(([x, y]) => x * axis[0] + y * axis[1]);
      if (Math.min(...pa) - Math.max(...pb) > gap || Math.min(...pb) - Math.max(...pa) > gap) {
        return false;
      }
    }
  }
  return true;
}

/** Whether a card lies wholly on a table of `width` x `height` centred on the origin. */
export function cardOnTable(pose, size, width, height) {
  return corners(pose, size).every(
    ([x, y]) => Math.abs(x) <= width / 2 + 1e-6 && Math.abs(y) <= height / 2 + 1e-6,
  );
}

/**
 * Where a ray from `origin` along the unit vector `d` leaves the box
 * {left, right, bottom, top} (table coordinates). Used for lasers fired into space.
 */
export function exitPoint(box, origin, d) {
  const ts = [];
  if (d[0]) ts.push((box.left - origin[0]) / d[0], (box.right - origin[0]) / d[0]);
  if (d[1]) ts.push((box.bottom - origin[1]) / d[1], (box.top - origin[1]) / d[1]);
  const positive = ts.filter((t) => t > 0);
  const t = positive.length ? Math.min(...positive) : 0;
  return [origin[0] + d[0] * t, origin[1] + d[1] * t];
}

/** SVG transform that puts a card's face (drawn centred, SVG axes) at a table pose. */
export function cardTransform(pose) {
  return `translate(${fmt(pose.x)} ${fmt(-pose.y)}) rotate(${fmt(-(pose.rotation ?? 0))})`;
}

/** A number as short SVG text. */
export function fmt(value) {
  return String(Math.round(value * 1000) / 1000);
}
