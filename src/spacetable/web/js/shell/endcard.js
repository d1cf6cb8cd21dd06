// The end of a match where the player looks: the panel that says who won, with Rematch (or
// Play again) and the replay's link, laid over the table instead of at the foot of the side
// column (cut off on a laptop, screens down on a phone). Every game's room shows its end
// this way (the laser games' score panel, the turn games' end panel, a match the players
// stopped), and the replay and referee pages show a match's end on the same card over their
// board (`endCardIn`). "See the table" folds it to its first line, to look at the final
// board; "Show the result" opens it again. Its first lines are always the winner and the
// buttons (Rematch, the replay), so that on a phone they are in sight, above the chat bar.

import { t } from "./i18n.js";
import { $, el } from "./dom.js";

/** The card's words (kept together for translation). */
const WORDS = { fold: t("See the table"), unfold: t("Show the result"), foldTitle: t("fold the result away to see the table"),
  label: t("the end of the match") };

/** The title, the Rematch button and the replay's link go first, in one head. */
function gatherHead(panel) {
  if (panel.querySelector(":scope > .end-head")) return;
  const parts = [":scope > #winner", ":scope > #ending-title", "#rematch", ".replay-link"]
    .map((selector) => panel.querySelector(selector)).filter(Boolean);
  panel.prepend(el("div", { class: "end-head" }, ...parts));
}

/**
 * Show `panel` (already filled: the winner first) as the end card over `wrap` (the room's
 * table, `#table-wrap`), open, scrolled into view. The same panel may be shown again for
 * the next match; hiding it (`panel.hidden = true`) takes the card away.
 */
export function showEndCard(panel, wrap = $("#table-wrap")) {
  if (wrap && panel.parentElement !== wrap) wrap.append(panel);
  gatherHead(panel);
  panel.classList.add("end-card");
  panel.classList.remove("folded");
  panel.setAttribute("aria-label", WORDS.label);
  const toggle = el("button", { type: "button", class: "end-card-fold secondary", "aria-expanded": "true",
    title: WORDS.foldTitle, text: WORDS.fold, on: { click: () => {
      const folded = panel.classList.toggle("folded");
      toggle.textContent = folded ? WORDS.unfold : WORDS.fold;
      toggle.setAttribute("aria-expanded", folded ? "false" : "true");
    } } });
  panel.querySelector(":scope > .end-card-fold")?.remove();
  panel.prepend(toggle);
  // A rematch another player asked for is answered here too, under who won (shell/invite.js).
  const offer = $("#rematch-offer");
  if (offer && wrap === $("#table-wrap")) panel.querySelector(":scope > .end-head").after(offer);
  panel.hidden = false;
  // A phone's card is a sheet fixed along the bottom: bring the final board above it.
  if (wrap && getComputedStyle(panel).position === "fixed") wrap.scrollIntoView({ block: "start" });
  // A board that fits the screen comes whole into view, its card on it (a phone's referee
  // showed the card alone, the board scrolled away above it); a taller one shows its card.
  else if (wrap && wrap.getBoundingClientRect().height <= innerHeight) wrap.scrollIntoView({ block: "nearest" });
  else panel.scrollIntoView({ block: "nearest" });
  return panel;
}

/**
 * A replay's or the referee's end card over `wrap` (its board, which must be positioned):
 * `children` say who won and how (the first one the title), `links` are its buttons. The
 * card is made once per `wrap` and refilled; `hide()` takes it away (the replay stepped
 * back from the end, another table loaded).
 */
export function endCardIn(wrap, id = "end-card") {
  let panel = null;
  return {
    show(children, links = []) {
      panel ??= el("section", { id, class: "panel end-card replay-end-card", hidden: true });
      panel.replaceChildren(el("div", { class: "end-head" }, ...children.slice(0, 1), ...links), ...children.slice(1));
      showEndCard(panel, wrap);
    },
    hide() {
      if (panel) panel.hidden = true;
    },
    get element() {
      return panel;
    },
  };
}
