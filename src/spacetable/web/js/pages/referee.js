// The referee sandbox page: pick a game (the list comes from GET /api/games), and that
// game's module lays out its own sandbox (games/<key>/index.js: referee). A file of another
// game opens in that game's sandbox. `?game=<key>` opens one at once.

import { $, el, setPhase } from "../shell/dom.js";
import { gameKeyOf, gameList, loadGame } from "../games/index.js";

let shown = null; // the key of the game whose sandbox shows
let sandbox = null; // what it offers the page: {importData(data, name), leave()}

/** The parts of the page that belong to the sandbox of `key` show; the others step aside. */
function showParts(key) {
  document.body.dataset.referee = key;
  for (const node of document.querySelectorAll("[data-referee]")) {
    node.toggleAttribute("data-off", !node.dataset.referee.split(" ").includes(key));
  }
}

/** Show the sandbox of game `key`; resolves with it. */
async function choose(key) {
  if (key !== shown) {
    sandbox?.leave?.();
    setPhase("lobby");
  }
  shown = key;
  $("#ruleset").value = key;
  showParts(key);
  const game = await loadGame(key);
  sandbox = await game.referee({ ruleset: key, onOtherGame: openFile });
  return sandbox;
}

/** Open the decoded file `data` (read from `name`) in the sandbox of its game. */
async function openFile(data, name) {
  let key;
  try {
    key = await gameKeyOf(data?.ruleset);
  } catch {
    key = (await gameList())[0].key; // its sandbox says what the file lacks
  }
  await (await choose(key)).importData(data, name);
}

const games = await gameList();
$("#ruleset").append(...games.map((entry) => el("option", { value: entry.key, text: entry.title })));
$("#ruleset").addEventListener("change", (e) => choose(e.target.value));
const wanted = new URLSearchParams(location.search).get("game");
await choose(games.some((g) => g.key === wanted) ? wanted : games[0].key);
