// The end of a match where the player looks: the panel that says who won, with Rematch (or
// Play again) and the replay's link, laid over the table instead of at the foot of the side
// column (cut off on a laptop, screens down on a phone). Every game's room shows its end
// this way (the laser games' score panel, the turn games' end panel). "See the table" folds
// it to its first line, to look at the final board; "Show the result" opens it again.

import { $, el } from "./dom.js";

/** The card's words (kept together for translation). */
const WORDS = { fold: "See the table", unfold: "Show the result", foldTitle: "fold the result away to see the table" };

/**
 * Show `panel` (already filled: the winner first) as the end card over the room's table
 * (`#table-wrap`), open, scrolled into view. The same panel may be shown again for the
 * next match; hiding it (`panel.hidden = true`) takes the card away.
 */
export function showEndCard(panel) {
  const wrap = $("#table-wrap");
  if (wrap && panel.parentElement !== wrap) wrap.append(panel);
  panel.classList.add("end-card");
  panel.classList.remove("folded");
  panel.setAttribute("aria-label", "the end of the match");
  const toggle = el("button", { type: "button", class: "end-card-fold secondary", "aria-expanded": "true",
    title: WORDS.foldTitle, text: WORDS.fold, on: { click: () => {
      const folded = panel.classList.toggle("folded");
      toggle.textContent = folded ? WORDS.unfold : WORDS.fold;
      toggle.setAttribute("aria-expanded", folded ? "false" : "true");
    } } });
  panel.querySelector(":scope > .end-card-fold")?.remove();
  panel.prepend(toggle);
  panel.hidden = false;
  // A phone's card is a sheet fixed along the bottom: bring the final board above it.
  if (wrap && getComputedStyle(panel).position === "fixed") wrap.scrollIntoView({ block: "start" });
  else panel.scrollIntoView({ block: "nearest" });
  return panel;
}
