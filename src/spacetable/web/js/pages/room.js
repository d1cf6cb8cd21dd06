// The room page: the server names the game the room plays (<html data-game>); that game's
// module, and only it, is loaded and given the room (games/index.js).

import "../shell/i18n.js"; // the page's language and its switch
import { describerOf, gameEntry, loadGame } from "../games/index.js";
import { roomIdOf } from "../shell/room.js";

const key = document.documentElement.dataset.game;
const [game, entry] = await Promise.all([loadGame(key), gameEntry(key)]);
await game.room({ roomId: roomIdOf(location), params: new URLSearchParams(location.search), game: entry,
  describe: describerOf(game, entry) });
