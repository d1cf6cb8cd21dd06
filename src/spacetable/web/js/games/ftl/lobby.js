// Faster Than Light in the lobby: the options form built from its schema (table, missiles,
// turn limit, plot timer) and who plays each other seat, a friend by the link or a bot; the
// room page seats us and the bots (`?bots=1:hard`), then waits for our "ready".
//
// API: lobbyForm(ctx) and describe(options), as every game's lobby module (lightspeed/lobby.js).

import { el } from "../../shell/dom.js";
import { t, tn } from "../../shell/i18n.js";
import { botSeats } from "../../shell/botseats.js";

/** Add the game's words and the choice of who plays the other seats. */
export function lobbyForm({ game, box, form }) {
  const others = botSeats(game, { idPrefix: "ftl-seat" });
  box.prepend(el("p", { class: "game-blurb",
    text: t("Secret orders, resolved at once: turn, sprint along a tape measure, launch missiles. Last ship on the table wins.") }));
  box.append(others.element);
  const seats = form.input("seats");
  const show = () => others.update(Number(seats.value));
  seats.addEventListener("change", show);
  show();
  return {
    link(room, body) {
      const bots = others.param(body.seats);
      return `/rooms/${encodeURIComponent(room.id)}${bots ? `?bots=${bots}` : "?join=1"}`;
    },
  };
}

/** "Faster Than Light: 2 seats, 48 x 48 in table, 10 missiles each, no turn limit, no plot timer". */
export function describe(options) {
  return t("Faster Than Light: {options}", { options: optionParts(options).join(", ") });
}

/** The options alone, short (the lobby's open rooms, under the game's title): "2 seats, 48 x
 * 48 in table, 10 missiles each, 20-turn limit, 60 s to plot". */
export function optionWords(options) {
  return optionParts(options, { short: true }).join(", ");
}

function optionParts(options, { short = false } = {}) {
  const [w, h] = options.table_size_in || [48, 48];
  const missiles = options.missiles ?? 10;
  const limit = short ? t("{n}-turn limit", { n: options.turn_limit })
    : t("{n}-turn limit (then most hits, then most pieces left, win)", { n: options.turn_limit });
  return [tn("{n} seat", "{n} seats", options.seats), t("{w} x {h} in table", { w, h }),
    tn("{n} missile each", "{n} missiles each", missiles),
    options.turn_limit ? limit : t("no turn limit"),
    options.plot_timer_s ? t("{n} s to plot", { n: options.plot_timer_s }) : t("no plot timer")];
}
