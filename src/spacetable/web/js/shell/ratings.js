// How a rating is shown (issue 37 item 3): one number, the openskill ordinal, marked
// "provisional" for a player's first rated matches of a game.

import { t, num } from "./i18n.js";

/** The rating as shown: `{ rating, provisional }` from the API. */
export function ratingText(rating) {
  const shown = num(rating.rating, { maximumFractionDigits: 1 });
  return rating.provisional ? t("{rating} (provisional)", { rating: shown }) : shown;
}
