// FTL's referee sandbox as it stands on the referee page (shell/sandbox.js): the table
// in inches, and the side: what the sandbox is for, resolve and files, what happened,
// the turns resolved, the pieces and their orders, the selected piece, the players.

import { quoted, svg } from "../../shell/dom.js";
import { nodesOf } from "../../shell/sandbox.js";
import { t } from "../../shell/i18n.js";

function side() {
  const missilesLeft = t("<b>{n} left</b>: missiles still to launch", { n: 9 });
  return `
  <div id="ftl-referee" class="ftl-referee">
    <section class="panel ftl-intro">
      <p class="help">${t("Settle a turn of a real game: set the ships and missiles where they stand, type each piece's order, press Resolve.")}</p>
      <details>
        <summary>${t("How to place pieces")}</summary>
        <p class="help">${t("Drag a piece to move it (¼ in steps; arrow keys too). Turn it with its yellow knob or Q / E (15° steps), or type its numbers below. Lengths are inches from the table's centre; a piece's facing is a bearing: 0° points up the table, 90° right, clockwise like R+.")}</p>
      </details>
      <ul class="ftl-key">
        <li><span class="nose-dot"></span> ${t("nose: a sprint's tape starts here")}</li>
        <li><span class="pip"></span> ${t("hits (the third removes the ship)")}</li>
        <li>${missilesLeft}</li>
      </ul>
    </section>
    <section class="panel">
      <div class="tool-row">
        <button id="ftl-resolve" type="button">${t("Resolve")}</button>
        <button id="ftl-next" type="button" hidden>${t("Next turn")}</button>
        <button id="ftl-edit" type="button" class="secondary" hidden>${t("Back to editing")}</button>
        <button id="ftl-export" type="button" class="secondary">${t("Export")}</button>
        <label class="button secondary" for="ftl-import-file">${t("Import…")}</label>
        <input id="ftl-import-file" type="file" accept=".json,application/json" hidden>
      </div>
      <p id="ftl-status" class="ftl-status-line" aria-live="polite"></p>
    </section>
    <p id="ftl-error" class="error referee-error" role="alert" hidden></p>
    <section class="panel" id="ftl-account-panel" hidden>
      <h2>${t("What happened")}</h2>
      <ol id="ftl-account" class="ftl-account"></ol>
    </section>
    <section class="panel" id="ftl-history-panel" hidden>
      <h2>${t("Turns resolved")}</h2>
      <div id="ftl-history"></div>
    </section>
    <section class="panel" id="ftl-orders-panel">
      <h2>${t("Pieces and orders")}</h2>
      <p class="help">${t("One order per piece, as the players wrote it: <code>R+45</code> turns 45° clockwise, <code>R–45</code> counter-clockwise (15° steps), <code>S2.5</code> sprints 2.5 in (1 to 8, half inches), <code>L</code> launches a missile. Empty: the piece does nothing.")}</p>
      <ul id="ftl-piece-list" class="ftl-piece-list"></ul>
      <div class="tool-row" id="ftl-add">
        <label>${t("for")} <select id="ftl-owner"></select></label>
        <button id="ftl-add-ship" type="button" class="secondary">${t("Add ship")}</button>
        <button id="ftl-add-missile" type="button" class="secondary" title=${quoted(t("a missile ahead of that player's ship, counted as launched by it"))}>${t("Add missile")}</button>
      </div>
    </section>
    <section class="panel palette" id="ftl-selected">
      <p id="ftl-selected-help" class="muted">${t("Click a piece (on the table or in the list) to move it, turn it or change its hits and missiles.")}</p>
      <div id="ftl-selected-fields" class="ftl-fields"></div>
      <div id="ftl-selected-tools" class="tool-row" hidden>
        <button id="ftl-rotate-left" type="button" class="secondary" title=${quoted(t("turn 15° counter-clockwise (Q)"))}>⟲ 15°</button>
        <button id="ftl-rotate-right" type="button" class="secondary" title=${quoted(t("turn 15° clockwise (E)"))}>⟳ 15°</button>
        <button id="ftl-delete" type="button" class="danger" title=${quoted(t("remove this piece (Delete)"))}>${t("Delete")}</button>
      </div>
    </section>
    <section class="panel palette" id="ftl-setup">
      <label>${t("Players")}
        <select id="ftl-player-count">
          <option value="2">2</option>
          <option value="3">3</option>
          <option value="4">4</option>
        </select>
      </label>
      <div id="ftl-player-names" class="player-names"></div>
      <label>${t("Table (in)")} <span><input id="ftl-width" type="number" min="6" max="1000" step="any" aria-label=${quoted(t("table width (in)"))} style="width: 4.5em"> × <input id="ftl-height" type="number" min="6" max="1000" step="any" aria-label=${quoted(t("table height (in)"))} style="width: 4.5em"></span></label>
    </section>
  </div>
`;
}

/** The sandbox's parts, new: {table: [the table], side: [#ftl-referee]}. */
export function ftlSandboxParts() {
  return {
    table: [svg("svg", { id: "ftl-table", role: "img", "aria-label": t("the table, in inches") })],
    side: nodesOf(side()),
  };
}
