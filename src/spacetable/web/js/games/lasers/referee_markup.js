// The laser games' referee sandbox as it stands on the referee page (shell/sandbox.js):
// the table and its battle controls, and the side's panels: resolve and files, the
// battle log and scores, the players, the ships to add and the selected card's tools.

import { el, quoted, svg } from "../../shell/dom.js";
import { nodesOf } from "../../shell/sandbox.js";
import { t } from "../../shell/i18n.js";

/** What to do with the table while no ship is on it (a newcomer met an empty starfield). */
const EMPTY_TABLE = t("Lay out the table as it stands at your game: add each ship from the side, drag and turn it where it lies (or import a table file, or read a photo), then press Resolve.");

const side = () => `
  <section class="panel">
    <div class="tool-row">
      <button id="resolve" type="button">${t("Resolve")}</button>
      <button id="edit" type="button" class="secondary" hidden>${t("Back to editing")}</button>
      <button id="export" type="button" class="secondary">${t("Export")}</button>
      <label class="button secondary" for="import-file">${t("Import…")}</label>
      <input id="import-file" type="file" accept=".json,application/json" hidden>
    </div>
  </section>
  <p id="referee-error" class="error" role="alert" hidden></p>
  <p id="referee-note" class="referee-note" role="status" hidden></p>
  <section id="battle-log" class="battle-log panel" aria-label=${quoted(t("battle log"))} hidden></section>
  <section id="score-panel" class="score-panel panel" hidden></section>
  <section class="panel palette" id="setup">
    <label>${t("Players")}
      <select id="player-count">
        <option value="2" selected>2</option>
        <option value="3">3</option>
        <option value="4">4</option>
      </select>
    </label>
    <div id="player-names" class="player-names"></div>
    <label class="check"><span><input id="variant" type="checkbox"> <span id="variant-name">${t("Piracy")}</span></span></label>
  </section>
  <section class="panel palette" id="palette">
    <label>${t("Add a ship for")} <select id="owner"></select></label>
    <div id="ship-buttons" class="ships"></div>
    <div class="tool-row">
      <button id="add-asteroid" type="button" class="secondary">${t("Add asteroid")}</button>
      <label>${t("rocks")} <input id="asteroid-rocks" type="number" min="0" max="99" value="12" style="width: 4.5em"></label>
    </div>
  </section>
  <section class="panel palette" id="selection">
    <p id="selected" class="muted">${t("Click a card to select it; drag to move it. Turn it with the wheel, Q / E or its yellow handle.")}</p>
    <div class="tool-row">
      <button id="rotate-left" type="button" class="secondary" title=${quoted(t("turn 15° counter-clockwise (Q)"))}>⟲ 15°</button>
      <button id="rotate-right" type="button" class="secondary" title=${quoted(t("turn 15° clockwise (E)"))}>⟳ 15°</button>
      <button id="delete" type="button" class="danger" title=${quoted(t("Delete"))}>${t("Delete")}</button>
      <button id="clear" type="button" class="secondary">${t("Clear table")}</button>
    </div>
  </section>
`;

/** The sandbox's parts, new: {table: [the table, its battle controls], side: [panels]}. */
export function laserSandboxParts() {
  return {
    table: [svg("svg", { id: "table", role: "img", "aria-label": t("the table") }),
      el("div", { id: "battle-controls", class: "battle-controls", hidden: true }),
      el("p", { id: "referee-table-hint", class: "referee-table-hint", hidden: true, text: EMPTY_TABLE })],
    side: nodesOf(side()),
  };
}
