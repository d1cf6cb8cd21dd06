// The laser games' referee sandbox as it stands on the referee page (shell/sandbox.js):
// the table and its battle controls, and the side's panels: resolve and files, the
// battle log and scores, the players, the ships to add and the selected card's tools.

import { el, svg } from "../../shell/dom.js";
import { nodesOf } from "../../shell/sandbox.js";

const SIDE = `
  <section class="panel">
    <div class="tool-row">
      <button id="resolve" type="button">Resolve</button>
      <button id="edit" type="button" class="secondary" hidden>Back to editing</button>
      <button id="export" type="button" class="secondary">Export</button>
      <label class="button secondary" for="import-file">Import…</label>
      <input id="import-file" type="file" accept=".json,application/json" hidden>
    </div>
  </section>
  <p id="referee-error" class="error" role="alert" hidden></p>
  <p id="referee-note" class="referee-note" role="status" hidden></p>
  <section id="battle-log" class="battle-log panel" aria-label="battle log" hidden></section>
  <section id="score-panel" class="score-panel panel" hidden></section>
  <section class="panel palette" id="setup">
    <label>Players
      <select id="player-count">
        <option value="2" selected>2</option>
        <option value="3">3</option>
        <option value="4">4</option>
      </select>
    </label>
    <div id="player-names" class="player-names"></div>
    <label class="check"><span><input id="variant" type="checkbox"> <span id="variant-name">Piracy</span></span></label>
  </section>
  <section class="panel palette" id="palette">
    <label>Add a ship for <select id="owner"></select></label>
    <div id="ship-buttons" class="ships"></div>
    <div class="tool-row">
      <button id="add-asteroid" type="button" class="secondary">Add asteroid</button>
      <label>rocks <input id="asteroid-rocks" type="number" min="0" max="99" value="12" style="width: 4.5em"></label>
    </div>
  </section>
  <section class="panel palette" id="selection">
    <p id="selected" class="muted">Click a card to select it; drag to move it. Turn it with the wheel, Q / E or its yellow handle.</p>
    <div class="tool-row">
      <button id="rotate-left" type="button" class="secondary" title="turn 15° counter-clockwise (Q)">⟲ 15°</button>
      <button id="rotate-right" type="button" class="secondary" title="turn 15° clockwise (E)">⟳ 15°</button>
      <button id="delete" type="button" class="danger" title="Delete">Delete</button>
      <button id="clear" type="button" class="secondary">Clear table</button>
    </div>
  </section>
`;

/** The sandbox's parts, new: {table: [the table, its battle controls], side: [panels]}. */
export function laserSandboxParts() {
  return {
    table: [svg("svg", { id: "table", role: "img", "aria-label": "the table" }),
      el("div", { id: "battle-controls", class: "battle-controls", hidden: true })],
    side: nodesOf(SIDE),
  };
}
