// Faster Than Light turns as data (pure): the pieces a turn's events leave behind, a match's
// flat event log cut into turns, the orders each player revealed, and each event told in one
// line for the account (in the page's language: shell/i18n.js).

import { num, playerName, t, tn } from "../../shell/i18n.js";

/** Events a turn's log never holds: they only say that a player plotted or took it back. */
const PLOT_NOTICES = new Set(["plotted", "unplotted"]);

/** A deep enough copy of a piece (its `size` list included). */
function copyPiece(piece) {
  return { ...piece, ...(piece.size ? { size: [...piece.size] } : {}) };
}

/**
 * The pieces after a turn: `pieces` (a list, not changed) as the turn began, with `events`
 * applied in order. A launch adds its missile (after the others) and counts it on the ship,
 * a rotation sets the heading, a move the post, a hit the ship's hits; a removal or a post
 * off the table sets `on_table` false. Other events change nothing.
 */
export function applyTurn(pieces, events) {
  const after = pieces.map(copyPiece);
  const byId = new Map(after.map((p) => [p.id, p]));
  for (const event of events) {
    const piece = byId.get(event.piece ?? event.ship);
    switch (event.type) {
      case "launch": {
        const ship = byId.get(event.ship);
        if (ship) {
          ship.missiles = event.missiles_left;
          ship.launched = (ship.launched || 0) + 1;
        }
        const missile = {
          id: event.missile, kind: "missile", owner: ship ? ship.owner : "", x: event.post[0],
          y: event.post[1], heading: event.heading, hits: 0, on_table: true,
        };
        if (byId.has(event.missile)) {
          Object.assign(byId.get(event.missile), missile);
        } else {
          after.push(missile);
          byId.set(event.missile, missile);
        }
        break;
      }
      case "rotate":
        if (piece) piece.heading = event.heading;
        break;
      case "move":
        if (piece) [piece.x, piece.y] = event.end;
        break;
      case "hit":
        if (piece) piece.hits = event.hits;
        break;
      case "removed":
        if (piece) piece.on_table = false;
        break;
      case "off-table":
        if (piece) {
          [piece.x, piece.y] = event.post;
          piece.on_table = false;
        }
        break;
      default:
        break;
    }
  }
  return after;
}

/**
 * A match's flat event log cut into turns: [{turn, events}] in order, each turn's events
 * without its `turn` marker and without plotted / unplotted notices. Events before the
 * first marker (a log without markers: one turn file) make turn 1.
 */
export function splitTurns(flatEvents) {
  const turns = [];
  let current = null;
  for (const event of flatEvents || []) {
    if (PLOT_NOTICES.has(event.type)) continue;
    if (event.type === "turn") {
      current = { turn: event.turn, events: [] };
      turns.push(current);
      continue;
    }
    if (!current) {
      current = { turn: 1, events: [] };
      turns.push(current);
    }
    current.events.push(event);
  }
  return turns;
}

/**
 * What each player revealed in a turn: [{player, orders: [{piece, order}]}] in the order the
 * `plot` events come (seat order). A `piece:order` entry is cut at its last colon.
 */
export function revealedOrders(events) {
  return events.filter((e) => e.type === "plot").map((e) => ({
    player: e.player,
    orders: (e.orders || []).map((entry) => {
      const cut = entry.lastIndexOf(":");
      return cut < 0 ? { piece: "", order: entry } : { piece: entry.slice(0, cut), order: entry.slice(cut + 1) };
    }),
  }));
}

/** The turn's end event ({winner, reason}), or null if the game went on. */
export function endOf(events) {
  return events.find((e) => e.type === "end") || null;
}

// -- the account ----------------------------------------------------------------------------

/** What a contact does, by its effect (`piece` the sprinter, `target` the piece it touches). */
const EFFECTS = {
  missiles: () => t("both missiles are removed"),
  "missile-on-ship": (piece, target) => t("the missile is spent and {target} takes a hit", { target }),
  "ship-on-missile": (piece) => t("the missile is removed and {piece} takes a hit", { piece }),
  collision: () => t("the ships collide: both are removed"),
};
/** Why a piece left the table. */
const REMOVALS = () => ({ contact: t("spent in the contact"), collision: t("destroyed in the collision"),
  hits: t("destroyed by its third hit") });

/** How a player's card says his ship is gone, the live room and the replay alike: "out:
 * off the table", "out: destroyed by its third hit"... from the events of `turns`
 * ([{events}]) that removed piece `id`; "out" when none of them did (a turn not seen). */
export function outWords(turns, id) {
  for (const { events } of turns) {
    for (const e of events) {
      if (e.piece !== id) continue;
      if (e.type === "off-table") return t("out: off the table");
      if (e.type === "removed") return t("out: {why}", { why: REMOVALS()[e.reason] || t("removed") });
    }
  }
  return t("out");
}

/** "1 missile", "9 missiles". */
export function missilesWords(count) {
  return tn("{n} missile", "{n} missiles", count);
}

/** A length or coordinate in inches as short text: 2 decimals at most. */
export function inches(value) {
  return num(Math.round(value * 100) / 100);
}

/**
 * A heading as players read it: a bearing in degrees clockwise from up (0 up, 90 right,
 * 180 down, 270 left), the sense R+ turns. Files and messages keep DESIGN section 5's
 * headings (0 up, counter-clockwise positive); only what is shown turns round. 0 to 359.99.
 */
export function bearing(heading) {
  const b = Math.round(((((-heading) % 360) + 360) % 360) * 100) / 100;
  return b >= 360 ? 0 : b || 0;
}

/** A heading shown to a player, everywhere (log, referee, history, tooltips): "105°" (bearing). */
export function headingText(heading) {
  return `${num(bearing(heading))}°`;
}

/** The table's own frame (board.js TABLE_FRAME): positions and headings as files hold them. */
const TABLE = { point: (x, y) => [x, y], heading: (heading) => heading };

/** The team colours turn files name their players by, in the page's language ("red" is
 * "rouge" in French, as the server's accounts say it); any other name as it is. */
export function ownerName(owner) {
  const colours = { red: t("red"), blue: t("blue"), green: t("green"), purple: t("purple"), yellow: t("yellow"),
    orange: t("orange") };
  return Object.hasOwn(colours, owner) ? colours[owner] : owner;
}

/** A piece's id as the page shows it: the part that is its owner's name written as
 * ownerName and playerName write it ("blue-m1" is "bleu-m1" in French, "easy bot-m1"
 * "bot facile-m1"), the rest as it is. The id itself never changes. */
export function shownId(id, owner) {
  const text = String(id);
  if (!owner || (text !== owner && !text.startsWith(`${owner}-`))) return text;
  return `${playerName(ownerName(owner))}${text.slice(String(owner).length)}`;
}

/** How the account names a piece: "red's ship", "red's ship scout", "blue's missile blue-m1". */
export function pieceName(piece) {
  if (!piece) return t("a piece");
  const owner = ownerName(piece.owner);
  const id = shownId(piece.id, piece.owner);
  if (piece.kind === "missile") return t("{owner}'s missile {id}", { owner, id });
  return piece.id === piece.owner ? t("{owner}'s ship", { owner }) : t("{owner}'s ship {id}", { owner, id });
}

/** The orders a `plot` event reveals, as the account lists them: "R+45, blue-m1 S3". */
function ordersShown(event) {
  const orders = revealedOrders([event])[0].orders.map((o) => (o.piece === event.player ? o.order : `${shownId(o.piece, event.player)} ${o.order}`));
  return orders.length ? orders.join(", ") : t("no orders");
}

/**
 * One line of the account for `event`; `pieces` maps ids to the pieces as they stood (a
 * launched missile must be in it: see accountOf). Positions and headings are told in
 * `frame` (board.js frameOf: the view's; the table's by default), in the page's language.
 */
export function describeEvent(event, pieces, frame = TABLE) {
  const name = (id) => (pieces.get(id) ? pieceName(pieces.get(id)) : id);
  const at = (point) => {
    const [x, y] = frame.point(point[0], point[1]);
    return t("({x}, {y})", { x: inches(x), y: inches(y) });
  };
  switch (event.type) {
    case "turn":
      return t("Turn {turn}.", { turn: event.turn });
    case "plot":
      return t("{player} wrote: {orders}.", { player: ownerName(event.player), orders: ordersShown(event) });
    case "ignored":
      return t("{piece}: the second order {order} is ignored.", { piece: name(event.piece), order: event.order });
    case "launch":
      return t("Launch: {ship} puts missile {missile} on the table at {at} ({n} left).",
        { ship: name(event.ship), missile: shownId(event.missile, pieces.get(event.ship)?.owner), at: at(event.post), n: event.missiles_left });
    case "rotate": {
      const params = { piece: name(event.piece), angle: Math.abs(event.angle_deg), heading: headingText(frame.heading(event.heading)) };
      return event.angle_deg >= 0 ? t("Rotation: {piece} turns {angle}° clockwise, now facing {heading}.", params)
        : t("Rotation: {piece} turns {angle}° counter-clockwise, now facing {heading}.", params);
    }
    case "tape": {
      const params = { piece: name(event.piece), length: inches(event.length), reach: inches(event.reach ?? 0) };
      return event.stopped ? t("Sprint: {piece} sprints {length} in, stopped at {reach} in.", params)
        : t("Sprint: {piece} sprints {length} in.", params);
    }
    case "contact":
      return t("At {distance} in, {piece} touches {target}: {effect}.", { distance: inches(event.distance),
        piece: name(event.piece), target: name(event.target),
        effect: EFFECTS[event.effect]?.(name(event.piece), name(event.target)) || event.effect });
    case "hit":
      return tn("{ship} takes {n} hit ({hits} of 3).", "{ship} takes {n} hits ({hits} of 3).", event.count,
        { ship: name(event.ship), hits: event.hits });
    case "removed":
      return t("{piece} is removed: {why}.", { piece: name(event.piece), why: REMOVALS()[event.reason] || event.reason });
    case "move":
      return t("{piece} jumps to {at}.", { piece: name(event.piece), at: at(event.end) });
    case "off-table":
      return t("{piece} ends off the table at {at} and is removed.", { piece: name(event.piece), at: at(event.post) });
    case "end":
      return endText(event, true);
    default:
      return `${event.type}.`;
  }
}

/** "red wins" / "Draw" (short), or the account's sentence (long). */
export function endText(end, long = false) {
  const player = ownerName(end.winner);
  if (!long) return end.winner ? t("{player} wins", { player }) : t("Draw");
  if (end.winner && end.reason === "turn-limit") {
    return t("Game over: the turn limit is reached; {player} wins on hits scored, then pieces left.", { player });
  }
  if (end.winner) return t("Game over: {player} wins, the last with a ship on the table.", { player });
  if (end.reason === "turn-limit") return t("Game over: the turn limit is reached, hits scored and pieces left even: a draw.");
  return t("Game over: no ship is left on the table, a draw.");
}

/** The pieces by id, with the missiles `events` launch (named by their ship's owner). */
export function namesFor(pieces, events) {
  const byId = new Map(pieces.map((p) => [p.id, p]));
  for (const e of events) {
    if (e.type === "launch") byId.set(e.missile, { id: e.missile, kind: "missile", owner: byId.get(e.ship)?.owner ?? "" });
  }
  return byId;
}
