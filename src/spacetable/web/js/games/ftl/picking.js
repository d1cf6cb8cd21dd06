// Picking a piece on the FTL board by clicking or tapping it: the piece under the pointer
// by its own shape (FtlBoard.piecesAt: the ship you click, not the missile in front of it,
// a finger's width around the small ones), and a second click at the same spot picks the
// next piece there, round and round. A short note by the pointer says how many are there.

import { svg } from "../../shell/dom.js";
import { fmt } from "./board.js";
import { t } from "../../shell/i18n.js";

/** Clicks this close together (screen px) are "at the same spot". */
const SAME_SPOT_PX = 8;

/** The words of the note, kept together for a later translation. */
const WORDS = {
  several: (index, count) => t("{index} of {count} here: click again for the next", { index, count }),
};

/**
 * Let a click on `board` pick a piece: `allowed(piece)` says which pieces may be picked
 * (your own, say); `onPick(id)` hears the one picked. `current()`, if given, names the
 * piece picked now: a click again at the same spot goes on from the last pick only while
 * it is still the one picked (chosen meanwhile from a list, the spot starts over).
 * `listen: false` leaves the clicks to the caller, who calls `pickAt(clientX, clientY)`
 * for each (the referee's editor: a press that drags picks nothing). Returns {pickAt, stop()}.
 */
export function pickPieces(board, { allowed = () => true, onPick, current = null, listen = true }) {
  let last = null; // {x, y, ids, index}: the last pick, to go round the pieces there
  let shown = null; // the note this picker put on the board (a page may have more pickers)
  const note = () => (shown?.isConnected ? shown : null);
  const pickAt = (clientX, clientY) => {
    const e = { clientX, clientY };
    const ids = board.piecesAt(e.clientX, e.clientY).filter(allowed).map((p) => p.id);
    note()?.remove();
    if (!ids.length) {
      last = null;
      return;
    }
    const again = last && Math.hypot(e.clientX - last.x, e.clientY - last.y) <= SAME_SPOT_PX
      && last.ids.length === ids.length && last.ids.every((id, i) => id === ids[i])
      && (!current || current() === last.ids[last.index]);
    const index = again ? (last.index + 1) % ids.length : 0;
    last = { x: e.clientX, y: e.clientY, ids, index };
    onPick(ids[index]);
    board.svg.dataset.pickedAmong = String(ids.length);
    if (ids.length > 1) {
      last.at = board.toTable(e.clientX, e.clientY);
      showNote();
    }
  };
  // The note by the pointer, sized in screen pixels: drawn again as the view zooms or pans.
  const showNote = () => {
    note()?.remove();
    if (!last?.at) return;
    const size = board.px(12);
    const [ox, oy] = board.frame.fromView(0, board.px(22));
    shown = board.layer("marks").appendChild(svg("text", { class: "pick-note", x: fmt(last.at.x + ox), y: fmt(-(last.at.y + oy)),
      "font-size": fmt(size), "text-anchor": "middle", fill: "#ffffff", stroke: "#0a0f1f", "stroke-width": fmt(size * 0.25),
      "paint-order": "stroke", text: WORDS.several(last.index + 1, last.ids.length) }));
  };
  const moved = () => {
    if (note()) showNote();
  };
  const click = (e) => pickAt(e.clientX, e.clientY);
  if (listen) board.svg.addEventListener("click", click);
  board.svg.addEventListener("viewchange", moved);
  return {
    pickAt,
    stop() {
      board.svg.removeEventListener("click", click);
      board.svg.removeEventListener("viewchange", moved);
    },
  };
}
