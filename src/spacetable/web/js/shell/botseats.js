// The lobby's "Who plays the other seats": for each seat after yours, a friend who comes
// by the room's link or one of the game's bots, the chosen bot told in words under it. A
// friend at first, in every game: a bot is one click away ("Play a bot" beside the form),
// and a friend who opens the link must find his seat free. The room page seats the bots
// its link names (`?bots=1:hard,2:easy`).
//
// API:
//   botSeats(game, { idPrefix }) -> { element, update(seats, first), param(seats) }
//     game      the game as GET /api/games lists it (bot_levels, default_bot,
//               bot_descriptions);
//     idPrefix  the selects' ids are `${idPrefix}-${seat}`, the box's `${idPrefix}s`;
//     update(seats, first)  show the choices of seats first .. seats - 1;
//     param(seats)          the `bots` parameter of the room's link ("" for none).

import { el } from "./dom.js";
import { botLevelName, playerName, t } from "./i18n.js";

/** A bot level in words (shell/i18n.js): here for the pages that lay out bot seats. */
export { botLevelName };

/**
 * A bot seat's level in words, to show beside its player's name (`name`, the seat's by
 * default), or null: no bot, a bot of no stored level (a match stored before levels were),
 * or a name that says it already ("beginner bot" plays as "beginner bot", and a list read
 * "beginner bot beginner bot").
 */
export function botBadge(seat, name = seat?.name) {
  if (seat?.kind !== "bot" || !seat.level) return null;
  const level = botLevelName(seat.level);
  return String(playerName(name) ?? "").startsWith(level) ? null : level;
}

/** The badge of `botBadge(seat, name)` as an element, or null. */
export function botBadgeSpan(seat, name = seat?.name) {
  const level = botBadge(seat, name);
  return level ? el("span", { class: "bot", text: level }) : null;
}

/** The most seats a room has. */
const MAX_SEATS = 4;

/** The "who plays the other seats" choices of `game`. */
export function botSeats(game, { idPrefix }) {
  const levels = game.bot_levels || [];
  const about = game.bot_descriptions || {};
  const element = el("div", { class: "bot-seats", id: `${idPrefix}s` },
    el("span", { class: "option-group-label", text: t("Who plays the other seats") }));
  const selects = [];
  for (let seat = 1; seat < MAX_SEATS; seat += 1) {
    const select = el("select", { id: `${idPrefix}-${seat}`, "aria-label": t("who plays seat {seat}", { seat: seat + 1 }), dataset: { seat } },
      el("option", { value: "", text: t("a friend (share the link)") }),
      levels.map((level) => el("option", { value: level, text: botLevelName(level) })));
    const words = el("small", { class: "bot-about", text: about[select.value] || "" });
    select.addEventListener("change", () => { words.textContent = about[select.value] || ""; });
    element.append(el("label", { class: "bot-seat", dataset: { seat } }, t("seat {seat}", { seat: seat + 1 }) + " ", select, words));
    selects.push(select);
  }
  // A match by correspondence (its form's hours a turn filled in) seats registered players
  // only (server/rooms/lobby.py): no bot is offered then, and the form says why.
  const noBots = el("small", { class: "bot-about", hidden: true,
    text: t("A match by correspondence seats registered players: no bots.") });
  element.append(noBots);
  const byPost = () => Boolean(element.closest("form")?.querySelector("[name='turn_hours']")?.value);
  let shown = { seats: 2, first: 1 };
  const update = (seats, first = 1) => {
    shown = { seats, first };
    const post = byPost();
    for (const select of selects) {
      const seat = Number(select.dataset.seat);
      select.parentElement.hidden = post || seat < first || seat >= seats;
    }
    noBots.hidden = !post;
    element.hidden = first >= seats || !levels.length;
  };
  document.addEventListener("input", (e) => {
    if (e.target.name === "turn_hours" && element.isConnected && e.target.form?.contains(element)) update(shown.seats, shown.first);
  });
  return {
    element,
    update,
    param(seats) {
      if (byPost()) return "";
      return selects.filter((s) => Number(s.dataset.seat) >= shown.first && Number(s.dataset.seat) < seats && s.value)
        .map((s) => `${s.dataset.seat}:${s.value}`).join(",");
    },
  };
}
