// How a rating is shown (issue 37 item 3): one number, the openskill ordinal, marked
// "provisional" for a player's first rated matches of a game.

import { t, num, playerName } from "./i18n.js";
import { el } from "./dom.js";

/** The rating as shown: `{ rating, provisional }` from the API. */
export function ratingText(rating) {
  const shown = num(rating.rating, { maximumFractionDigits: 1 });
  return rating.provisional ? t("{rating} (provisional)", { rating: shown }) : shown;
}

/** The last rated match's line ("Rated match: Ann 0 → 3.4, ..."), or null (none, or a new match began). */
let latest = null;

/** A match begins: the last one's rating line is forgotten. */
export function forgetRatingChanges() {
  latest = null;
}

/** Why a match over between registered players is not rated, from the room's `unrated`
 * (store/ratings.py), in words; null when it is rated (or the room gives no reason). */
export function unratedWhy(unrated) {
  if (unrated === "early") return t("Not rated: the match ended before its first turn or round was over.");
  if (unrated === "repeated") return t("Not rated: two of its players already played three matches of this game together within 24 hours.");
  if (unrated === "casual") return t("Not rated: a casual match, as its players chose.");
  return null;
}

/**
 * A rated match's end says so (issue 37: the match was rated in silence): each rated seat's
 * rating before it and after, "Rated match: Ann 0 → 3.4, Bob 0 → -1.8", on the end card
 * (`.match-end`), under who won. `before`: name -> the rating the room showed while the
 * match was played; `seats`: the room's seats after it (the server rates the match, then
 * tells the room). Nothing when no rating moved (a match of guests, or not rated); why not,
 * when the room says (`unrated`: stopped before its first turn or round, or played too
 * often together). The line
 * is kept: a card that opens later (a laser battle's, after its replay) shows it as it
 * opens (renderRatingChanges, called by shell/endcard.js).
 */
export function showRatingChanges(before, seats, unrated = null) {
  const why = unratedWhy(unrated);
  const moved = why ? [] : (seats || []).filter((s) => s.rating && before.has(s.name) && before.get(s.name) !== s.rating.rating);
  if (!why && !moved.length) return;
  const shown = (value) => num(value, { maximumFractionDigits: 1 });
  const changes = moved.map((s) => `${playerName(s.name)} ${shown(before.get(s.name))} → ${shown(s.rating.rating)}`).join(", ");
  latest = why || t("Rated match: {changes}", { changes });
  const card = document.querySelector(".match-end:not([hidden])");
  if (card) renderRatingChanges(card);
}

/** Put the last rated match's line on end card `card`, under who won (nothing if none is known). */
export function renderRatingChanges(card) {
  if (!latest) return;
  card.querySelector(":scope > .end-ratings")?.remove();
  const line = el("p", { class: "end-ratings", text: latest });
  const head = card.querySelector(":scope > .end-head");
  if (head) head.after(line);
  else card.append(line);
}
