// A Faster Than Light turn played out on an FtlBoard, pass by pass as the rulebook resolves
// it: launches, rotations, the tapes laid all at once with their contacts near to far, hits,
// removals, the moves, pieces off the table, and the end. Every step is told in one line.

import "./sheet.js";
import { clear, reducedMotion, svg } from "../../shell/dom.js";
import { direction, fmt, footprint, pieceTransform, seatColour } from "./board.js";
import { applyTurn, describeEvent, endText, namesFor } from "./turns.js";
import { t } from "../../shell/i18n.js";

const HIT = "#ffd23f";
const CROSS = "#ff3b3b";
/** Tapes grow this many inches a second at speed 1. */
const TAPE_IN_PER_S = 6;
/** Durations (ms) at speed 1. */
const MS = { appear: 550, rotate: 750, pause: 260, flash: 420, hit: 520, fade: 520, move: 650, end: 600 };

/** Clear what the last animation left on the board (tapes, contacts, crosses, the banner). */
export function clearMarks(board) {
  clear(board.layer("anim"));
  board.keepClear = [];
}

/**
 * Play `events` (one turn's) from `before` (the pieces as the turn began) on `board`.
 * `speed` multiplies the pace (2 = twice as fast); `onStep(text, event, names)` hears one line per
 * step; `signal` (an AbortSignal) stops it where it stands; `instant` draws the end state
 * with the turn's marks at once (as under reduced motion). `players` (seat order, for the
 * colours) defaults to the board's. Resolves with the pieces after the turn (drawn), or
 * null when aborted.
 */
export async function animateTurn(board, before, events,
  { speed = 1, onStep = () => {}, signal = null, players = null, instant = false } = {}) {
  const seats = players || board.last.options.players || [];
  const quick = instant || reducedMotion();
  const pace = Math.max(0.05, speed);
  const stopped = () => Boolean(signal?.aborted);
  const names = namesFor(before, events);
  // Told in the view's frame; `names` lets a listener tell it again when the view turns.
  const tell = (event) => onStep(describeEvent(event, names, board.frame), event, names);
  const layer = board.layer("anim");
  clearMarks(board);
  const marks = layer.appendChild(svg("g", { class: "ftl-anim-marks" }));
  const tapes = layer.appendChild(svg("g", { class: "ftl-tapes" }));
  let state = before.map((p) => ({ ...p }));
  const find = (id) => state.find((p) => p.id === id);
  // The board is drawn whole (its labels laid out again) between the turn's steps; within
  // a step's tween only the pieces that move change, at the cost of a frame (moveDrawn).
  const show = () => board.draw(state, { players: seats });
  const restyle = (moving) => moveDrawn(board, moving);
  const colourOf = (id) => seatColour(seats.indexOf(names.get(id)?.owner));

  /** Run `frame(t)` for t from 0 to 1 over `ms` (scaled by the pace); false if aborted. */
  const tween = (ms, frame) => new Promise((resolve) => {
    const length = quick ? 0 : ms / pace;
    if (stopped()) return resolve(false);
    if (length <= 0) {
      frame(1);
      return resolve(true);
    }
    const begin = performance.now();
    const tick = (now) => {
      if (stopped()) return resolve(false);
      const t = Math.min(1, (now - begin) / length);
      frame(t);
      if (t < 1) requestAnimationFrame(tick);
      else resolve(true);
    };
    requestAnimationFrame(tick);
  });
  const pause = (ms = MS.pause) => tween(ms, () => {});
  const ease = (t) => (t < 0.5 ? 2 * t * t : 1 - (-2 * t + 2) ** 2 / 2);
  const by = (type) => events.filter((e) => e.type === type);

  show();
  for (const event of events.filter((e) => e.type === "plot" || e.type === "ignored")) tell(event);

  // 1. Launches: the new missiles appear ahead of their ships.
  const launches = by("launch");
  if (launches.length) {
    for (const e of launches) {
      const ship = find(e.ship);
      if (ship) Object.assign(ship, { missiles: e.missiles_left, launched: (ship.launched || 0) + 1 });
      state.push({ id: e.missile, kind: "missile", owner: names.get(e.missile).owner, x: e.post[0], y: e.post[1],
        heading: e.heading, hits: 0, on_table: true, opacity: 0 });
      tell(e);
    }
    show();
    const missiles = launches.map((e) => find(e.missile));
    if (!(await tween(MS.appear, (t) => {
      for (const missile of missiles) missile.opacity = t;
      restyle(missiles);
    }))) return null;
    for (const missile of missiles) delete missile.opacity;
    show();
    if (!(await pause())) return null;
  }

  // 2. Rotations about the post, the way they were written (R+ is clockwise).
  const rotations = by("rotate").filter((e) => find(e.piece));
  if (rotations.length) {
    const from = new Map(rotations.map((e) => [e.piece, find(e.piece).heading || 0]));
    rotations.forEach(tell);
    const turning = rotations.map((e) => find(e.piece));
    if (!(await tween(MS.rotate, (t) => {
      rotations.forEach((e, i) => { turning[i].heading = from.get(e.piece) - e.angle_deg * ease(t); });
      restyle(turning);
    }))) return null;
    for (const e of rotations) find(e.piece).heading = e.heading;
    show();
    if (!(await pause())) return null;
  }

  // 3. Every tape at once, growing together: contacts flash as the tapes reach them, so
  //    nearer ones first (equal distances together).
  const laid = by("tape");
  if (laid.length) {
    laid.forEach(tell);
    const longest = Math.max(...laid.map((e) => e.length));
    const contacts = by("contact").sort((a, b) => a.distance - b.distance);
    let next = 0;
    // The distances keep off the pieces and labels as they stand, the pieces where the turn
    // leaves them, and each other; the labels drawn after them keep off them (keepClear).
    const placer = board.labelPlacer();
    for (const piece of applyTurn(before, events)) if (piece.on_table !== false) placer.avoidCorners(footprint(piece));
    const lines = laid.map((e) => drawTape(tapes, e, find(e.piece)?.heading ?? 0, colourOf(e.piece), board));
    const done = await tween((longest / TAPE_IN_PER_S) * 1000, (t) => {
      const reach = longest * t;
      laid.forEach((e, i) => lines[i](reach));
      while (next < contacts.length && contacts[next].distance <= reach + 1e-9) {
        flashContact(marks, contacts[next], board, tween, placer);
        tell(contacts[next]);
        next += 1;
      }
    });
    if (!done) return null;
    if (!(await pause())) return null;
  }

  // 4. Hits: pips fill, a burst on the ship.
  const hits = by("hit").filter((e) => find(e.ship));
  if (hits.length) {
    for (const e of hits) {
      find(e.ship).hits = e.hits;
      tell(e);
    }
    show();
    if (!(await tween(MS.hit, (t) => pulse(marks, hits.map((e) => find(e.ship)), t)))) return null;
  }

  // 5. Removals fade out, leaving a cross where they stood.
  const removed = by("removed").filter((e) => find(e.piece));
  if (removed.length) {
    removed.forEach(tell);
    const fading = removed.map((e) => find(e.piece));
    if (!(await tween(MS.fade, (t) => {
      for (const piece of fading) piece.opacity = 1 - t;
      restyle(fading);
    }))) return null;
    for (const e of removed) {
      const piece = find(e.piece);
      Object.assign(piece, { on_table: false });
      delete piece.opacity;
      cross(marks, piece, board);
    }
    show();
    if (!(await pause())) return null;
  }

  // 6. The surviving sprinters jump along their tapes.
  const moves = by("move").filter((e) => find(e.piece));
  if (moves.length) {
    moves.forEach(tell);
    const movers = moves.map((e) => find(e.piece));
    if (!(await tween(MS.move, (t) => {
      const k = ease(t);
      moves.forEach((e, i) => Object.assign(movers[i], { x: e.start[0] + (e.end[0] - e.start[0]) * k, y: e.start[1] + (e.end[1] - e.start[1]) * k }));
      restyle(movers);
    }))) return null;
    show();
  }

  // 7. Posts off the table: the piece is gone.
  const off = by("off-table").filter((e) => find(e.piece));
  if (off.length) {
    off.forEach(tell);
    const leaving = off.map((e) => Object.assign(find(e.piece), { x: e.post[0], y: e.post[1] }));
    show();
    if (!(await tween(MS.fade, (t) => {
      for (const piece of leaving) piece.opacity = 1 - t;
      restyle(leaving);
    }))) return null;
    for (const e of off) {
      marks.append(svg("circle", { class: "off-table-mark", cx: fmt(e.post[0]), cy: fmt(-e.post[1]), r: fmt(board.px(12)),
        fill: "none", stroke: CROSS, "stroke-width": 2, "stroke-dasharray": "5 3", "vector-effect": "non-scaling-stroke" }));
    }
  }

  // 8. The end: the tapes step back behind the pieces where they stand now.
  state = applyTurn(before, events);
  show();
  tapes.setAttribute("opacity", "0.45");
  const end = by("end")[0];
  if (end) {
    tell(end);
    const banner = layer.appendChild(endBanner(board, end));
    if (!(await tween(MS.end, (t) => banner.setAttribute("opacity", fmt(t))))) return null;
  }
  return state;
}

/**
 * Show `moving` (pieces drawn on `board`) where and how they are now, without drawing the
 * board again: each one's shape takes its post, heading and opacity; its label (and the
 * line to it) goes with it by the distance it went since the board drew it (a resize may
 * draw it again meanwhile) and fades with it. The next whole draw lays the labels out.
 */
function moveDrawn(board, moving) {
  for (const piece of moving) {
    const shape = board.pieceElement(piece.id);
    if (!shape) continue;
    shape.setAttribute("transform", pieceTransform(piece));
    const [x0, y0] = board.drawnAt.get(piece.id) ?? [piece.x, piece.y];
    // (CSS `translate`: a turned board's sheet turns the labels with `transform`.)
    const shift = `${fmt(piece.x - x0)}px ${fmt(y0 - piece.y)}px`;
    const id = CSS.escape(piece.id);
    const labels = board.labels.querySelectorAll(`[data-piece="${id}"], [data-leader-of="${id}"]`);
    for (const node of [shape, ...labels]) {
      if (node !== shape) node.style.translate = shift;
      if (piece.opacity == null) node.removeAttribute("opacity");
      else node.setAttribute("opacity", fmt(piece.opacity));
    }
  }
}

/**
 * A tape as it is laid from the nose along `heading` (its event's `end` is where it was
 * followed to); returns a function that shows it reaching `reach` inches.
 */
function drawTape(parent, tape, heading, colour, board) {
  const unit = direction(heading);
  const point = (d) => [tape.start[0] + unit[0] * d, tape.start[1] + unit[1] * d];
  const g = parent.appendChild(svg("g", { class: `ftl-tape${tape.stopped ? " stopped" : ""}`, dataset: { piece: tape.piece, length: tape.length } }));
  const pen = { "stroke-linecap": "round", "vector-effect": "non-scaling-stroke" };
  const rest = g.appendChild(svg("line", { class: "tape-rest", stroke: colour, "stroke-width": 1.5, "stroke-dasharray": "4 4",
    "stroke-opacity": 0.6, visibility: "hidden", ...pen }));
  const halo = g.appendChild(svg("line", { class: "tape-halo", stroke: "#0a0f1f", "stroke-width": 5, ...pen }));
  const line = g.appendChild(svg("line", { class: "tape-line", stroke: colour, "stroke-width": 3, ...pen }));
  const ticks = g.appendChild(svg("g", { class: "tape-ticks", stroke: "#ffffff", "stroke-opacity": 0.8 }));
  const across = [unit[1], -unit[0]];
  const tick = board.px(4);
  let shownTicks = 0;
  const [sx, sy] = tape.start;
  for (const l of [halo, line, rest]) l.setAttribute("x1", fmt(sx)), l.setAttribute("y1", fmt(-sy));
  return (reach) => {
    const d = Math.min(reach, tape.reach);
    const [ex, ey] = point(d);
    for (const l of [halo, line]) l.setAttribute("x2", fmt(ex)), l.setAttribute("y2", fmt(-ey));
    // A tick every inch, like the marks of a tape measure.
    while (shownTicks + 1 <= d) {
      shownTicks += 1;
      const [tx, ty] = point(shownTicks);
      ticks.append(svg("line", { x1: fmt(tx - across[0] * tick), y1: fmt(-(ty - across[1] * tick)),
        x2: fmt(tx + across[0] * tick), y2: fmt(-(ty + across[1] * tick)), "stroke-width": 1, "vector-effect": "non-scaling-stroke" }));
    }
    if (tape.stopped && reach >= tape.reach) {
      const [fx, fy] = point(tape.length);
      rest.setAttribute("x1", fmt(ex)), rest.setAttribute("y1", fmt(-ey));
      rest.setAttribute("x2", fmt(fx)), rest.setAttribute("y2", fmt(-fy));
      rest.setAttribute("visibility", "visible");
    }
  };
}

/**
 * A contact where the tape touched: a burst (a hit) or a ring (removals), its distance (put
 * by `placer`, a LabelPlacer, where nothing else is), a flash.
 */
function flashContact(parent, contact, board, tween, placer) {
  const [x, y] = [contact.point[0], -contact.point[1]];
  const r = board.px(9);
  const hit = contact.effect === "missile-on-ship" || contact.effect === "ship-on-missile";
  const g = parent.appendChild(svg("g", { class: `ftl-contact effect-${contact.effect}`,
    dataset: { piece: contact.piece, target: contact.target, distance: fmt(contact.distance) } }));
  if (hit) {
    const points = [];
    for (let i = 0; i < 16; i += 1) {
      const [hx, hy] = direction(22.5 * i);
      const k = i % 2 === 0 ? r : r * 0.45;
      points.push(`${fmt(x + hx * k)},${fmt(y - hy * k)}`);
    }
    g.append(svg("polygon", { points: points.join(" "), fill: HIT, stroke: "#ff6b00", "stroke-width": 1, "vector-effect": "non-scaling-stroke" }));
  } else {
    g.append(svg("circle", { cx: fmt(x), cy: fmt(y), r: fmt(r * 0.6), fill: "none", stroke: "#ffffff", "stroke-width": 2.5,
      "vector-effect": "non-scaling-stroke" }));
  }
  const size = board.px(11);
  const text = t("{length} in", { length: Math.round(contact.distance * 100) / 100 });
  const [width, height] = [text.length * size * 0.62, size * 1.15];
  const mark = { x: contact.point[0], y: contact.point[1], width: 2 * r, height: 2 * r };
  placer.avoidLabel(mark.x, mark.y, mark.width, mark.height);
  const spot = placer.place(mark.x, mark.y, width, height, r);
  board.keepClear.push(mark, { x: spot.x, y: spot.y, width, height });
  g.append(svg("text", { class: "distance", x: fmt(spot.x), y: fmt(-spot.y), "font-size": fmt(size), fill: "#ffffff",
    "text-anchor": "middle", "dominant-baseline": "central", stroke: "#0a0f1f", "stroke-width": fmt(size * 0.25),
    "paint-order": "stroke", text }));
  const ring = g.appendChild(svg("circle", { class: "flash", cx: fmt(x), cy: fmt(y), r: fmt(r), fill: "none", stroke: HIT,
    "stroke-width": 3, "vector-effect": "non-scaling-stroke" }));
  tween(MS.flash, (t) => {
    ring.setAttribute("r", fmt(r * (1 + 2 * t)));
    ring.setAttribute("stroke-opacity", fmt(1 - t));
  }).then(() => ring.remove());
}

/** Rings that swell around ships taking hits (t from 0 to 1). */
function pulse(parent, ships, t) {
  for (const node of parent.querySelectorAll(".hit-pulse")) node.remove();
  if (t >= 1) return;
  for (const ship of ships) {
    parent.append(svg("circle", { class: "hit-pulse", cx: fmt(ship.x), cy: fmt(-ship.y), r: fmt(0.8 + 1.6 * t), fill: "none",
      stroke: HIT, "stroke-width": 3, "stroke-opacity": fmt(1 - t), "vector-effect": "non-scaling-stroke" }));
  }
}

/** A red cross where a removed piece stood. */
function cross(parent, piece, board) {
  const r = board.px(7);
  const [x, y] = [piece.x, -piece.y];
  parent.append(svg("path", { class: "removed-mark", dataset: { piece: piece.id }, d: `M ${fmt(x - r)} ${fmt(y - r)} L ${fmt(x + r)} ${fmt(y + r)} M ${fmt(x - r)} ${fmt(y + r)} L ${fmt(x + r)} ${fmt(y - r)}`,
    stroke: CROSS, "stroke-width": 3, "stroke-linecap": "round", "vector-effect": "non-scaling-stroke" }));
}

/** "red wins" or "Draw" across the top of the view. */
function endBanner(board, end) {
  const v = board.viewerBox(); // the screen's top in the viewer's frame, whatever the board's turn
  const size = board.px(30);
  const text = endText(end);
  const [x, y] = board.frame.fromView((v.left + v.right) / 2, v.top - size * 1.25);
  return svg("text", { class: "ftl-end-banner", x: fmt(x), y: fmt(-y), "dominant-baseline": "central", "font-size": fmt(size),
    "font-weight": "900", "text-anchor": "middle", fill: end.winner ? HIT : "#e8ecf5", stroke: "#0a0f1f",
    "stroke-width": fmt(size * 0.18), "paint-order": "stroke", opacity: 0, text: text[0].toUpperCase() + text.slice(1) });
}
