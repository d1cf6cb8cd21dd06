// The laser games' part of the room page: the card table with its key help, the bar of the
// card in hand, the battle's controls, the deployment countdown, the stop banner, the
// refusal toast and the fleet builder over the table; the stop note, the battle log, the
// scores and the controls' help beside it. The shell's room page holds the rest.

import "./sheet.js";
import { $, inBoardBox } from "../../shell/dom.js";
import { t } from "../../shell/i18n.js";
import { countdownBox, tableSvg } from "../../shell/room.js";

/** The words of the layout (kept together for translation; those with markup are HTML). */
const W = {
  tableKeys: t("With the table focused: arrow keys move your card (Shift for bigger steps), Q and E or [ and ] turn it, Enter or Space put it down; plus and minus zoom, 0 shows the whole table, and with no card in hand the arrow keys move the view."),
  inHand: t("your card in hand"),
  left: t("turn left 15°"),
  leftKey: t("turn left 15° (Q)"),
  drag: t("drag from here onto the table"),
  right: t("turn right 15°"),
  rightKey: t("turn right 15° (E)"),
  place: t("Place"),
  stop: t("STOP!"),
  dropHere: t("Drop it here"),
  discard: t("Discard"),
  battleLog: t("battle log"),
  controls: t("Controls"),
  help: [
    t("Your card follows the mouse; on a touch screen, drag it with one finger."),
    t("Turn it with the wheel or <kbd>Q</kbd> / <kbd>E</kbd> (15°, with <kbd>Shift</kbd> 5°); on a touch screen, drag its yellow handle or turn two fingers."),
    t("On a touch screen: tap the table where the card goes (or drag it, from the card or from the bar under the table), then tap the card again (or the Place button) to put it down; a second finger turns it while the first drags."),
    t("Click (on a touch screen: a second tap, or the Place button) to put it down. It must lie on the table and touch no other card."),
    t("Keyboard: <kbd>Tab</kbd> to the table, arrows move the card (<kbd>Shift</kbd>: farther), <kbd>Enter</kbd> puts it down."),
    t("Zoom with the + − buttons or <kbd>Ctrl</kbd> + wheel (with no card in hand, the wheel or two fingers); move the table by dragging it away from your card (with the mouse: when you hold no card)."),
    t("When someone plays their last card (or, in Stellar Conflict, the countdown runs out): drop the card you hold where it is, or discard it."),
  ],
  table: t("The table"),
  deployment: t("Deployment"),
};

const OVER_TABLE = `
  <p id="table-keys" class="visually-hidden">${W.tableKeys}</p>
  <div id="hand-bar" class="hand-bar" role="toolbar" aria-label="${W.inHand}" hidden>
    <button id="turn-left" type="button" class="secondary" aria-label="${W.left}" title="${W.leftKey}">⟲</button>
    <span id="hand-info" class="hand-info" aria-live="polite" title="${W.drag}"></span>
    <button id="turn-right" type="button" class="secondary" aria-label="${W.right}" title="${W.rightKey}">⟳</button>
    <button id="place-card" type="button">${W.place}</button>
  </div>
  <div id="battle-controls" class="battle-controls" hidden></div>`;

const STOP_BANNER = `
  <div id="stop-banner" class="stop-banner" role="alert" hidden>
    <div id="stop-title" class="stop-title">${W.stop}</div>
    <div class="stop-body">
      <div id="stop-text"></div>
      <div id="stop-what" class="stop-what"></div>
      <div class="stop-clock"><span id="stop-countdown">0</span> s
        <span class="stop-bar"><span id="stop-bar-fill"></span></span></div>
    </div>
    <div id="stop-actions" class="stop-actions">
      <button id="drop-here" type="button">${W.dropHere}</button>
      <button id="discard" type="button" class="secondary">${W.discard}</button>
    </div>
  </div>
  <div id="refused" class="refused" role="alert" hidden></div>`;

const BESIDE_PLAYERS = `
  <section id="battle-log" class="battle-log panel" aria-label="${W.battleLog}" hidden></section>
  <section id="score-panel" class="score-panel panel" hidden></section>`;

const HELP = `
  <summary>${W.controls}</summary>
  <ul>${W.help.map((line) => `<li>${line}</li>`).join("")}</ul>`;

/** Put the laser games' table and panels into the room page. */
export function buildRoomLayout() {
  const seats = $("#seat-panel");
  seats.insertAdjacentHTML("beforebegin", OVER_TABLE);
  $("#table-keys").before(inBoardBox(tableSvg({ "aria-label": W.table, "aria-describedby": "table-keys" })));
  $("#battle-controls").after(countdownBox(W.deployment));
  $("#countdown").insertAdjacentHTML("afterend", STOP_BANNER);
  seats.insertAdjacentHTML("afterend", '<section id="fleet-panel" class="fleet-panel panel" hidden></section>');
  $("#status").insertAdjacentHTML("afterend", '<p id="stop-note" class="stop-note" role="status" hidden></p>');
  $("#players").insertAdjacentHTML("afterend", BESIDE_PLAYERS);
  $(".help").innerHTML = HELP;
}
