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

/** Add a few words about the game above its options. */
export function lobbyForm({ box }) {
  box.prepend(el("p", { class: "game-blurb",
    text: "Everyone drops ship cards on the table at the same time, as fast as they dare; then the ships fight on their own and mine the asteroid." }));
  return {};
}

/** "Light Speed: 2 seats, single asteroid, 8 rocks, piracy". */
export function describe(options) {
  const parts = [`${options.seats} seats`, `${options.asteroids} asteroid${options.asteroids === "two-small" ? "s" : ""}`];
  if (options.rocks) parts.push(`${options.rocks} rocks`);
  if (options.piracy) parts.push("piracy");
  return `Light Speed: ${parts.join(", ")}`;
}
