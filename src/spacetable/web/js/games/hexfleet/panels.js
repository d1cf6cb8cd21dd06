/**
 * Panels of the hex fleet's room page that need nothing of the room: the board's legend,
 * the ships off the board, the move waiting for its confirm, and the phone's bar of the
 * active ship's buttons docked at the bottom.
 */
import { $, clear, el } from "../../shell/dom.js";
import { t, tn } from "../../shell/i18n.js";
import { LEGEND } from "./room_words.js";

/** The legend: what the board's gauges and arcs mean. */
export function legendPanel() {
  const legend = LEGEND();
  return el("section", { id: "hex-legend", class: "panel hex-legend", "aria-label": t("what the board shows") },
    el("h2", { text: legend.title }),
    el("ul", {}, legend.gauges.map(([colour, words]) => el("li", {},
      el("span", { class: "gauge-swatch", style: `--swatch: ${colour}`, "aria-hidden": "true" }), words)),
    el("li", {}, el("span", { class: "arc-swatch", "aria-hidden": "true" }), legend.arc)));
}

/** The ships off the board (jumped out, gone or wrecked): the room fills its list. */
export function offBoardPanel() {
  return el("section", { id: "off-board", class: "panel off-board", hidden: true },
    el("h2", { text: t("Off the board") }), el("ul", {}));
}

/**
 * On a phone the active ship's buttons (in `controls`, the controls' panel) are a bar fixed
 * along the bottom of the screen, on the chat's bar (hexfleet.css): tell the page its height
 * (--hex-bar), which the page keeps free below its content as it does the chat's; 0 while no
 * ship of ours is activated. When the bar comes, the page scrolls the board's zoom row out
 * from under it (the lines over the board may push the row that far down: a turn the blank
 * ended, longer words).
 */
export function dockActionBar(controls) {
  let wasDocked = false;
  const measure = () => {
    const bar = $("#hex-controls .action-bar");
    const docked = bar && bar.getClientRects().length > 0 && getComputedStyle(bar).position === "fixed";
    document.documentElement.style.setProperty("--hex-bar", `${docked ? Math.ceil(bar.getBoundingClientRect().height) : 0}px`);
    if (docked && !wasDocked) zoomRowClear(bar);
    wasDocked = Boolean(docked);
  };
  // The bar is drawn again with every state: watch the panel's contents and its size.
  new MutationObserver(measure).observe(controls, { childList: true, subtree: true, attributes: true, attributeFilter: ["hidden"] });
  new ResizeObserver(measure).observe(controls);
  window.matchMedia("(max-width: 820px)").addEventListener("change", measure);
}

/** Scroll the page so that the board's zoom row, when in sight, lies above the docked `bar`. */
function zoomRowClear(bar) {
  const row = $(".hex-zoom")?.getBoundingClientRect();
  if (!row || row.top < 0) return; // the player reads further down the page
  const under = row.bottom + 4 - bar.getBoundingClientRect().top;
  if (under > 0) window.scrollBy({ top: under, behavior: "instant" });
}

/** The gap (px) between the move to confirm and the board's edge it sits over. */
const MOVE_BAR_GAP_PX = 8;

/**
 * The move a tap chose, waiting over the `board` (a HexBoard) for its confirm, in `bar`:
 * `pending` {key, label, cost, movement} (null hides it), Confirm move and Cancel.
 */
export function showMoveToConfirm(bar, board, pending, { confirm, cancel }) {
  bar.hidden = !pending;
  if (!pending) return;
  clear(bar).append(
    el("span", { text: tn("Move to {hex}: {cost} of {n} hex", "Move to {hex}: {cost} of {n} hexes", pending.movement,
      { hex: pending.label, cost: pending.cost }) }),
    el("button", { type: "button", id: "confirm-move", on: { click: confirm } }, t("Confirm move")),
    el("button", { type: "button", class: "secondary", on: { click: cancel } }, t("Cancel")));
  // Over the board's top edge, unless the hex tapped is in the board's top half: then over
  // its bottom edge (above the zoom buttons' room), so that the bar never hides that hex.
  bar.style.top = "";
  const at = board.hexes.get(pending.key)?.getBoundingClientRect();
  const box = board.svg.getBoundingClientRect();
  const holder = bar.offsetParent;
  if (at && holder && at.top + at.height / 2 < box.top + box.height / 2) {
    const bottom = box.bottom - board.bottomRoomPx - MOVE_BAR_GAP_PX;
    bar.style.top = `${bottom - bar.offsetHeight - holder.getBoundingClientRect().top + holder.scrollTop}px`;
  }
}
