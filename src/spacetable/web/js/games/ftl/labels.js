// Labels on the FTL board that keep out of each other's way: each piece's short name (its
// hits and missiles left under a ship's), the plot's order texts ("S7") and its "hit?"
// warnings. A LabelPlacer puts each label, in a fixed order, at the first free spot around
// what it names: beside it in eight directions, then further out ring by ring, never over a
// piece or a label already placed; a label pushed away from its piece gets a thin leader.
// Worked out in the viewer's frame (x right, y up the screen, inches), so a turned board
// keeps its upright labels apart too. Deterministic: the same pieces give the same labels.

import { shownId } from "./turns.js";

/** Room (in label heights) between a ring of spots and the next. */
const RING_STEP = 0.9;
/** Rings of spots tried around a label's anchor before settling for the least crowded. */
const RINGS = 6;
/** Directions to try, in order: right, left, above, below, then the diagonals. */
const DIRECTIONS = [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [1, -1], [-1, 1], [-1, -1]];

/**
 * The short name a piece goes by on the board: a missile is "m3" (its owner shows by its
 * colour), a ship its id, cut to 12 characters.
 */
export function shortName(piece) {
  const id = String(piece.id);
  const prefix = `${piece.owner}-`;
  const short = piece.kind === "missile" && id.startsWith(prefix) && id.length > prefix.length ? id.slice(prefix.length)
    : shownId(id, piece.owner);
  return short.length > 12 ? `${short.slice(0, 11)}…` : short;
}

/** Whether boxes [left, bottom, right, top] overlap, and by how much (area). */
function overlap(a, b) {
  const w = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
  const h = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
  return w > 0 && h > 0 ? w * h : 0;
}

export class LabelPlacer {
  /**
   * Place labels on a board seen through `frame` (FtlBoard.frame), inside `view` (the
   * viewer's box on screen, {left, right, bottom, top}), around the `taken` boxes.
   */
  constructor(frame, view, taken = []) {
    this.frame = frame;
    this.view = view;
    this.boxes = [...taken];
  }

  /** Another placer that starts from the boxes this one holds now. */
  copy() {
    return new LabelPlacer(this.frame, this.view, this.boxes);
  }

  /** Keep labels off `piece` (its footprint's box on screen; `corners` from board.footprint). */
  avoidCorners(corners) {
    const points = corners.map(([x, y]) => this.frame.point(x, y));
    const xs = points.map((p) => p[0]);
    const ys = points.map((p) => p[1]);
    this.boxes.push([Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)]);
  }

  /**
   * Keep labels off a label drawn by someone else: `width` x `height` (inches, upright to
   * the viewer) centred on the table point (x, y).
   */
  avoidLabel(x, y, width, height) {
    const [vx, vy] = this.frame.point(x, y);
    this.boxes.push([vx - width / 2, vy - height / 2, vx + width / 2, vy + height / 2]);
  }

  /**
   * A free place for a label `width` x `height` (inches on screen) beside the table point
   * (x, y), `reach` inches from it (`centred`: on the point itself first). Returns {x, y}
   * (the label's middle on the table), `dir` ([-1..1, -1..1]: where it went, as the viewer
   * sees it) and `far` (pushed out past the first ring: worth a leader).
   */
  place(x, y, width, height, reach, { centred = false } = {}) {
    const [vx, vy] = this.frame.point(x, y);
    const step = height * RING_STEP;
    const spots = centred ? [[0, 0, 0]] : [];
    for (let ring = 0; ring < RINGS; ring += 1) for (const [ux, uy] of DIRECTIONS) spots.push([ux, uy, ring]);
    let best = null;
    for (const [ux, uy, ring] of spots) {
      const r = reach + ring * step;
      const [cx, cy] = [vx + ux * (r + width / 2), vy + uy * (r + height / 2)];
      const box = [cx - width / 2, cy - height / 2, cx + width / 2, cy + height / 2];
      const v = this.view;
      const outside = box[0] < v.left || box[2] > v.right || box[1] < v.bottom || box[3] > v.top;
      const crowd = this.boxes.reduce((sum, b) => sum + overlap(b, box), 0) + (outside ? width * height : 0);
      // Any overlap costs more than a ring further out: a free spot always wins.
      const score = crowd > 0 ? 1000 + crowd * 100 + ring : ring + (ux && uy ? 0.5 : 0);
      if (!best || score < best.score) best = { score, cx, cy, ux, uy, ring, box };
      if (crowd === 0) break;
    }
    this.boxes.push(best.box);
    const [tx, ty] = this.frame.fromView(best.cx, best.cy);
    return { x: tx, y: ty, dir: [best.ux, best.uy], far: best.ring > 0, box: best.box };
  }

  /**
   * The end of a leader from the table point (x, y) to the edge of the placed label `box`
   * (viewer frame), on the table: [x, y].
   */
  leaderEnd(x, y, box) {
    const [vx, vy] = this.frame.point(x, y);
    const ex = Math.max(box[0], Math.min(box[2], vx));
    const ey = Math.max(box[1], Math.min(box[3], vy));
    return this.frame.fromView(ex, ey);
  }
}
