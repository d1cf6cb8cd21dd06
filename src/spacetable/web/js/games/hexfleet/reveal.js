// The cards an action turned, where the player looks: large, in a tray at the board's bottom
// edge (the replay) or beside the map (a laptop's room), while on the board a beam runs from the firing ship to its target and the target
// flashes (red when hit, grey when every card missed); a shields try rings the ship, a hail
// draws a dotted line to the ship hailed. The room and the replay both show each action's
// cards through it.
//
// API:
//   const tray = new CardTray(wrap, board, { cardsId, stepText, beside })
//     wrap: the board's container (#table-wrap); board: its HexBoard. cardsId: an id for the
//     cards' box; stepText: true for a line of words over the cards (the replay's step);
//     beside: true (the room) to lay the tray beside the map on a wide screen, in the band
//     the map leaves free on the board's right, when it is wide enough (the map stays where
//     it was, at its scale: it was moved to the left edge, its first column cut, and the tray
//     lay over it); else, and on a phone, the tray goes under the board, which keeps its
//     height (the page grows).
//   tray.show(frame, { speed, sound }) -> Promise   the frame's cards flip face up in the tray
//     (salvo.js showCards) and its salvos, tries and hails are drawn on the board; resolves
//     when every card is up. A frame that turned no card empties the tray and the board's
//     marks. A newer call takes over at once.
//   tray.hide()     put the tray away (the cards stay, hidden) and clear the board's marks.
//   tray.reset()    empty it: a new battle.
//   tray.section, tray.cards, tray.text   its elements.

import { t } from "../../shell/i18n.js";
import "./sheet.js";
import { el, svg } from "../../shell/dom.js";
import { showCards, turnsCards } from "./salvo.js";

/** Where ship `id` stands in `ships` (the frame's): its hex centre on the board, or null. */
function centreOf(board, ships, id) {
  const ship = ships.find((s) => s.id === id);
  return ship?.at ? board.hexCentre(ship.at[0], ship.at[1]) : null;
}

/** Draw the frame's salvos, tries and hails on the board's marks layer (emptied first). */
export function markOnBoard(board, frame) {
  const layer = board.layers.fx;
  layer.replaceChildren();
  const ships = frame?.ships || [];
  for (const event of frame?.events || []) {
    if (event.type === "fire") {
      const from = centreOf(board, ships, event.ship);
      const to = centreOf(board, ships, event.target);
      if (!from || !to) continue;
      const hit = event.hits > 0;
      layer.append(
        svg("line", { class: `beam${hit ? " hit" : " miss"}`, x1: from.x, y1: from.y, x2: to.x, y2: to.y,
          dataset: { ship: event.ship, target: event.target } }),
        svg("circle", { class: `flash${hit ? " hit" : " miss"}`, cx: to.x, cy: to.y, r: 8.5,
          dataset: { ship: event.target } }));
    } else if (event.type === "hail") {
      const from = centreOf(board, ships, event.ship);
      const to = centreOf(board, ships, event.target);
      if (from && to) layer.append(svg("line", { class: "hail-line", x1: from.x, y1: from.y, x2: to.x, y2: to.y, dataset: { ship: event.ship, target: event.target } }));
    } else if (event.type === "shields") {
      const at = centreOf(board, ships, event.ship);
      if (at) layer.append(svg("circle", { class: `shield-try${event.success ? " up" : ""}`, cx: at.x, cy: at.y, r: 8, dataset: { ship: event.ship } }));
    }
  }
}

/** Screens narrower than this put the tray under the board (as the room's layout does). */
const WIDE = window.matchMedia("(min-width: 821px)");
/** The narrowest tray beside the map (px): five fire cards a row at the narrow size. */
const BESIDE_LEAST = 190;

export class CardTray {
  constructor(wrap, board, { cardsId = null, stepText = false, beside = false } = {}) {
    this.wrap = wrap;
    this.board = board;
    this.beside = beside;
    this.text = stepText ? el("p", { class: "hx-step-text" }) : null;
    this.cards = el("div", { class: "hx-tray-cards", id: cardsId });
    this.section = el("section", { class: "hx-tray", "aria-live": "polite", "aria-label": t("the cards turned") }, this.text, this.cards);
    wrap.append(this.section);
  }

  /** Show the frame's cards in the tray and its plays on the board; see the module header. */
  show(frame, { speed = 1, sound = true } = {}) {
    const cards = turnsCards(frame);
    // Where the room's tray goes, measured before it shows: the map never moves for it.
    const where = cards && this.beside ? this.placeFor() : null;
    // Under the board, the board keeps the height it has (the page grows).
    this.boardBox().style.height = where?.under ? `${where.height}px` : "";
    this.section.classList.toggle("has-cards", cards);
    this.wrap.classList.toggle("hx-tray-open", cards || Boolean(this.text));
    this.wrap.classList.toggle("hx-tray-under", Boolean(where?.under));
    this.section.classList.toggle("beside", Boolean(where && !where.under));
    if (where && !where.under) {
      this.section.style.setProperty("--hx-tray-width", `${where.width}px`);
      this.section.style.setProperty("--hx-tray-most", `${where.most}px`);
    }
    markOnBoard(this.board, cards ? frame : null);
    if (!this.text) this.section.hidden = !cards;
    // Both ends of a salvo or a hail in view (a phone's board is zoomed on the active ship),
    // once the tray is in its place (never over the map: nothing of the view is covered).
    const ends = (frame?.events || []).filter((e) => e.type === "fire" || e.type === "hail")
      .flatMap((e) => [e.ship, e.target]).map((id) => (frame.ships || []).find((s) => s.id === id)?.at).filter(Boolean);
    if (cards && ends.length) this.board.bringIntoView(ends);
    const shown = showCards(this.cards, frame, { speed, sound }); // lays every card out at once
    // A wide screen's board scrolls in its box to the cards under it (the page does not),
    // again once the outcome and damage cards, hidden until their turn, have shown.
    if (!where?.under || !WIDE.matches) return shown;
    const toCards = () => { if (this.wrap.classList.contains("hx-tray-under")) this.section.scrollIntoView({ block: "nearest" }); };
    toCards();
    return shown.then(toCards);
  }

  /** The room's tray: on a wide screen beside the map, in the board's free band on its right,
   * when that band is wide enough (the map stays where it was, centred and whole: it was
   * moved to the board's left edge, its first column cut, with the tray over its right
   * side); else, and on a phone, under the board. Returns { under, height } or
   * { under: false, width, most } (the tray's width and tallest, in px). */
  placeFor() {
    const board = this.board.svg.getBoundingClientRect();
    if (!WIDE.matches) return { under: true, height: board.height };
    const map = this.board.layers.hexes.getBoundingClientRect();
    const width = Math.round(Math.min(board.right - Math.min(board.right, map.right) - 16, 480));
    if (width >= BESIDE_LEAST) return { under: false, width, most: Math.round(board.height - 16) };
    return { under: true, height: board.height };
  }

  /** What holds the board's height: a room's board box (shell/turnroom.js), else the SVG. */
  boardBox() {
    return this.board.svg.closest(".board-box") || this.board.svg;
  }

  hide() {
    if (!this.text) this.section.hidden = true;
    this.wrap.classList.remove("hx-tray-open", "hx-tray-under");
    this.section.classList.remove("beside");
    this.boardBox().style.height = "";
    this.board.svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
    markOnBoard(this.board, null);
  }

  reset() {
    this.cards.hxRun = null; // the last battle's cards stop turning
    this.cards.replaceChildren();
    this.hide();
  }
}
