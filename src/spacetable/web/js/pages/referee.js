// The referee sandbox page: pick a game (the list comes from GET /api/games), and that
// game's module lays out its own sandbox (games/<key>/index.js: referee; shell/sandbox.js):
// the page holds no game's markup, and shows the chosen sandbox's parts, hiding the
// others'. A file of another game opens in that game's sandbox. `?game=<key>` opens one.

import { t } from "../shell/i18n.js"; // (and the page's language and its switch)
import { $, el, setPhase } from "../shell/dom.js";
import { gameKeyOf, gameList, loadGame } from "../games/index.js";

let shown = null; // the key of the game whose sandbox shows
let sandbox = null; // what it offers the page: {importData(data, name), leave(), parts}
const opened = new Set(); // every sandbox opened on this page

/** The parts of the sandbox on show show; the other sandboxes' step aside. */
function showParts() {
  for (const other of opened) {
    for (const node of other.parts) node.toggleAttribute("data-off", other !== sandbox);
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
  // The address names the game shown (a file of another game switches it): a reload opens it again.
  const address = new URL(location.href);
  address.searchParams.set("game", key);
  history.replaceState(history.state, "", address);
  document.body.dataset.referee = key;
  notePhotos(key);
  const game = await loadGame(key);
  sandbox = await game.referee({ ruleset: key, onOtherGame: openFile });
  opened.add(sandbox);
  showParts();
  return sandbox;
}

/** Under the game's choice, for a game whose tables no photo is read of: which games'
 * are (the photo reader shows in their sandboxes only, and a newcomer looked for it). */
function notePhotos(key) {
  const readers = games.filter((entry) => entry.photos);
  const note = $("#photo-note");
  note.hidden = !readers.length || readers.some((entry) => entry.key === key);
  const titles = new Intl.ListFormat(document.documentElement.lang || "en", { type: "conjunction" })
    .format(readers.map((entry) => entry.title));
  note.textContent = t("Reading a photo of the table is for {games}: choose one of them above.", { games: titles });
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
$("#game-choice").append(el("p", { id: "photo-note", class: "help photo-note", hidden: true }));
$("#ruleset").append(...games.map((entry) => el("option", { value: entry.key, text: entry.title })));
$("#ruleset").addEventListener("change", (e) => choose(e.target.value));
const wanted = new URLSearchParams(location.search).get("game");
await choose(games.some((g) => g.key === wanted) ? wanted : games[0].key);
