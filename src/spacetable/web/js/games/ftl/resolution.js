// One Faster Than Light turn resolved in the browser, exactly as the server's referee does
// (games/ftl/resolution.py and turnfile.py, DESIGN section 5): launches, rotations, then
// the sprints' tapes traced against one snapshot of the pieces in normal space, near to
// far, their hits and removals applied together, the survivors moved, a post off the table
// taking its piece off; then the end phase. A faithful port, line for line, so that a
// player's "what if" (whatif.js) shows what the server would do: the same events, the same
// numbers. tests/golden/ftl-turns.json holds both to one table of turns.
//
// Pure: no DOM, no clock. Lengths in inches (+y up), headings in degrees (0 = +y,
// counter-clockwise positive), rotations as written (clockwise positive).

import { parseOrder } from "./orders.js";
import { t } from "../../shell/i18n.js";

const SHIP_SIZE_IN = [0.75, 1.5];
const MISSILE_SIZE_IN = [0.25, 0.5];
const DEFAULT_MISSILES = 10;
const LAUNCH_GAP_IN = 0.25;
const HITS_TO_DESTROY = 3;
/** Contacts closer than this (in) along one tape happen together; grazing counts. */
const TIE_IN = 1e-9;
/** Decimal places kept for coordinates and distances in events (events.py). */
const PLACES = 9;
/** The effect of a contact, by whether the sprinter and the target are ships. */
const EFFECTS = { "false,false": "missiles", "false,true": "missile-on-ship", "true,false": "ship-on-missile",
  "true,true": "collision" };

// -- numbers as the rules module computes them ----------------------------------------------

/** `value` to 9 decimals, never -0 (Python's round(value, 9) + 0.0). */
export function rounded(value) {
  return Number(value.toFixed(PLACES)) + 0;
}

const roundedPoint = ([x, y]) => [rounded(x), rounded(y)];

/** Cosine and sine of `deg`, exact at multiples of 90 (lasers/geometry.py `_cos_sin`). */
function cosSin(deg) {
  const quarter = deg / 90;
  if (quarter === Math.trunc(quarter)) return [[1, 0], [0, 1], [-1, 0], [0, -1]][((quarter % 4) + 4) % 4];
  const rad = deg * (Math.PI / 180); // as math.radians
  return [Math.cos(rad), Math.sin(rad)];
}

/** The unit vector along heading `deg`. */
function heading(deg) {
  const [c, s] = cosSin(deg);
  return [-s, c];
}

/** `deg` in (-180, 180] (pieces.py `normal_heading`). */
export function normalHeading(deg) {
  let angle = deg % 360;
  if (angle <= -180) angle += 360;
  else if (angle > 180) angle -= 360;
  return angle + 0;
}

const onTable = (x, y, [width, height]) => Math.abs(x) <= width / 2 && Math.abs(y) <= height / 2;

// -- pieces ---------------------------------------------------------------------------------

/** A piece as the rules hold it, from a turn file's or a match view's JSON. */
function pieceOf(raw) {
  const ship = raw.kind === "ship";
  const [width, length] = raw.size || (ship ? SHIP_SIZE_IN : MISSILE_SIZE_IN);
  return { id: raw.id, kind: raw.kind, owner: raw.owner, x: raw.x, y: raw.y, heading: normalHeading(raw.heading),
    width, length, hits: raw.hits ?? 0, missiles: ship ? raw.missiles ?? DEFAULT_MISSILES : 0,
    launched: ship ? raw.launched ?? 0 : 0, normalSpace: false, onTable: raw.on_table !== false };
}

const ahead = (piece, distance) => {
  const [dx, dy] = heading(piece.heading);
  return [piece.x + dx * distance, piece.y + dy * distance];
};
const noseOf = (piece) => ahead(piece, piece.length / 2);
const isShip = (piece) => piece.kind === "ship";

/**
 * Where the tape from `start` toward `headingDeg`, `length` in long, first touches the
 * closed footprint of `piece` (grown by TIE_IN): [distance along the tape, point], or null.
 */
export function tapeContact(start, headingDeg, length, piece) {
  const [c, s] = cosSin(piece.heading);
  const [dx, dy] = [start[0] - piece.x, start[1] - piece.y];
  const [ox, oy] = [c * dx + s * dy, -s * dx + c * dy];
  const [vx, vy] = heading(headingDeg - piece.heading);
  let tIn = 0;
  let tOut = length;
  for (const [o, v, half] of [[ox, vx, piece.width / 2 + TIE_IN], [oy, vy, piece.length / 2 + TIE_IN]]) {
    if (v === 0) {
      if (!(-half <= o && o <= half)) return null;
      continue;
    }
    const [a, b] = [(-half - o) / v, (half - o) / v];
    tIn = Math.max(tIn, Math.min(a, b));
    tOut = Math.min(tOut, Math.max(a, b));
  }
  if (tIn > tOut) return null;
  const [hx, hy] = heading(headingDeg);
  return [tIn, [start[0] + hx * tIn, start[1] + hy * tIn]];
}

// -- the three passes ------------------------------------------------------------------------

function launch(board, orders, table, events) {
  for (const [id, order] of orders) {
    if (order.kind !== "L") continue;
    let ship = board.get(id);
    const name = `${ship.id}-m${ship.launched + 1}`;
    if (board.has(name)) {
      throw new Error(t("'{ship}' cannot launch ('L'): its missile would be named '{name}', which a piece already is", { ship: ship.id, name }));
    }
    const [x, y] = ahead(ship, ship.length / 2 + LAUNCH_GAP_IN + MISSILE_SIZE_IN[1] / 2);
    const missile = { id: name, kind: "missile", owner: ship.owner, x, y, heading: ship.heading,
      width: MISSILE_SIZE_IN[0], length: MISSILE_SIZE_IN[1], hits: 0, missiles: 0, launched: 0, normalSpace: true, onTable: true };
    ship = { ...ship, missiles: ship.missiles - 1, launched: ship.launched + 1, normalSpace: true };
    board.set(ship.id, ship);
    events.push({ type: "launch", ship: ship.id, missile: name, post: roundedPoint([x, y]), heading: rounded(ship.heading),
      missiles_left: ship.missiles });
    if (onTable(x, y, table)) {
      board.set(name, missile);
    } else { // the table has no room for it ahead of the ship
      board.set(name, { ...missile, normalSpace: false, onTable: false });
      events.push({ type: "off-table", piece: name, post: roundedPoint([x, y]) });
    }
  }
}

function rotate(board, orders, events) {
  for (const [id, order] of orders) {
    if (order.kind !== "R") continue;
    const piece = board.get(id);
    // Clockwise (as written, positive) turns the heading the negative way.
    const turned = { ...piece, heading: normalHeading(piece.heading - order.angle), normalSpace: true };
    board.set(id, turned);
    events.push({ type: "rotate", piece: id, angle_deg: order.angle, heading: rounded(turned.heading) });
  }
}

/** Follow one tape near to far through the snapshot until its piece is removed. */
function trace(mover, length, snapshot) {
  const found = [];
  snapshot.forEach((target, index) => {
    const contact = tapeContact(noseOf(mover), mover.heading, length, target);
    if (contact !== null) found.push([contact[0], index, contact[1], target]);
  });
  found.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const tape = { piece: mover, length, contacts: [], reach: length, stopped: false };
  let hits = mover.hits;
  let i = 0;
  while (i < found.length && !tape.stopped) {
    const nearest = found[i][0];
    while (i < found.length && found[i][0] - nearest <= TIE_IN) {
      const [distance, , point, target] = found[i];
      tape.contacts.push([distance, point, target]);
      const effect = EFFECTS[`${isShip(mover)},${isShip(target)}`];
      if (effect === "ship-on-missile") hits += 1;
      if (effect !== "ship-on-missile" || hits >= HITS_TO_DESTROY) tape.stopped = true;
      i += 1;
    }
    if (tape.stopped) tape.reach = nearest;
  }
  return tape;
}

function sprint(board, orders, table, events) {
  const snapshot = [...board.values()].filter((p) => p.onTable && p.normalSpace);
  const tapes = orders.filter(([, order]) => order.kind === "S").map(([id, order]) => trace(board.get(id), order.distance, snapshot));
  const hits = new Map();
  const removed = new Map();
  const remove = (id, reason) => removed.has(id) || removed.set(id, reason);
  for (const tape of tapes) {
    const mover = tape.piece;
    events.push({ type: "tape", piece: mover.id, length: tape.length, start: roundedPoint(noseOf(mover)),
      end: roundedPoint(ahead(mover, mover.length / 2 + tape.reach)), reach: rounded(tape.reach), stopped: tape.stopped });
    for (const [distance, point, target] of tape.contacts) {
      const effect = EFFECTS[`${isShip(mover)},${isShip(target)}`];
      events.push({ type: "contact", piece: mover.id, target: target.id, distance: rounded(distance), point: roundedPoint(point), effect });
      const ship = { "missile-on-ship": target.id, "ship-on-missile": mover.id }[effect];
      if (ship !== undefined) {
        hits.set(ship, (hits.get(ship) || 0) + 1);
        remove(ship === target.id ? mover.id : target.id, "contact");
      } else {
        const reason = effect === "collision" ? "collision" : "contact";
        remove(mover.id, reason);
        remove(target.id, reason);
      }
    }
  }
  // Every tape's hits and removals at once, in the order the pieces stand.
  for (const [id, piece] of board) {
    if (!hits.has(id)) continue;
    const total = piece.hits + hits.get(id);
    board.set(id, { ...piece, hits: total });
    events.push({ type: "hit", ship: id, count: hits.get(id), hits: total });
    if (total >= HITS_TO_DESTROY) remove(id, "hits");
  }
  for (const [id, piece] of board) {
    if (!removed.has(id)) continue;
    board.set(id, { ...piece, onTable: false });
    events.push({ type: "removed", piece: id, reason: removed.get(id) });
  }
  for (const tape of tapes) {
    const piece = board.get(tape.piece.id);
    if (!piece.onTable) continue;
    const [x, y] = ahead(piece, tape.length);
    board.set(piece.id, { ...piece, x, y });
    events.push({ type: "move", piece: piece.id, start: roundedPoint(ahead(tape.piece, 0)), end: roundedPoint([x, y]) });
    if (!onTable(x, y, table)) {
      board.set(piece.id, { ...piece, x, y, onTable: false });
      events.push({ type: "off-table", piece: piece.id, post: roundedPoint([x, y]) });
    }
  }
}

/** The end phase: {winner, reason} once at most one of `players` has a ship, else null. */
function endPhase(players, pieces) {
  const standing = new Set(pieces.filter((p) => isShip(p) && p.onTable).map((p) => p.owner));
  const left = players.filter((player) => standing.has(player));
  if (left.length > 1) return null;
  return left.length ? { type: "end", winner: left[0], reason: "last-ship" } : { type: "end", winner: null, reason: "no-ships" };
}

/**
 * Resolve one turn as the referee resolves a turn file (`spacetable resolve --json`):
 * `turn` is {players, table: {width, height} (default 48 x 48), pieces (as a turn file or a
 * match view lists them; those with on_table false pass through), orders: [{piece, order}]
 * (order as text, or already read: {kind, angle | distance}); a piece's second order is
 * ignored}. Returns {ruleset, pieces: {id: {kind, owner, x, y, heading, hits, on_table,
 * missiles, launched}}, over, winner, events}. Throws an Error naming the order a piece
 * cannot carry out (a missile told to launch, no missiles left, a name already taken) or an
 * order text that is no order.
 */
export function resolveTurn({ players, table = { width: 48, height: 48 }, pieces, orders = [] }) {
  const size = [Number(table.width), Number(table.height)];
  const board = new Map();
  for (const raw of pieces) {
    const piece = pieceOf(raw);
    board.set(piece.id, piece);
  }
  const chosen = new Map();
  const events = [];
  for (const { piece, order } of orders) {
    const text = typeof order === "string" ? order : null;
    if (chosen.has(piece)) {
      events.push({ type: "ignored", piece, order: text ?? orderString(order) });
      continue;
    }
    chosen.set(piece, text === null ? order : parseOrder(text));
  }
  for (const [id, order] of chosen) {
    const piece = board.get(id);
    if (!piece || !piece.onTable) throw new Error(t("'{order}' is given to '{piece}', which is not on the table", { order: orderString(order), piece: id }));
    if (order.kind === "L" && !isShip(piece)) throw new Error(t("'{piece}' cannot launch ('L'): only ships launch missiles", { piece: id }));
    if (order.kind === "L" && piece.missiles <= 0) throw new Error(t("'{piece}' cannot launch ('L'): it has no missiles left", { piece: id }));
  }
  const list = [...chosen];
  for (const piece of board.values()) if (piece.onTable) piece.normalSpace = false;
  launch(board, list, size, events);
  rotate(board, list, events);
  sprint(board, list, size, events);
  const after = [...board.values()];
  const over = endPhase(players, after);
  if (over) events.push(over);
  const out = {};
  for (const p of after) {
    out[p.id] = { kind: p.kind, owner: p.owner, x: rounded(p.x), y: rounded(p.y), heading: rounded(p.heading), hits: p.hits,
      on_table: p.onTable, ...(isShip(p) ? { missiles: p.missiles, launched: p.launched } : {}) };
  }
  return { ruleset: "ftl", pieces: out, over: over !== null, winner: over ? over.winner : null, events };
}

/** An order as the rules write it: "R+45", "R-45", "S2.5", "L". */
function orderString(order) {
  if (order.kind === "L") return "L";
  if (order.kind === "S") return `S${order.distance}`;
  return `R${order.angle < 0 ? "-" : "+"}${Math.abs(order.angle)}`;
}
