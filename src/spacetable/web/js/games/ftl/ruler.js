// A ruler on the FTL table, for the player's eyes only (nothing of it is ever sent): with a
// piece selected, pointing at another piece (or tapping it, which pins it) shows how far it
// is and the turn that would face it, in order terms ("blue 13.2 in, R–30"); the Measure
// tool lays a free tape measure on the table by dragging, as VASSAL's ruler does.

import "./sheet.js";
import { el, svg } from "../../shell/dom.js";
import { fmt } from "./board.js";
import { orderText } from "./orders.js";
import { headingText } from "./turns.js";
import { num, t } from "../../shell/i18n.js";

/** Everything the ruler says, in one place. */
const WORDS = {
  button: () => t("Measure"),
  buttonTitle: () => t("Measure: drag on the table to lay a tape measure (press again to stop)"),
  hint: () => t("Drag on the table to measure."),
  bearing: (name, range, turn) => t("{name} {range} in, {turn}", { name, range, turn }),
  bearingTitle: (name, range, turn, exact) => t("{name}: {range} in from post to post; {turn} faces it (exactly {exact}° clockwise)",
    { name, range, turn, exact }),
  tape: (length, facing) => t("Tape: {length} in, facing {facing}", { length, facing }),
};

/** A length in inches to a tenth: 13.2. */
function tenths(value) {
  return num(Math.round(value * 10) / 10);
}

/** The heading (DESIGN section 5: 0 up, counter-clockwise) from `a` toward `b`. */
function headingTo(a, b) {
  return (Math.atan2(-(b.x - a.x), b.y - a.y) * 180) / Math.PI;
}

/** A turn in degrees into (-180, 180]. */
function normalTurn(deg) {
  const turn = ((((deg + 180) % 360) + 360) % 360) - 180;
  return turn === -180 ? 180 : turn;
}

/**
 * How far `to` lies from `from` (posts, inches) and the rotation order that faces it
 * (rounded to the rulebook's 15° steps; R+ clockwise): {range, turn, exact}.
 */
export function rangeAndBearing(from, to) {
  const range = Math.hypot(to.x - from.x, to.y - from.y);
  const exact = normalTurn((from.heading || 0) - headingTo(from, to)); // clockwise positive
  const step = Math.round(exact / 15) * 15 || 0;
  return { range, exact: Math.round(exact * 10) / 10 || 0, turn: { kind: "R", angle: step === -180 ? 180 : step } };
}

export class Ruler {
  /**
   * A ruler on `board` (an FtlBoard). `selected()`: the id of the piece measured from (or
   * null); `pieces()`: the pieces the board shows. `readout`: where the words go (an
   * element the page places; it gets them too for screen readers).
   */
  constructor(board, { selected = () => null, pieces = () => board.last?.pieces || [] } = {}) {
    this.board = board;
    this.selected = selected;
    this.pieces = pieces;
    this.layer = board.layer("ruler");
    this.pinned = null; // the piece a tap pinned
    this.hovered = null;
    this.measuring = false;
    this.readout = el("output", { id: "ruler-readout", class: "ruler-readout", "aria-live": "polite", hidden: true });
    this.button = el("button", { type: "button", id: "measure", class: "secondary", title: WORDS.buttonTitle(),
      "aria-pressed": "false", on: { click: () => this.setMeasuring(!this.measuring) } }, WORDS.button());
    const area = board.svg;
    // The piece under the pointer by its shape (FtlBoard.piecesAt), other than the one measured from.
    const other = (e) => {
      const found = board.piecesAt ? board.piecesAt(e.clientX, e.clientY).map((p) => p.id)
        : [e.target.closest?.(".ftl-piece")?.dataset.piece].filter(Boolean);
      return found.find((id) => id !== this.selected()) ?? null;
    };
    area.addEventListener("pointermove", (e) => e.pointerType !== "touch" && !this.measuring && this.hover(other(e)));
    area.addEventListener("pointerleave", () => this.hover(null));
    area.addEventListener("click", (e) => {
      if (this.measuring) return;
      const id = other(e);
      this.pinned = id && id !== this.pinned ? id : null;
      this.render();
    });
    // The tape measure takes the pointer before anything on the table (handles, panning,
    // picking a piece with the click that ends the drag).
    area.addEventListener("pointerdown", (e) => this.measuring && this.startTape(e), { capture: true });
    area.addEventListener("click", (e) => this.measuring && e.stopImmediatePropagation(), { capture: true });
    document.addEventListener("keydown", (e) => {
      if (e.key === "Escape" && this.measuring) this.setMeasuring(false);
    });
  }

  /** Turn the Measure tool on or off (off clears the tape). */
  setMeasuring(on) {
    this.measuring = on;
    this.tape = null;
    this.button.setAttribute("aria-pressed", String(on));
    this.button.classList.toggle("on", on);
    document.body.dataset.measuring = on ? "yes" : "";
    this.render();
  }

  hover(id) {
    if (id === this.hovered) return;
    this.hovered = id;
    this.render();
  }

  /** Lay the tape from where the pointer went down to where it is, until it comes up. */
  startTape(event) {
    event.preventDefault();
    event.stopImmediatePropagation();
    const area = this.board.svg;
    area.setPointerCapture?.(event.pointerId);
    const from = this.board.toTable(event.clientX, event.clientY);
    this.tape = { from, to: from };
    const move = (e) => {
      if (e.pointerId !== event.pointerId) return;
      e.preventDefault();
      e.stopImmediatePropagation();
      this.tape = { from, to: this.board.toTable(e.clientX, e.clientY) };
      this.render();
    };
    const up = (e) => {
      if (e.pointerId !== event.pointerId) return;
      e.stopImmediatePropagation();
      area.removeEventListener("pointermove", move, true);
      area.removeEventListener("pointerup", up, true);
      area.removeEventListener("pointercancel", up, true);
      if (area.hasPointerCapture?.(event.pointerId)) area.releasePointerCapture(event.pointerId);
    };
    area.addEventListener("pointermove", move, true);
    area.addEventListener("pointerup", up, true);
    area.addEventListener("pointercancel", up, true);
    this.render();
  }

  /** Draw the ruler again (the board was redrawn or zoomed, the selection changed). */
  render() {
    this.layer.replaceChildren();
    const px = (n) => this.board.px(n);
    let text = "";
    let title = "";
    let line = null;
    if (this.measuring) {
      text = WORDS.hint();
      if (this.tape && (this.tape.from.x !== this.tape.to.x || this.tape.from.y !== this.tape.to.y)) {
        const { from, to } = this.tape;
        const length = tenths(Math.hypot(to.x - from.x, to.y - from.y));
        text = WORDS.tape(length, headingText(this.board.frame.heading(headingTo(from, to))));
        line = [from, to];
      }
    } else {
      const pieces = this.pieces().filter((p) => p.on_table !== false);
      const from = pieces.find((p) => p.id === this.selected());
      const to = pieces.find((p) => p.id === (this.hovered !== from?.id && this.hovered ? this.hovered : this.pinned));
      if (from && to && to.id !== from.id) {
        const { range, turn, exact } = rangeAndBearing(from, to);
        const name = to.kind === "ship" && to.id === to.owner ? to.owner : to.id;
        text = WORDS.bearing(name, tenths(range), orderText(turn));
        title = WORDS.bearingTitle(name, tenths(range), orderText(turn), exact);
        line = [from, to];
      }
    }
    this.readout.hidden = !text;
    this.readout.textContent = text;
    this.readout.title = title;
    if (!line) return;
    const [a, b] = line.map((p) => this.board.toSvg(p.x, p.y));
    const mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
    this.layer.append(
      svg("line", { class: "ruler-line", x1: fmt(a.x), y1: fmt(a.y), x2: fmt(b.x), y2: fmt(b.y) }),
      svg("circle", { class: "ruler-end", cx: fmt(a.x), cy: fmt(a.y), r: fmt(px(4)) }),
      svg("circle", { class: "ruler-end", cx: fmt(b.x), cy: fmt(b.y), r: fmt(px(4)) }),
      svg("text", { class: "ruler-label", x: fmt(mid.x), y: fmt(mid.y - px(8)), "text-anchor": "middle",
        "font-size": fmt(px(15)), text }), // a turned board keeps text upright (css/touch.css)
    );
  }
}
