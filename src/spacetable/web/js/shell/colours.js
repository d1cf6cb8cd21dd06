// Seat colours, shared by every game's table, seat list and replay.

/**
 * Team colours by seat index (as render/_drawing.py's TEAM_HEX), after Okabe and Ito's
 * palette for colour-blind readers: red, blue, bluish green and reddish purple stay apart
 * with any of the common colour blindnesses (the red/green pair differs in lightness too).
 * Their vermillion is an orange; the seat is called red, so it is drawn red: a scarlet about as
 * far from the green for a colour-blind reader as the vermillion was (render/_drawing.py).
 */
const PLAYER_COLOURS = ["#ff330f", "#0072b2", "#009e73", "#cc79a7"];
/** Team colour names by seat index. */
export const COLOUR_NAMES = ["red", "blue", "green", "purple"];
/** The colour of someone who watches (no seat). */
export const WATCHER_COLOUR = "#8891a8";

/** The colour of seat `index` (cycling past four). */
export function colourOf(index) {
  return PLAYER_COLOURS[((index % 4) + 4) % 4];
}
