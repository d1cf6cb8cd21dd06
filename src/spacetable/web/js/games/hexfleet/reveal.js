// The cards an action turned, where the player looks: large, in a tray at the board's bottom
// edge, while on the board a beam runs from the firing ship to its target and the target
// flashes (red when hit, grey when every card missed); a shields try rings the ship, a hail
// draws a dotted line to the ship hailed. The room and the replay both show each action's
// cards through it.
//
// API:
//   const tray = new CardTray(wrap, board, { cardsId, stepText })
//     wrap: the board's container (#table-wrap); board: its HexBoard. cardsId: an id for the
//     cards' box; stepText: true for a line of words over the cards (the replay's step).
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

export class CardTray {
  constructor(wrap, board, { cardsId = null, stepText = false } = {}) {
    this.wrap = wrap;
    this.board = board;
    this.text = stepText ? el("p", { class: "hx-step-text" }) : null;
    this.cards = el("div", { class: "hx-tray-cards", id: cardsId });
    this.section = el("section", { class: "hx-tray", "aria-live": "polite", "aria-label": t("the cards turned") }, this.text, this.cards);
    wrap.append(this.section);
  }

  /** Show the frame's cards in the tray and its plays on the board; see the module header. */
  show(frame, { speed = 1, sound = true } = {}) {
    const cards = turnsCards(frame);
    this.section.classList.toggle("has-cards", cards);
    this.wrap.classList.toggle("hx-tray-open", cards || Boolean(this.text));
    markOnBoard(this.board, cards ? frame : null);
    // Both ends of a salvo or a hail in view (a phone's board is zoomed on the active ship).
    const ends = (frame?.events || []).filter((e) => e.type === "fire" || e.type === "hail")
      .flatMap((e) => [e.ship, e.target]).map((id) => (frame.ships || []).find((s) => s.id === id)?.at).filter(Boolean);
    if (cards && ends.length) this.board.bringIntoView(ends);
    if (!this.text) this.section.hidden = !cards;
    return showCards(this.cards, frame, { speed, sound });
  }

  hide() {
    if (!this.text) this.section.hidden = true;
    this.wrap.classList.remove("hx-tray-open");
    markOnBoard(this.board, null);
  }

  reset() {
    this.cards.hxRun = null; // the last battle's cards stop turning
    this.cards.replaceChildren();
    this.hide();
  }
}
