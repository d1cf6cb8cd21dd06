// "What if" in the FTL room: while plotting, a player poses the orders he expects from the
// others on their pieces (typed, or with the same ring and arrow as his own) and sees both
// sides' tapes and the outcome against them: the contacts, the hits, the pieces out, the
// end if it comes, and who then has whom in line for the next turn. The turn is resolved
// here in the browser by the referee's port (resolution.js), with the player's own plot as
// it stands. Nothing of it is ever sent: the posed orders live in this module and are
// dropped when the turn plays out.
//
// Drawn in its own board layer ("whatif"), dashed and in violet, with a banner over the
// board, so that it is never mistaken for real orders.

import { clear, el, svg } from "../../shell/dom.js";
import { direction, fmt, sizeOf } from "./board.js";
import { Plotter } from "./plotter.js";
import { pickPieces } from "./picking.js";
import { afterOrder, launchedMissile, noseOf, orderText, pieceName as yourName } from "./orders.js";
import { resolveTurn, tapeContact } from "./resolution.js";
import { describeEvent, inches, namesFor, pieceName } from "./turns.js";
import { playerName, t } from "../../shell/i18n.js";

/** A sprint reaches this far (in): a piece in line within it can be hit next turn. */
const REACH_IN = 8;
/** The outcome's events told, in the order the referee gives them. */
const TOLD = new Set(["launch", "contact", "hit", "removed", "off-table", "end"]);

/** The page's words for the what-if, in one place. */
const WORDS = {
  toggleOn: () => t("What if…"),
  toggleOff: () => t("Close what if"),
  toggleTitle: () => t("Pose the orders you expect from the others and see what would happen. Nothing is sent."),
  title: () => t("What if"),
  intro: (others) => t("Orders you imagine for {others}: drag the violet ring and arrow on their pieces or type them. Nothing here is sent; your own plot is used as it stands.", { others }),
  banner: () => t("What if: imagined orders, never sent"),
  outcome: () => t("Against these orders"),
  quiet: () => t("No tape meets anything: nobody is hit."),
  inLine: () => t("Then, for the next turn"),
  nobodyInLine: () => t("Nobody has an enemy piece straight ahead within {reach} in.", { reach: REACH_IN }),
  inLineLine: (a, b, d) => t("{piece} has {target} in line, {distance} in ahead: a sprint could hit it if it turns or launches.",
    { piece: a, target: b, distance: d }),
  refused: (why) => t("These orders cannot be resolved: {why}", { why }),
  out: (piece) => t("{piece}: out", { piece }),
};

/** Your plotter's ring and arrow, on the others' pieces: their orders posed, never sent. */
class PosePlotter extends Plotter {
  constructor(board, panel, options) {
    super(board, panel, options);
    const layer = board.layer("whatif");
    this.ghosts.classList.add("whatif-ghosts");
    this.handles.classList.add("whatif-handles");
    layer.append(this.ghosts, this.handles);
  }

  /** The others' pieces on the table, ships first: those whose orders are posed. */
  mine() {
    return this.pieces.filter((p) => p.owner !== this.me)
      .sort((a, b) => (a.kind === "ship" ? -1 : 0) - (b.kind === "ship" ? -1 : 0));
  }

  /** The posed orders: their ghosts and tapes, dashed, in the owner's colour. */
  drawGhosts() {
    const g = clear(this.ghosts);
    for (const piece of this.mine()) {
      const order = this.orders[piece.id];
      if (!order) continue;
      if (order.kind === "S") {
        const start = noseOf(piece);
        const end = noseOf(afterOrder(piece, order));
        g.append(svg("line", { class: "whatif-tape", x1: fmt(start[0]), y1: fmt(-start[1]), x2: fmt(end[0]), y2: fmt(-end[1]),
          dataset: { piece: piece.id } }));
      }
      const after = order.kind === "L" ? launchedMissile(piece) : afterOrder(piece, order);
      const ghost = this.board.pieceShape(after, this.colourOf(piece.owner));
      ghost.classList.add("plot-ghost", "whatif-ghost");
      ghost.dataset.ghostOf = piece.id;
      g.append(ghost);
      const reach = sizeOf(after)[1] / 2 + this.board.px(16);
      const [dx, dy] = direction(after.heading);
      const [ax, ay] = [after.x + dx * reach, after.y + dy * reach];
      g.append(svg("text", { class: "plot-label whatif-label", x: fmt(ax), y: fmt(-ay), "font-size": fmt(this.board.px(13)),
        "text-anchor": "middle", "dominant-baseline": "middle", text: `if ${orderText(order)}` }));
    }
  }
}

export class WhatIf {
  /**
   * The what-if of an FTL room: `board` (FtlBoard), `plotter` (the player's own),
   * `colourOf(player)`, and `wrap` (the board's container, for the banner). `toggle` (a
   * button) and `panel` (a section) join the page where the room puts them.
   */
  constructor({ board, plotter, colourOf, wrap }) {
    this.board = board;
    this.plotter = plotter;
    this.on = false;
    this.state = null;
    this.me = null;
    this.toggle = el("button", { type: "button", id: "what-if", class: "secondary", "aria-pressed": "false",
      "aria-controls": "what-if-panel", title: WORDS.toggleTitle(), text: WORDS.toggleOn(), on: { click: () => this.setOn(!this.on) } });
    const rows = el("div", { id: "what-if-pieces" });
    this.intro = el("p", { class: "plot-help" });
    this.outcome = el("ul", { class: "whatif-outcome", id: "what-if-outcome", "aria-live": "polite" });
    this.inLine = el("ul", { class: "whatif-in-line", id: "what-if-in-line" });
    this.panel = el("section", { id: "what-if-panel", class: "panel whatif-panel", hidden: true },
      el("h2", { text: WORDS.title() }), this.intro, rows,
      el("h3", { text: WORDS.outcome() }), this.outcome, el("h3", { text: WORDS.inLine() }), this.inLine);
    this.banner = el("p", { class: "whatif-banner", id: "what-if-banner", hidden: true, text: WORDS.banner() });
    wrap.append(this.banner);
    this.marks = board.layer("whatif").appendChild(svg("g", { class: "whatif-marks" }));
    this.pose = new PosePlotter(board, rows, { colourOf, onChange: () => this.update() });
    // A click on another's piece picks it for posing, as a click on yours picks it to plot.
    pickPieces(board, { allowed: (p) => this.on && this.pose.mine().some((m) => m.id === p.id),
      onPick: (id) => this.pose.select(id) });
  }

  /** A new state of the match (`me` plotting, or not): the toggle shows while plotting; a
   * new turn drops what was posed. */
  show(state, me, plotting) {
    const newTurn = this.state?.turn !== state.turn;
    this.state = state;
    this.me = me;
    this.toggle.hidden = !plotting;
    if (!plotting || newTurn) this.setOn(false);
    else if (this.on) this.update();
  }

  /** Open or close the what-if. Closing forgets the posed orders. */
  setOn(on) {
    this.on = Boolean(on && this.state && this.me);
    document.body.dataset.whatif = this.on ? "on" : "";
    this.toggle.setAttribute("aria-pressed", String(this.on));
    this.toggle.textContent = this.on ? WORDS.toggleOff() : WORDS.toggleOn();
    this.panel.hidden = !this.on;
    this.banner.hidden = !this.on;
    this.board.layer("whatif").toggleAttribute("hidden", !this.on);
    if (!this.on) {
      this.pose.turn = null; // the next opening starts from no orders
      this.pose.pieces = [];
      this.pose.render();
      clear(this.marks);
      return;
    }
    this.pose.show({ pieces: this.state.pieces, turn: this.state.turn, plot: [] }, this.me, true);
    const others = Object.keys(this.state.players).filter((p) => p !== this.me);
    this.intro.textContent = WORDS.intro(others.map((p) => playerName(p)).join(", "));
    this.update();
    this.panel.scrollIntoView({ block: "nearest" });
  }

  /** Everyone's orders in seat order, as the server gathers them: yours, then the posed. */
  orders() {
    const all = [];
    for (const player of Object.keys(this.state.players)) {
      const source = player === this.me ? this.plotter : this.pose;
      for (const piece of source.mine().filter((p) => p.owner === player)) {
        if (source.orders[piece.id]) all.push({ piece: piece.id, order: source.orders[piece.id] });
      }
    }
    return all;
  }

  /** Resolve the turn against the posed orders and tell and draw what it does. */
  update() {
    if (!this.on) return;
    clear(this.outcome);
    clear(this.inLine);
    clear(this.marks);
    const pieces = this.state.pieces;
    const [width, height] = this.state.table_size_in || [48, 48];
    let result;
    try {
      result = resolveTurn({ players: Object.keys(this.state.players), table: { width, height }, pieces, orders: this.orders() });
    } catch (error) {
      this.outcome.append(el("li", { class: "refused", text: WORDS.refused(error.message) }));
      return;
    }
    const names = namesFor(pieces, result.events);
    const told = result.events.filter((e) => TOLD.has(e.type));
    for (const event of told) {
      this.outcome.append(el("li", { class: `whatif-${event.type}`, dataset: { type: event.type, piece: event.piece ?? event.ship ?? "" },
        text: describeEvent(event, names, this.board.frame) }));
    }
    if (!told.some((e) => e.type !== "launch")) this.outcome.append(el("li", { class: "quiet", text: WORDS.quiet() }));
    this.drawOutcome(result, names);
    this.tellInLine(result);
  }

  /** On the board: a star where a tape meets a piece, a cross on each piece put out. */
  drawOutcome(result, names) {
    const r = this.board.px(9);
    for (const event of result.events) {
      if (event.type === "contact") {
        const [x, y] = event.point;
        this.marks.append(svg("circle", { class: "whatif-contact", cx: fmt(x), cy: fmt(-y), r: fmt(r), dataset: { piece: event.piece, target: event.target } }));
      }
      if (event.type === "removed" || event.type === "off-table") {
        // Where it goes out: off the table, at the end of its stopped tape, or where it stands.
        const piece = result.pieces[event.piece];
        const tape = result.events.find((e) => e.type === "tape" && e.piece === event.piece && e.stopped);
        const [x, y] = event.type === "off-table" ? event.post : tape ? tape.end : [piece.x, piece.y];
        const cross = svg("g", { class: "whatif-out", dataset: { piece: event.piece } });
        cross.append(svg("line", { x1: fmt(x - r), y1: fmt(-y - r), x2: fmt(x + r), y2: fmt(-y + r) }),
          svg("line", { x1: fmt(x - r), y1: fmt(-y + r), x2: fmt(x + r), y2: fmt(-y - r) }),
          svg("title", { text: WORDS.out(pieceName(names.get(event.piece))) }));
        this.marks.append(cross);
      }
    }
  }

  /** After the turn: every piece that has an enemy piece straight ahead within reach. */
  tellInLine(result) {
    const standing = Object.entries(result.pieces).filter(([, p]) => p.on_table)
      .map(([id, p]) => ({ id, ...p, size: this.sizeOf(id, p) }));
    const found = [];
    for (const piece of standing) {
      const rules = (p) => ({ ...p, width: p.size[0], length: p.size[1] });
      const start = noseOf(piece);
      for (const other of standing.filter((o) => o.owner !== piece.owner)) {
        const contact = tapeContact(start, piece.heading, REACH_IN, rules(other));
        if (contact) found.push({ piece, other, distance: contact[0] });
      }
    }
    found.sort((a, b) => a.distance - b.distance);
    for (const { piece, other, distance } of found) {
      this.inLine.append(el("li", { dataset: { piece: piece.id, target: other.id },
        class: other.owner === this.me ? "threat" : "chance",
        text: WORDS.inLineLine(capital(yourName(piece, this.me)), yourName(other, this.me), inches(distance)) }));
    }
    if (!found.length) this.inLine.append(el("li", { class: "quiet", text: WORDS.nobodyInLine() }));
  }

  /** A piece's footprint: as the match lists it, or a new missile's. */
  sizeOf(id, piece) {
    const known = this.state.pieces.find((p) => p.id === id);
    return known ? sizeOf(known) : sizeOf({ kind: piece.kind });
  }
}

const capital = (text) => text[0].toUpperCase() + text.slice(1);
