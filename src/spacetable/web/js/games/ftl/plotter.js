// Plotting your pieces' orders for this turn on the FTL board (DESIGN section 5): pick one
// of your pieces, drag the ring around it to turn (15 degree steps) or the arrow ahead of
// it to sprint (half inches from 1 to 8), press Launch, or type the order as the rulebook
// writes it. One order per piece: a new one replaces the old. Ghosts show where each piece
// will end and which pieces its tape would cross.

import "./sheet.js";
import { clear, el, followPointer, svg } from "../../shell/dom.js";
import { angleOf, normAngle } from "../../shell/angles.js";
import { direction as heading, fmt, sizeOf } from "./board.js";
import {
  ROTATION_STEP_DEG, SPRINT_MAX_IN, SPRINT_MIN_IN, SPRINT_STEP_IN, afterOrder, launchedMissile, noseOf, orderText,
  orderWords, parseOrder, pieceName, tapeCrossings,
} from "./orders.js";
import { ownerName } from "./turns.js";
import { num, t, tn } from "../../shell/i18n.js";

/** The ring's radius and the handles' finger-sized hit radius, in screen pixels. */
const RING_PX = 46;
const KNOB_PX = 22;

// -- the plotter ----------------------------------------------------------------------------

export class Plotter {
  /**
   * Plot on `board` (an FtlBoard) with the piece list and messages in `panel`.
   * `onChange()` is called whenever the plot changes.
   */
  constructor(board, panel, { onChange = () => {}, colourOf = () => "#8891a8" } = {}) {
    this.board = board;
    this.panel = panel;
    this.onChange = onChange;
    this.colourOf = colourOf;
    const layer = board.layer("plot");
    this.ghosts = layer.appendChild(svg("g", { class: "plot-ghosts" }));
    this.handles = layer.appendChild(svg("g", { class: "plot-handles" }));
    this.pieces = [];
    this.me = null;
    this.turn = null;
    this.orders = {}; // piece id -> order
    this.texts = {}; // piece id -> text typed that is not (yet) an order
    this.notes = {}; // piece id -> the last word about its order
    this.selected = null;
    this.editable = false;
    this.dragging = false;
    this.dragShown = null; // what the drag under way last drew (its piece, order and label)
    this.barLaunch = null; // the selected ship's Launch in a bar away from the panel (launchButton)
    this.rows = {};
    // Handles are sized in screen pixels: draw them again when the board changes size.
    this.resizer = new ResizeObserver(() => requestAnimationFrame(() => this.dragging || this.render()));
    this.resizer.observe(board.svg);
  }

  /**
   * A new state: the pieces of `view` (FtlMatch.view), played by `me`. `editable`: the
   * player may plot now (else the plot is shown locked). A new turn starts from the plot the
   * server holds for us (`view.plot`), or from nothing.
   */
  show(view, me, editable) {
    const newTurn = view.turn !== this.turn || me !== this.me;
    this.pieces = view.pieces.filter((p) => p.on_table !== false);
    this.me = me;
    this.editable = editable;
    if (newTurn) {
      this.turn = view.turn;
      this.orders = {};
      this.texts = {};
      this.notes = {};
      for (const entry of view.plot || []) {
        const cut = entry.lastIndexOf(":");
        try {
          this.orders[entry.slice(0, cut)] = parseOrder(entry.slice(cut + 1));
        } catch {
          // Never sent by us: the server only keeps plots it accepted.
        }
      }
      const mine = this.mine();
      this.selected = mine.some((p) => p.id === this.selected) ? this.selected : mine[0]?.id ?? null;
      this.buildPanel();
    }
    this.render();
  }

  /**
   * Give your pieces the orders of `plot` (["red:R+45", ...]: a draft kept before a reload),
   * as if written here: entries for pieces not yours, no order or an order a piece may not
   * carry out are left out. Returns whether any order was set.
   */
  restore(plot) {
    let set = false;
    for (const entry of plot || []) {
      const cut = String(entry).lastIndexOf(":");
      const piece = this.mine().find((p) => p.id === String(entry).slice(0, cut));
      let order = null;
      try {
        order = piece ? parseOrder(String(entry).slice(cut + 1)) : null;
      } catch {
        order = null; // not an order: left out
      }
      if (!order || this.orderProblem(piece, order)) continue;
      this.orders[piece.id] = order;
      set = true;
    }
    if (set) {
      this.render();
      this.onChange();
    }
    return set;
  }

  /** Your pieces on the table, ship first. */
  mine() {
    return this.pieces.filter((p) => p.owner === this.me)
      .sort((a, b) => (a.kind === "ship" ? -1 : 0) - (b.kind === "ship" ? -1 : 0));
  }

  /** The plot to send: `["red:R+45", "red-m1:S3"]`. */
  plot() {
    return this.mine().filter((p) => this.orders[p.id]).map((p) => `${p.id}:${orderText(this.orders[p.id], true)}`);
  }

  /** Why the plot cannot be sent as it stands (a field holds no order), or null. */
  problem() {
    for (const p of this.mine()) {
      if (this.texts[p.id] !== undefined) return this.notes[p.id]; // it names the piece
    }
    return null;
  }

  /** Give `id` `order` (null: none). `how` says what replaced what, for the note. */
  setOrder(id, order, { quiet = false } = {}) {
    const piece = this.pieces.find((p) => p.id === id);
    const before = this.orders[id];
    const problem = order && this.orderProblem(piece, order);
    if (problem) {
      this.notes[id] = problem;
      this.render();
      return false;
    }
    if (order) this.orders[id] = order;
    else delete this.orders[id];
    delete this.texts[id];
    if (!quiet) {
      const now = orderNote(order);
      this.notes[id] = before && order && orderText(before) !== orderText(order)
        ? t("{now} (replaces {before}: one order per piece)", { now, before: orderText(before) }) : now;
    }
    this.render();
    this.onChange();
    return true;
  }

  /** Why `piece` may not carry out `order`, naming both, or null. */
  orderProblem(piece, order) {
    if (order.kind !== "L") return null;
    if (piece.kind !== "ship") return t("{piece} cannot launch (L): only ships launch missiles", { piece: piece.id });
    if (!(piece.missiles > 0)) return t("{piece} cannot launch (L): no missiles left", { piece: pieceName(piece, this.me) });
    return null;
  }

  /**
   * A Launch button for the selected ship, for a bar away from the panel (a phone's plot
   * bar, where the ship's row with its own Launch is screens down): kept as the panel is.
   */
  launchButton() {
    this.barLaunch = el("button", { type: "button", id: "bar-launch", class: "plot-launch secondary", hidden: true,
      on: { click: () => this.selected && this.setOrder(this.selected, { kind: "L" }) } }, t("Launch"));
    return this.barLaunch;
  }

  /** Select one of your pieces to plot with the handles. */
  select(id) {
    this.selected = id;
    this.render();
    this.rows[id]?.row.scrollIntoView({ block: "nearest" });
  }

  render() {
    this.drawGhosts();
    this.drawHandles();
    this.updatePanel();
  }

  destroy() {
    this.resizer.disconnect();
    this.ghosts.remove();
    this.handles.remove();
    clear(this.panel);
  }

  // -- the panel: one row per piece ----------------------------------------------------------

  buildPanel() {
    clear(this.panel);
    this.rows = {};
    const list = el("ul", { class: "plot-pieces" });
    for (const piece of this.mine()) {
      const name = pieceName(piece, this.me);
      const input = el("input", { type: "text", class: "plot-order", maxlength: 12, autocomplete: "off",
        spellcheck: "false", placeholder: "R+45 · S2.5" + (piece.kind === "ship" ? " · L" : ""),
        "aria-label": t("order for {piece}", { piece: name }), dataset: { piece: piece.id },
        on: { input: () => this.typed(piece.id, input.value), focus: () => this.select(piece.id) } });
      const pick = el("button", { type: "button", class: "plot-pick", dataset: { piece: piece.id },
        on: { click: () => this.select(piece.id) } },
      el("span", { class: `piece-icon ${piece.kind}` }), el("span", { text: name }));
      const launch = piece.kind === "ship" ? el("button", { type: "button", class: "plot-launch secondary",
        on: { click: () => this.setOrder(piece.id, { kind: "L" }) } }, t("Launch")) : null;
      const none = el("button", { type: "button", class: "plot-clear secondary", title: t("no order"),
        "aria-label": t("no order for {piece}", { piece: name }), on: { click: () => this.setOrder(piece.id, null) } }, "✕");
      const note = el("p", { class: "plot-note", "aria-live": "polite" });
      const launchNote = piece.kind === "ship" ? el("p", { class: "plot-launch-note" }) : null;
      const row = el("li", { class: "plot-row", dataset: { piece: piece.id, kind: piece.kind },
        style: `--team: ${this.colourOf(piece.owner)}` }, pick, el("span", { class: "plot-controls" }, input, launch, none),
      note, launchNote);
      this.rows[piece.id] = { row, input, launch, note, launchNote };
      list.append(row);
    }
    this.summary = el("p", { class: "plot-summary" });
    this.crossings = el("ul", { class: "plot-crossings" });
    this.panel.append(list, this.summary, this.crossings);
  }

  /** A text typed in a piece's field: an order replaces the piece's order at once. */
  typed(id, text) {
    if (!text.trim()) {
      this.setOrder(id, null);
      return;
    }
    try {
      const order = parseOrder(text);
      if (!this.setOrder(id, order)) this.holdsNoOrder(id, text, this.notes[id]);
    } catch (error) {
      this.holdsNoOrder(id, text, error.message);
    }
  }

  /** The field of `id` holds `text`, which is no order it may carry out (`why`): the piece
   * has no order (nothing is sent for it, and the ghost of the order it held before goes). */
  holdsNoOrder(id, text, why) {
    const piece = this.pieces.find((p) => p.id === id);
    this.texts[id] = text;
    this.notes[id] = `${pieceName(piece, this.me)}: ${why}`;
    delete this.orders[id];
    this.render();
    this.onChange();
  }

  updatePanel() {
    for (const piece of this.mine()) {
      const r = this.rows[piece.id];
      if (!r) continue;
      const order = this.orders[piece.id];
      const invalid = this.texts[piece.id] !== undefined;
      r.row.classList.toggle("selected", piece.id === this.selected);
      r.row.classList.toggle("invalid", invalid);
      r.row.dataset.order = order ? orderText(order, true) : "";
      if (document.activeElement !== r.input && !invalid) r.input.value = order ? orderText(order) : "";
      r.input.disabled = !this.editable;
      r.note.textContent = this.notes[piece.id] || (order ? orderWords(order) : t("no order yet: it does nothing"));
      if (r.launch) {
        const left = piece.missiles ?? 0;
        r.launch.disabled = !this.editable || left <= 0;
        r.launch.textContent = t("Launch ({n} left)", { n: left });
        r.launch.title = left > 0 ? t("launch a missile ahead of your ship") : t("no missiles left");
        r.launch.classList.toggle("on", order?.kind === "L");
        r.launchNote.textContent = left > 0 ? "" : t("Launch: no missiles left.");
      }
      r.row.querySelector(".plot-clear").disabled = !this.editable;
    }
    if (this.barLaunch) {
      const ship = this.mine().find((p) => p.id === this.selected && p.kind === "ship");
      const left = ship?.missiles ?? 0;
      this.barLaunch.hidden = !ship;
      this.barLaunch.disabled = !this.editable || left <= 0;
      this.barLaunch.textContent = t("Launch ({n} left)", { n: left });
      this.barLaunch.classList.toggle("on", Boolean(ship) && this.orders[ship.id]?.kind === "L");
    }
    if (!this.summary) return;
    const count = Object.keys(this.orders).filter((id) => this.mine().some((p) => p.id === id)).length;
    const total = this.mine().length;
    this.summary.textContent = tn("{count} of {n} piece ordered; a piece with no order does nothing.",
      "{count} of {n} pieces ordered; a piece with no order does nothing.", total, { count });
    clear(this.crossings);
    for (const c of tapeCrossings(this.pieces, this.me, this.orders)) {
      const from = this.pieces.find((p) => p.id === c.piece);
      const tape = capital(t("{piece}'s tape ({order})", { piece: pieceName(from, this.me), order: orderText(this.orders[c.piece]) }));
      const at = t("{distance} in along it", { distance: num(c.distance, { minimumFractionDigits: 1, maximumFractionDigits: 1 }) });
      const target = c.launch ? t("where {owner}'s ship would put a new missile", { owner: ownerName(c.target.owner) }) : pieceName(c.target, this.me);
      const effect = contactWords(from.kind, c.target.kind);
      const params = { tape, target, at, effect, owner: ownerName(c.target.owner) };
      const turns = this.orders[c.target.id]?.kind === "R";
      const text = c.sure
        ? (turns ? t("{tape} meets {target}, {at}: {effect}. It is in normal space this turn (it turns).", params)
          : t("{tape} meets {target}, {at}: {effect}. It is in normal space this turn (it launches).", params))
        : c.launch ? t("{tape} crosses {target}, {at}. If {owner} launches this turn: {effect} ({owner}'s orders are secret).", params)
          : t("{tape} crosses {target}, {at}. If {owner} turns or launches it this turn: {effect} ({owner}'s orders are secret).", params);
      this.crossings.append(el("li", { class: c.sure ? "sure" : "maybe", dataset: { piece: c.piece, target: c.target.id }, text }));
    }
  }

  // -- on the board: ghosts, tapes and handles ------------------------------------------------

  drawGhosts() {
    const g = clear(this.ghosts);
    const colour = this.colourOf(this.me);
    // The order texts and the "hit?" marks keep off the pieces, their labels and each other.
    const placer = this.board.labelPlacer();
    const size = this.board.px(13);
    const label = (x, y, text, cls, reach = null) => {
      const spot = placer.place(x, y, text.length * size * 0.66, size * 1.15, reach ?? 0, { centred: reach === null });
      g.append(svg("text", { class: `plot-label ${cls}`, x: fmt(spot.x), y: fmt(-spot.y), "font-size": fmt(size),
        "text-anchor": "middle", "dominant-baseline": "middle", text }));
    };
    for (const piece of this.mine()) {
      const order = this.orders[piece.id];
      if (!order) continue;
      const px = this.board.px.bind(this.board);
      if (order.kind === "S") {
        const start = noseOf(piece);
        const [dx, dy] = heading(piece.heading);
        const end = [start[0] + dx * order.distance, start[1] + dy * order.distance];
        const tape = svg("g", { class: "plot-tape", dataset: { piece: piece.id, distance: order.distance } });
        tape.append(svg("line", { x1: fmt(start[0]), y1: fmt(-start[1]), x2: fmt(end[0]), y2: fmt(-end[1]) }));
        for (let k = 1; k <= order.distance; k += 1) {
          const [tx, ty] = [start[0] + dx * k, start[1] + dy * k];
          const [ux, uy] = [dy * px(5), -dx * px(5)];
          tape.append(svg("line", { class: "tick", x1: fmt(tx - ux), y1: fmt(-(ty - uy)), x2: fmt(tx + ux), y2: fmt(-(ty + uy)) }));
        }
        g.append(tape);
      }
      const after = order.kind === "L" ? launchedMissile(piece) : afterOrder(piece, order);
      const ghost = this.board.pieceShape(after, colour);
      ghost.classList.add("plot-ghost");
      ghost.dataset.ghostOf = piece.id;
      g.append(ghost);
      // The order's label just ahead of where the piece ends (past the arrow's head when it
      // has one); while a handle is dragged, its own big label says the order.
      const handled = this.editable && piece.id === this.selected;
      const [ax, ay] = heading(after.heading);
      const reach = sizeOf(after)[1] / 2 + this.board.px(handled && order.kind !== "R" ? 36 : 16);
      if (!(this.dragText && handled)) {
        label(after.x + ax * reach, after.y + ay * reach, orderText(order), { R: "rotate", S: "sprint", L: "launch" }[order.kind]);
      }
    }
    for (const c of tapeCrossings(this.pieces, this.me, this.orders)) {
      const r = Math.hypot(...sizeOf(c.target)) / 2 + this.board.px(6);
      g.append(svg("circle", { class: `plot-crossing ${c.sure ? "sure" : "maybe"}`, cx: fmt(c.target.x), cy: fmt(-c.target.y),
        r: fmt(r), dataset: { piece: c.piece, target: c.target.id } }));
      label(c.target.x, c.target.y, c.sure ? t("hit!") : t("hit?"), c.sure ? "sure" : "maybe", r);
    }
  }

  /** The ring (turn) and the arrow (sprint) around the selected piece, and a dashed ring
   * on each of your pieces (a click picks one: picking.js). */
  drawHandles() {
    const g = clear(this.handles);
    if (!this.editable) return;
    const px = (n) => this.board.px(n);
    for (const piece of this.mine()) {
      g.append(svg("circle", { class: `plot-pick-target${piece.id === this.selected ? " selected" : ""}`,
        cx: fmt(piece.x), cy: fmt(-piece.y), r: fmt(px(KNOB_PX)), dataset: { piece: piece.id } }));
    }
    const piece = this.mine().find((p) => p.id === this.selected);
    if (!piece) return;
    const order = this.orders[piece.id];
    const ring = px(RING_PX);
    const turned = order?.kind === "R" ? afterOrder(piece, order).heading : piece.heading;
    const [tx, ty] = heading(turned);
    const handles = svg("g", { class: "plot-handles-of", dataset: { piece: piece.id } });
    handles.append(svg("circle", { class: "plot-ring", cx: fmt(piece.x), cy: fmt(-piece.y), r: fmt(ring) }));
    const ringHit = svg("circle", { class: "plot-ring-hit", cx: fmt(piece.x), cy: fmt(-piece.y), r: fmt(ring),
      "stroke-width": fmt(px(KNOB_PX)), dataset: { piece: piece.id } });
    this.dragOn(ringHit, (p) => this.dragTurn(piece, p));
    handles.append(ringHit);
    // The ring's pointer: where the piece will face.
    const [mx, my] = [piece.x + tx * ring, piece.y + ty * ring];
    handles.append(svg("circle", { class: "plot-ring-mark", cx: fmt(mx), cy: fmt(-my), r: fmt(px(7)) }));
    // The sprint arrow: along the heading from the nose, its head at the tape's end.
    const start = noseOf(piece);
    const [dx, dy] = heading(piece.heading);
    const half = sizeOf(piece)[1] / 2;
    const reach = order?.kind === "S" ? order.distance : Math.max(SPRINT_MIN_IN, px(RING_PX + KNOB_PX + 14) - half);
    const end = [start[0] + dx * reach, start[1] + dy * reach];
    handles.append(svg("line", { class: "plot-arrow-shaft", x1: fmt(start[0]), y1: fmt(-start[1]), x2: fmt(end[0]), y2: fmt(-end[1]) }));
    const size = px(11);
    const head = [[0, size], [-size * 0.8, -size * 0.6], [size * 0.8, -size * 0.6]]
      .map(([u, v]) => `${fmt(end[0] + dy * u + dx * v)},${fmt(-(end[1] - dx * u + dy * v))}`).join(" ");
    handles.append(svg("polygon", { class: "plot-arrow-head", points: head }));
    const knob = svg("circle", { class: "plot-arrow-hit", cx: fmt(end[0]), cy: fmt(-end[1]), r: fmt(px(KNOB_PX)),
      dataset: { piece: piece.id } });
    this.dragOn(knob, (p) => this.dragSprint(piece, p));
    handles.append(knob);
    if (this.dragText) {
      const anchor = { 0: "start", 180: "end" }[this.board.turnDeg] || "middle";
      handles.append(svg("text", { class: "plot-drag-label", ...this.dragLabelAt(), "text-anchor": anchor,
        "font-size": fmt(px(20)), text: this.dragText.text }));
    }
    g.append(handles);
  }

  /** Where the drag's label stands ({x, y} in the board's SVG units): up and right of its
   * point on the screen, whatever the board's turn. */
  dragLabelAt() {
    const at = this.dragText.at;
    const [ox, oy] = this.board.frame.fromView(this.board.px(18), this.board.px(18));
    return { x: fmt(at[0] + ox), y: fmt(-at[1] - oy) };
  }

  /** Follow the pointer that goes down on `target`: `onMove(table point)` as it moves. */
  dragOn(target, onMove) {
    target.addEventListener("pointerdown", (event) => {
      event.preventDefault();
      event.stopPropagation();
      const area = this.board.svg;
      area.setPointerCapture(event.pointerId);
      this.dragging = true;
      const move = (e) => {
        if (e.pointerId !== event.pointerId) return;
        e.preventDefault();
        onMove(this.board.toTable(e.clientX, e.clientY));
      };
      const up = () => {
        if (area.hasPointerCapture(event.pointerId)) area.releasePointerCapture(event.pointerId);
        this.dragging = false;
        this.dragText = null;
        // The click that follows the drag picks no piece where it ended (picking.js).
        const swallow = (c) => c.stopImmediatePropagation();
        area.addEventListener("click", swallow, { capture: true, once: true });
        setTimeout(() => area.removeEventListener("click", swallow, { capture: true }), 0);
        this.finishDrag();
      };
      followPointer(area, move, { onLift: up, pointer: event.pointerId });
      this.dragStart = { ...this.orders };
      this.dragShown = null;
      onMove(this.board.toTable(event.clientX, event.clientY));
    });
  }

  /** Turning: the piece will face the pointer, in 15° steps; straight on is no order. */
  dragTurn(piece, p) {
    const angle = Math.round(normAngle(piece.heading - angleOf(p.x - piece.x, p.y - piece.y)) / ROTATION_STEP_DEG) * ROTATION_STEP_DEG;
    const order = angle ? { kind: "R", angle: angle === -180 ? 180 : angle } : null;
    this.dragText = { at: [p.x, p.y], text: order ? orderText(order) : t("R0: no turn") };
    this.dragTo(piece, order, "R");
  }

  /** Sprinting: the tape runs from the nose to the pointer, in half inches from 1 to 8. */
  dragSprint(piece, p) {
    const start = noseOf(piece);
    const [dx, dy] = heading(piece.heading);
    const along = (p.x - start[0]) * dx + (p.y - start[1]) * dy;
    const distance = Math.min(SPRINT_MAX_IN, Math.max(SPRINT_MIN_IN, Math.round(along / SPRINT_STEP_IN) * SPRINT_STEP_IN));
    const order = along < SPRINT_MIN_IN / 2 ? null : { kind: "S", distance };
    const [ex, ey] = [start[0] + dx * distance, start[1] + dy * distance];
    this.dragText = { at: order ? [ex, ey] : [p.x, p.y], text: order ? orderText(order) : t("no sprint") };
    this.dragTo(piece, order, "S");
  }

  /** Show `order` (of `kind`) live while dragging; none gives back the order of another kind
   * the piece had when the drag began. */
  dragTo(piece, order, kind) {
    const before = this.dragStart?.[piece.id];
    const chosen = order || (before && before.kind !== kind ? before : null);
    // Most moves of a drag change nothing but where its label stands (orders snap to 15°
    // and half inches): then the label alone moves, and the plot is not drawn again.
    const shown = JSON.stringify([piece.id, chosen ?? null, this.dragText?.text ?? null]);
    const label = this.handles.querySelector(".plot-drag-label");
    if (shown === this.dragShown && label && this.dragText) {
      for (const [name, value] of Object.entries(this.dragLabelAt())) label.setAttribute(name, value);
      return;
    }
    this.dragShown = shown;
    if (chosen) this.orders[piece.id] = chosen;
    else delete this.orders[piece.id];
    delete this.texts[piece.id];
    this.notes[piece.id] = orderNote(chosen); // what it replaces is said when the drag ends
    this.render();
    this.onChange();
  }

  /** A drag ended: say what the piece's order is now, and what it replaced. */
  finishDrag() {
    for (const piece of this.mine()) {
      const before = this.dragStart?.[piece.id];
      const now = this.orders[piece.id];
      if ((before && orderText(before)) === (now && orderText(now))) continue;
      delete this.orders[piece.id];
      if (before) this.orders[piece.id] = before;
      this.setOrder(piece.id, now || null);
    }
    this.dragStart = null;
    this.render();
  }
}

const capital = (text) => text[0].toUpperCase() + text.slice(1);

/** The panel's word on a piece's new `order` (null: none): "S3: sprint 3 in". */
function orderNote(order) {
  return order ? t("{order}: {words}", { order: orderText(order), words: orderWords(order) }) : t("no order: it does nothing this turn");
}

/** What a tape's contact does, by the kinds of the sprinter and the piece it meets. */
function contactWords(mover, target) {
  if (mover === "ship") return target === "ship" ? t("a collision, both ships lost") : t("the missile is spent and your ship takes a hit");
  return target === "ship" ? t("your missile scores a hit") : t("both missiles are lost");
}
