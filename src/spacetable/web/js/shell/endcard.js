// The end of a match where the player looks: the panel that says who won, with Rematch and
// the replay's link, laid over the table instead of at the foot of the side column (cut off
// on a laptop, screens down on a phone). Every game's room shows its end with one card,
// written here (`showMatchEnd`, issue 36 item 15): who won, how the match ended, one Rematch
// button, the replay's link and the way back to the lobby, then what only the game has to
// say (its scores); the replay and referee pages show a match's end on the same card over
// their board (`endCardIn`). "See the table" folds it to its first line, to look at the
// final board; "Show the result" opens it again. Its first lines are always the winner and
// the buttons, so that on a phone they are in sight, above the chat bar. Over a board the
// card slides up or down to cover as few pieces as it can (a piece is drawn with a
// `data-piece`): the top ship lay under it.

import { t } from "./i18n.js";
import { $, el, setPhase } from "./dom.js";
import { endingLine, stoppedByPlayers } from "./endings.js";
import { renderRatingChanges } from "./ratings.js";

/** The card's words (kept together for translation). */
const WORDS = { fold: t("See the table"), unfold: t("Show the result"), foldTitle: t("fold the result away to see the table"),
  label: t("the end of the match") };

/** The words of a match's end (kept together for translation; the replay page says them too). */
export const END = {
  youWin: () => t("You win"),
  wins: (player) => t("{player} wins", { player }),
  draw: () => t("Draw"),
  rematch: () => t("Rematch"),
  waiting: () => t("Waiting for the other players…"),
  replay: () => t("Watch the replay"),
  lobby: () => t("Back to the lobby"),
  title: (title) => t("{title}.", { title }),
};

/** "You win" (when `room` plays the winner's seat here), "red wins" or "Draw". */
export function endTitle(room, result) {
  if (!result?.winner) return END.draw();
  return room.isMyWin?.(result.winner) ? END.youWin() : END.wins(result.winner);
}

/** The Rematch button's words again (a declined rematch may be asked again). */
export function rematchLabel() {
  return END.rematch();
}

/**
 * The end of a match in a room, one card for every game: who won ("You win", "red wins",
 * "Draw") in the winner's colour, how it ended (`how`: the game's sentence for an end by
 * its rules; a match its players stopped says who resigned or agreed a draw), the Rematch
 * button for a seated player (`onRematch` after it is sent), the replay's link and the way
 * back to the lobby, then the game's own lines (`details`: its scores). `panel` is the
 * room's element for it, shown over the table; the page's phase turns "over", which puts
 * away what only serves play (the turn notifications' button: css/endings.css).
 */
export function showMatchEnd(room, panel, { result, matchId, how = "", details = [], onRematch = () => {} }) {
  const title = endTitle(room, result);
  const seated = room.me?.role === "player";
  const words = stoppedByPlayers(result) || !how ? endingLine(result) : how;
  const rematch = seated ? el("button", { type: "button", id: "rematch", on: { click: (e) => {
    if (!room.socket.send({ type: "rematch" })) return;
    onRematch();
    e.target.disabled = true;
    e.target.textContent = END.waiting();
  } } }, END.rematch()) : null;
  const links = el("p", { class: "end-links" },
    matchId ? el("a", { id: "replay-link", class: "replay-link", href: `/replay/${encodeURIComponent(matchId)}` }, END.replay()) : null,
    el("a", { id: "lobby-link", href: "/" }, END.lobby()));
  panel.replaceChildren(
    el("div", { class: "end-head" },
      el("p", { id: "winner", class: `end-title ${result?.winner ? "winner" : "draw"}`, dataset: { winner: result?.winner ?? "" },
        style: result?.winner ? `--team: ${room.colour(result.winner)}` : null, text: title }),
      el("p", { id: "end-reason", class: "end-reason", dataset: { ending: result?.ending || "rules" }, text: words }),
      rematch, links),
    ...details.filter(Boolean));
  panel.classList.add("panel", "match-end");
  showEndCard(panel);
  setPhase("over");
  $("#status").textContent = END.title(title);
  return panel;
}

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
  // A rated match's line, known before the card opened (a laser battle's card opens after its replay).
  renderRatingChanges(panel);
  // A rematch another player asked for is answered here too, under who won (shell/invite.js).
  const offer = $("#rematch-offer");
  if (offer && wrap === $("#table-wrap")) panel.querySelector(":scope > .end-head").after(offer);
  panel.hidden = false;
  placeClear(panel, wrap);
  // A phone's card is a sheet fixed along the bottom: bring the final board above it.
  if (wrap && getComputedStyle(panel).position === "fixed") wrap.scrollIntoView({ block: "start" });
  // A board that fits the screen comes whole into view, its card on it (a phone's referee
  // showed the card alone, the board scrolled away above it); a taller one shows its card.
  else if (wrap && wrap.getBoundingClientRect().height <= innerHeight) wrap.scrollIntoView({ block: "nearest" });
  else panel.scrollIntoView({ block: "nearest" });
  return panel;
}

/** How much of the pieces' boxes `box` covers (px²). */
function covered(box, pieces) {
  return pieces.reduce((sum, p) => sum + Math.max(0, Math.min(box.right, p.right) - Math.max(box.left, p.left))
    * Math.max(0, Math.min(box.bottom, p.bottom) - Math.max(box.top, p.top)), 0);
}

/**
 * Slide a card laid over its board (not a phone's sheet fixed to the screen) up or down to
 * where it covers the fewest pieces (`[data-piece]`), staying in the window when it can:
 * where the CSS puts it first, else the nearest clear place.
 */
function placeClear(panel, wrap) {
  panel.style.removeProperty("top");
  panel.style.removeProperty("bottom");
  if (!wrap || getComputedStyle(panel).position !== "absolute") return;
  const pieces = [...wrap.querySelectorAll("[data-piece]")].map((p) => p.getBoundingClientRect()).filter((r) => r.width && r.height);
  const card = panel.getBoundingClientRect();
  if (!pieces.length || !covered(card, pieces)) return;
  const area = wrap.getBoundingClientRect();
  const margin = 8;
  const lowest = area.height - card.height - margin;
  if (lowest <= margin) return;
  const first = card.top - area.top;
  const tops = Array.from({ length: 21 }, (_, i) => margin + ((lowest - margin) * i) / 20)
    .sort((a, b) => Math.abs(a - first) - Math.abs(b - first));
  const inWindow = (top) => area.top + top >= 0 && area.top + top + card.height <= innerHeight;
  const score = (top) => covered(new DOMRect(card.left, area.top + top, card.width, card.height), pieces);
  const best = [...tops.filter(inWindow), ...tops.filter((top) => !inWindow(top))]
    .reduce((found, top) => (score(top) < score(found) ? top : found));
  panel.style.top = `${best}px`;
  panel.style.bottom = "auto";
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
      // The title, then how it ended (an "end-reason" line), then the buttons, as a room's end.
      const [title, ...rest] = children;
      const how = rest.filter((child) => child.classList?.contains("end-reason"));
      panel.replaceChildren(el("div", { class: "end-head" }, title, ...how, ...links), ...rest.filter((child) => !how.includes(child)));
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
