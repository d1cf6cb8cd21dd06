// Faster Than Light's orders in the browser, as the rulebook writes them (DESIGN section 5):
// reading and printing them, where an order leaves a piece, and what a sprint's tape would
// cross. Pure: the plotter (plotter.js) draws and explains what these compute. Lengths are
// inches on the table (+y up), headings degrees (0 = +y, counter-clockwise positive).

import { cosSin, normAngle } from "../../shell/angles.js";
import { PIECE_SIZE, direction as heading, sizeOf } from "./board.js";
import { t } from "../../shell/i18n.js";
import { ownerName, shownId } from "./turns.js";

export const ROTATION_STEP_DEG = 15;
export const SPRINT_MIN_IN = 1;
export const SPRINT_MAX_IN = 8;
export const SPRINT_STEP_IN = 0.5;
/** The gap between a launching ship's nose and its new missile's rear edge (in). */
export const LAUNCH_GAP_IN = 0.25;
/** The longest order, in characters once its spaces are dropped (as the server reads). */
export const MAX_ORDER_CHARS = 32;
/** The longest text read as an order at all, spaces and all. */
export const MAX_ORDER_TEXT_CHARS = 256;
/** Touches closer than this (in) count, as in the engine. */
const TIE_IN = 1e-9;

// -- orders ---------------------------------------------------------------------------------

/** Read as a minus: the hyphens, the figure dash, the en dash the rulebook prints, the em
 * dash and the minus sign U+2212 (NFKC makes the full-width and small hyphen-minus plain). */
const MINUS_SIGNS = /[\u2010-\u2014\u2212]/g;

/** A text as orders are read, as the server does (`as_read` in `games/ftl/orders.py`):
 * NFKC-normalised, without spaces, every minus sign a hyphen, in capitals. */
export function asRead(text) {
  return String(text).normalize("NFKC").replace(/\s+/g, "").replace(MINUS_SIGNS, "-").toUpperCase();
}

/** `text` quoted and cut to about MAX_ORDER_CHARS characters, as the server shows it. */
function clipped(text) {
  const shown = `'${text}'`;
  return shown.length <= MAX_ORDER_CHARS ? shown : `${shown.slice(0, MAX_ORDER_CHARS - 3)}...`;
}

/**
 * Read one order as the rulebook writes it, exactly as the server does
 * (`games/ftl/orders.py`), as forgivingly as a person types it: `R+45`, `r -45`, `R−45`
 * (minus sign) or `R–45` (en dash), `R75`, `S2.5`, `s３`, `L` (case, spaces, any minus and
 * full-width digits, see `asRead`); at most MAX_ORDER_CHARS characters once its spaces are
 * dropped, and MAX_ORDER_TEXT_CHARS with them. Returns `{kind: "R", angle}` (clockwise positive),
 * `{kind: "S", distance}` (in) or `{kind: "L"}`; throws an Error whose message is the
 * server's: `'R+10': a rotation is a multiple of 15 degrees from -180 to +180`.
 * tests/golden/ftl-order-texts.json holds both readers to one table.
 */
export function parseOrder(text) {
  const raw = String(text);
  if (raw.length > MAX_ORDER_TEXT_CHARS) {
    throw new Error(t("{text} is not an order: an order's text is at most {most} characters", { text: clipped(raw), most: MAX_ORDER_TEXT_CHARS }));
  }
  const written = raw.trim();
  const upper = asRead(written);
  if (upper.length > MAX_ORDER_CHARS) {
    throw new Error(t("{text} is not an order: an order is at most {most} characters without its spaces", { text: clipped(written), most: MAX_ORDER_CHARS }));
  }
  if (upper === "L") return { kind: "L" };
  let m = /^R([+-]?)([0-9]+)$/.exec(upper);
  if (m) {
    const angle = Number(m[2]);
    if (angle % ROTATION_STEP_DEG || angle > 180) {
      throw new Error(t("'{order}': a rotation is a multiple of {step} degrees from -180 to +180", { order: written, step: ROTATION_STEP_DEG }));
    }
    return { kind: "R", angle: m[1] === "-" ? -angle : angle };
  }
  m = /^S([0-9]+(?:\.[0-9]+)?)$/.exec(upper);
  if (m) {
    const distance = Number(m[1]);
    if (distance < SPRINT_MIN_IN || distance > SPRINT_MAX_IN || (distance * 2) % 1) {
      throw new Error(t("'{order}': a sprint is {least} to {most} inches in steps of half an inch", { order: written, least: SPRINT_MIN_IN, most: SPRINT_MAX_IN }));
    }
    return { kind: "S", distance };
  }
  throw new Error(t("'{order}' is not an order (R and an angle, S and a distance, or L)", { order: written }));
}

/** An order as the rulebook prints it (`R+45`, `R–45` with an en dash, `S2.5`, `L`); with
 * `plain`, as the server reads it (a hyphen for the minus). */
export function orderText(order, plain = false) {
  if (order.kind === "L") return "L";
  if (order.kind === "S") return `S${order.distance}`;
  const sign = order.angle < 0 ? (plain ? "-" : "\u2013") : order.angle ? "+" : "";
  return `R${sign}${Math.abs(order.angle)}`;
}

/** What an order does, in words: "turn 45° clockwise", "sprint 2.5 in", "launch a missile". */
export function orderWords(order) {
  if (order.kind === "L") return t("launch a missile");
  if (order.kind === "S") return t("sprint {distance} in", { distance: order.distance });
  if (!order.angle) return t("stay in normal space without turning");
  const angle = Math.abs(order.angle);
  return order.angle > 0 ? t("turn {angle}° clockwise", { angle }) : t("turn {angle}° counter-clockwise", { angle });
}

/** How a player reads a piece's name: "your ship", "your missile red-m2", "blue's ship". */
export function pieceName(piece, me) {
  const id = shownId(piece.id, piece.owner);
  if (piece.owner === me) return piece.kind === "ship" ? t("your ship") : t("your missile {id}", { id });
  const owner = ownerName(piece.owner);
  return piece.kind === "ship" ? t("{owner}'s ship", { owner }) : t("{owner}'s missile {id}", { owner, id });
}

// -- geometry (inches, +y up, heading 0 = +y, counter-clockwise positive) ------------------

/** The point `distance` in ahead of `piece`'s post along its heading. */
function ahead(piece, distance) {
  const [dx, dy] = heading(piece.heading);
  return [piece.x + dx * distance, piece.y + dy * distance];
}

/** The middle of the piece's front edge: where its tape starts. */
export function noseOf(piece) {
  return ahead(piece, sizeOf(piece)[1] / 2);
}

/** Where a ship's next missile appears if it launches: a missile piece. */
export function launchedMissile(ship) {
  const [x, y] = ahead(ship, sizeOf(ship)[1] / 2 + LAUNCH_GAP_IN + PIECE_SIZE.missile[1] / 2);
  return { id: `${ship.id}-m${(ship.launched || 0) + 1}`, kind: "missile", owner: ship.owner, x, y,
    heading: ship.heading, size: PIECE_SIZE.missile, on_table: true };
}

/** The piece as it stands after `order` (a launch leaves the ship where it is). */
export function afterOrder(piece, order) {
  if (order?.kind === "R") return { ...piece, heading: normAngle(piece.heading - order.angle) };
  if (order?.kind === "S") {
    const [x, y] = ahead(piece, order.distance);
    return { ...piece, x, y };
  }
  return piece;
}

/**
 * How far along a tape from `start` toward `headingDeg`, `length` in long, it first touches
 * `piece`'s closed footprint (grazing counts), or null: the engine's test.
 */
export function tapeContact(start, headingDeg, length, piece) {
  const [w, l] = sizeOf(piece);
  const [c, s] = cosSin(piece.heading);
  const dx = start[0] - piece.x;
  const dy = start[1] - piece.y;
  const origin = [c * dx + s * dy, -s * dx + c * dy];
  const v = heading(headingDeg - piece.heading);
  let tIn = 0;
  let tOut = length;
  for (const [o, d, half] of [[origin[0], v[0], w / 2 + TIE_IN], [origin[1], v[1], l / 2 + TIE_IN]]) {
    if (Math.abs(d) < 1e-12) {
      if (o < -half || o > half) return null;
      continue;
    }
    const a = (-half - o) / d;
    const b = (half - o) / d;
    tIn = Math.max(tIn, Math.min(a, b));
    tOut = Math.min(tOut, Math.max(a, b));
  }
  return tIn > tOut ? null : tIn;
}

/**
 * What the tapes of `orders` (piece id -> order) would cross, near to far for each tape:
 * `[{piece, target, distance, sure}]`. Tapes only hit pieces in normal space, so `sure`
 * targets are your own pieces that launch or turn this turn (and their new missiles);
 * the others' pieces are listed as `sure: false`: they are hit only if their owner turns or
 * launches them (their orders are secret), and a turned piece's outline moves too.
 */
export function tapeCrossings(pieces, me, orders) {
  const mine = pieces.filter((p) => p.owner === me);
  const targets = [];
  for (const p of mine) {
    const order = orders[p.id];
    if (order?.kind === "R") targets.push({ piece: afterOrder(p, order), sure: true });
    if (order?.kind === "L") targets.push({ piece: p, sure: true }, { piece: launchedMissile(p), sure: true });
  }
  for (const p of pieces.filter((q) => q.owner !== me)) {
    targets.push({ piece: p, sure: false });
    if (p.kind === "ship" && (p.missiles ?? 0) > 0) targets.push({ piece: launchedMissile(p), sure: false, launch: true });
  }
  const found = [];
  for (const p of mine) {
    const order = orders[p.id];
    if (order?.kind !== "S") continue;
    const hits = [];
    for (const t of targets) {
      const distance = tapeContact(noseOf(p), p.heading, order.distance, t.piece);
      if (distance !== null) hits.push({ piece: p.id, target: t.piece, distance, sure: t.sure, launch: Boolean(t.launch) });
    }
    found.push(...hits.sort((a, b) => a.distance - b.distance));
  }
  return found;
}
