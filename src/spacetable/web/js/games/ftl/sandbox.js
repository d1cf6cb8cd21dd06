// The turn file a referee is writing (pure): the players, the table, the pieces as they stand
// and the orders as written, in the file's order (DESIGN section 5). The referee page edits
// it; turnFile() is what goes to the server and to disk, and a loaded file comes back out as
// it went in.

import "./sheet.js";
import { nose } from "./board.js";
import { readOrders } from "./editor.js";

/** The table unless the file says otherwise (in). */
export const DEFAULT_TABLE = { width: 48, height: 48 };
/** Player names for new seats, in seat order. */
const NAMES = ["red", "blue", "green", "purple"];
/** Seat angles (degrees counter-clockwise from +x) and the distance from the centre, as matches start. */
const SEAT_ANGLES = { 2: [-90, 90], 3: [-90, 30, 150], 4: [-90, 90, 180, 0] };
const START_RADIUS = 0.375;

const clone = (value) => JSON.parse(JSON.stringify(value));
const round = (v) => Math.round(v * 1000) / 1000 + 0;

/** Ships at their seats' starting places facing the centre, as a match begins. */
export function startingPieces(players, table) {
  const r = START_RADIUS * Math.min(table.width, table.height);
  return players.map((player, i) => {
    const a = (SEAT_ANGLES[players.length][i] * Math.PI) / 180;
    const [x, y] = [round(Math.cos(a) * r), round(Math.sin(a) * r)];
    const heading = Math.round((Math.atan2(x, -y) * 180) / Math.PI) || 0;
    return { id: player, kind: "ship", owner: player, x, y, heading, hits: 0, missiles: 10, launched: 0 };
  });
}

export class Sandbox {
  /** Two players at their starting places on the default table. */
  constructor() {
    this.players = NAMES.slice(0, 2);
    this.table = { ...DEFAULT_TABLE };
    this.fileHasTable = false;
    this.pieces = startingPieces(this.players, this.table);
    this.orders = []; // [{piece, order}] in the file's order
  }

  /** The piece `id`, or null. */
  piece(id) {
    return this.pieces.find((p) => p.id === id) || null;
  }

  /** The table, pieces and orders as a turn file (a copy). */
  turnFile() {
    const file = { ruleset: "ftl", players: [...this.players] };
    const { width, height } = this.table;
    if (this.fileHasTable || width !== DEFAULT_TABLE.width || height !== DEFAULT_TABLE.height) file.table = { width, height };
    file.pieces = clone(this.pieces);
    file.orders = clone(this.orders);
    return file;
  }

  /** Take a turn file's contents (checked by the server before). */
  load(data) {
    this.players = data.players.map(String);
    this.fileHasTable = Boolean(data.table);
    this.table = data.table ? { width: Number(data.table.width), height: Number(data.table.height) } : { ...DEFAULT_TABLE };
    this.pieces = clone(data.pieces);
    this.orders = clone(data.orders || []);
  }

  /** The orders written for `id`, as one text ("" for none). */
  ordersText(id) {
    return this.orders.filter((o) => o.piece === id).map((o) => o.order).join(" ");
  }

  /** Replace the orders of `id` with `orders` (texts), where its first one stood in the file. */
  setOrders(id, orders) {
    const at = this.orders.findIndex((o) => o.piece === id);
    const rest = this.orders.filter((o) => o.piece !== id);
    rest.splice(at < 0 ? rest.length : at, 0, ...orders.map((order) => ({ piece: id, order })));
    this.orders = rest;
  }

  /** What is wrong with the orders, one line per piece at fault (the server's words). */
  problems() {
    return this.pieces.map((p) => readOrders(p, this.ordersText(p.id)).problem).filter(Boolean);
  }

  /** Each player's orders as a match's `plot` events, for the account and the history. */
  plots() {
    const owners = new Map(this.pieces.map((p) => [p.id, p.owner]));
    return this.players.map((player) => ({ type: "plot", player,
      orders: this.orders.filter((o) => owners.get(o.piece) === player).map((o) => `${o.piece}:${o.order}`) }));
  }

  /** A place near (x, y) no piece is close to. */
  freeSpot(x, y) {
    for (let i = 0; i < 200; i += 1) {
      const p = { x: x + (i % 10) * 2, y: y - Math.floor(i / 10) * 2.5 };
      if (!this.pieces.some((o) => Math.hypot(o.x - p.x, o.y - p.y) < 1.6)) return p;
    }
    return { x, y };
  }

  /** A new ship for `owner` (named after him) near the centre; returns its id. */
  addShip(owner) {
    let id = owner;
    for (let n = 2; this.piece(id); n += 1) id = `${owner}-${n}`;
    const spot = this.freeSpot(0, 0);
    this.pieces.push({ id, kind: "ship", owner, x: spot.x, y: spot.y, heading: 0, hits: 0, missiles: 10, launched: 0 });
    return id;
  }

  /**
   * A new missile for `owner` just ahead of his ship, as if it had launched it (the ship's
   * `launched` and missiles left count it; it is named `<ship>-m<k>`); returns its id.
   */
  addMissile(owner) {
    const ship = this.pieces.find((p) => p.kind !== "missile" && p.owner === owner);
    let [prefix, k] = [ship ? ship.id : owner, ship ? (ship.launched || 0) + 1 : 1];
    while (this.piece(`${prefix}-m${k}`)) k += 1;
    const id = `${prefix}-m${k}`;
    let place = this.freeSpot(0, -3);
    if (ship) {
      Object.assign(ship, { launched: k, missiles: Math.max(0, (ship.missiles ?? 10) - 1) });
      const front = nose(ship);
      const [dx, dy] = [front.x - ship.x, front.y - ship.y];
      const half = Math.hypot(dx, dy) || 1;
      place = { x: round(front.x + (dx / half) * 0.5), y: round(front.y + (dy / half) * 0.5) };
    }
    this.pieces.push({ id, kind: "missile", owner, x: place.x, y: place.y, heading: ship?.heading ?? 0 });
    return id;
  }

  /** Take the piece `id` and its orders off. */
  remove(id) {
    this.pieces = this.pieces.filter((p) => p.id !== id);
    this.orders = this.orders.filter((o) => o.piece !== id);
  }

  /**
   * Rename player `index` to `name`: his pieces follow (his ship and `<name>-...` missiles
   * are renamed when the new id is free). Returns the renamed ids (old -> new), or null if
   * the name is empty or taken.
   */
  renamePlayer(index, name) {
    const old = this.players[index];
    if (!name || this.players.includes(name)) return null;
    this.players[index] = name;
    const ids = new Map();
    for (const piece of this.pieces.filter((p) => p.owner === old)) {
      piece.owner = name;
      const id = piece.id === old ? name : piece.id.startsWith(`${old}-`) ? name + piece.id.slice(old.length) : piece.id;
      if (id !== piece.id && !this.piece(id)) {
        ids.set(piece.id, id);
        piece.id = id;
      }
    }
    for (const order of this.orders) order.piece = ids.get(order.piece) || order.piece;
    return ids;
  }

  /** Seat `count` players: the last ones leave with their pieces, new ones get a ship at their seat. */
  setPlayerCount(count) {
    const players = this.players.slice(0, count);
    for (const name of NAMES) if (players.length < count && !players.includes(name)) players.push(name);
    const added = players.filter((p) => !this.players.includes(p));
    this.players = players;
    this.pieces = this.pieces.filter((p) => players.includes(p.owner));
    this.orders = this.orders.filter((o) => this.piece(o.piece));
    const seats = startingPieces(players, this.table);
    for (const player of added) this.pieces.push(seats[players.indexOf(player)]);
  }
}
