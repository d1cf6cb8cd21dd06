// Light Speed in the lobby: the options form built from its schema (asteroid, rocks,
// piracy) is all a room needs; a few words say what the game is, and `describe` tells a
// room's options in words for the open rooms.
//
// API (every game's lobby module, see games/index.js):
//   lobbyForm(ctx)     ctx {game, box, form}: adds the game's own fields to `box` beside
//                      the schema's `form`; returns {body(values), link(room, body)}, each
//                      optional (the form's values as they are, and `?join=1`).
//   describe(options)  a room's options in a few words.

import { el } from "../../shell/dom.js";
import { t, tn } from "../../shell/i18n.js";

/** Add a few words about the game above its options. */
export function lobbyForm({ box }) {
  box.prepend(el("p", { class: "game-blurb",
    text: t("Everyone drops ship cards on the table at the same time, as fast as they dare; then the ships fight on their own and mine the asteroid.") }));
  return {};
}

/** "Light Speed: 2 seats, single asteroid, 8 rocks, piracy". */
export function describe(options) {
  return t("Light Speed: {options}", { options: optionWords(options) });
}

/** The options alone (the lobby's open rooms, under the game's title). */
export function optionWords(options) {
  const asteroids = { single: t("single asteroid"), large: t("large asteroid"), "two-small": t("two-small asteroids") };
  const parts = [tn("{n} seat", "{n} seats", options.seats), asteroids[options.asteroids] || options.asteroids];
  if (options.rocks) parts.push(tn("{n} rock", "{n} rocks", options.rocks));
  if (options.piracy) parts.push(t("piracy"));
  return parts.join(", ");
}
