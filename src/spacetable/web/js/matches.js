// /matches: every finished match with its players, scores and winner, linking to replays.

import { $, clear } from "./dom.js";
import { loadMatches, matchRow } from "./matchlist.js";

async function main() {
  try {
    const matches = await loadMatches(200);
    const body = clear($("#matches tbody"));
    for (const summary of matches) body.append(matchRow(summary));
    $("#no-matches").hidden = matches.length > 0;
  } catch (error) {
    const box = $("#matches-error");
    box.textContent = `Cannot load the matches: ${error.message}`;
    box.hidden = false;
  }
}

main();
