// Angles on a table, shared by every game that turns pieces: degrees counter-clockwise,
// +y up (the laser games' millimetres and Faster Than Light's inches alike).

/** Cosine and sine of an angle in degrees, exact at multiples of 90. */
export function cosSin(deg) {
  const quarter = deg / 90;
  if (Number.isInteger(quarter)) {
    return [[1, 0], [0, 1], [-1, 0], [0, -1]][((quarter % 4) + 4) % 4];
  }
  const rad = (deg * Math.PI) / 180;
  return [Math.cos(rad), Math.sin(rad)];
}

/** Unit vector for a piece-relative angle: 0 is +y (front at rotation 0), 90 is -x. */
export function heading(deg) {
  const [c, s] = cosSin(deg);
  return [-s, c];
}

/** The angle (degrees) whose heading points along (dx, dy); inverse of `heading`. */
export function angleOf(dx, dy) {
  return (Math.atan2(-dx, dy) * 180) / Math.PI;
}

/** An angle in (-180, 180]. */
export function normAngle(deg) {
  let a = ((deg % 360) + 360) % 360;
  if (a > 180) a -= 360;
  return Math.round(a * 1000) / 1000;
}
