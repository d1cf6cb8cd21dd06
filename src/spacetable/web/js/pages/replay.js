// The replay page: the stored match (GET /api/matches/{id}) is shown by its game's module
// (games/index.js), the one that plays its ruleset. When the replay reaches the match's end
// (the page's phase turns "over"), the end shows on a card over the board, where the player
// looks, whatever the game (shell/endcard.js): the game's own card if it shows one (the
// laser games' scores), else who won and how, with the way to the other matches. Before
// that, the result is kept for the end (issue 20 item 13): the side panel's ending line and
// the game's own result line (class "game-result") show once the replay is over, or when
// the viewer asks ("Show the result"). A match that cannot be loaded leaves no table: the
// page says why, with the way to the finished matches and the lobby.

import { t } from "../shell/i18n.js"; // the page's language and its switch
import { $, el, fetchJSON, showError } from "../shell/dom.js";
import { errorText } from "../shell/phrase.js";
import { gameKeyOf, loadGame } from "../games/index.js";
import { endingLine, stoppedByPlayers } from "../shell/endings.js";
import { END, endCardIn } from "../shell/endcard.js";
import { colourOf } from "../shell/colours.js";

/** The page's words (kept together for translation). */
const WORDS = {
  matches: () => t("Other finished matches"),
  showResult: () => t("Show the result"),
  finished: () => t("Finished matches"),
};

const matchId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());

/** The players of `match` in seat order (for their colours). */
function playersOf(match) {
  if (match.options?.players) return match.options.players;
  if (match.seats?.length) return match.seats.map((s) => s.player);
  return match.result?.table?.players || [];
}

/**
 * Show the end card whenever the replay's phase turns "over", and take it away when the
 * replay steps back; a game that shows its own end card keeps it.
 */
function endAtTheEnd(match) {
  const card = endCardIn($("#table-wrap"), "replay-end");
  const result = match.result || {};
  const players = playersOf(match);
  const seat = players.indexOf(result.winner);
  const update = () => {
    if (document.body.dataset.phase !== "over") {
      card.hide();
      return;
    }
    const own = [...document.querySelectorAll("#table-wrap .end-card")].some((c) => c !== card.element && !c.hidden);
    if (own) return;
    // The game's own line about the result (its element of class "game-result"), if it writes
    // one: a match its players stopped is said once, by the ending's line.
    const detail = stoppedByPlayers(result) ? "" : document.querySelector(".game-result")?.textContent || "";
    card.show([
      el("p", { class: `end-title${result.winner ? " winner" : " draw"}`, id: "winner", dataset: { winner: result.winner ?? "" },
        style: seat >= 0 ? `--team: ${colourOf(seat)}` : null, text: result.winner ? END.wins(result.winner) : END.draw() }),
      el("p", { class: "end-reason", id: "replay-end-reason", text: endingLine(result) }),
      ...(detail ? [el("p", { class: "end-detail muted", text: detail })] : []),
    ], [el("a", { class: "button secondary", href: "/matches", text: WORDS.matches() })]);
  };
  new MutationObserver(update).observe(document.body, { attributes: true, attributeFilter: ["data-phase"] });
  update();
}

try {
  const match = await fetchJSON(`/api/matches/${encodeURIComponent(matchId)}`);
  const game = await loadGame(await gameKeyOf(match.ruleset));
  await game.replay({}, match);
  // How the match ended, in words, whatever the game (a resignation, a draw agreed...):
  // kept for the end, with a button to see it before (css/endings.css .replay-result).
  $("#replay-ending").textContent = endingLine(match.result);
  $("#replay-ending").hidden = false;
  for (const line of document.querySelectorAll("#replay-ending, .game-result")) line.classList.add("replay-result");
  $("#replay-ending").before(el("button", { type: "button", id: "show-result", class: "secondary show-result",
    on: { click: () => document.body.classList.add("result-shown") } }, WORDS.showResult()));
  endAtTheEnd(match);
} catch (error) {
  // Nothing to show on the table: the refusal takes the page, with the ways on from it.
  document.body.dataset.phase = "missing";
  $("#table-wrap").hidden = true;
  const box = $("#replay-error");
  showError(box, t("Cannot load match {match}: {error}", { match: matchId, error: errorText(error) }));
  box.after(el("p", { class: "replay-ways" }, [
    el("a", { class: "button", href: "/matches", text: WORDS.finished() }),
    el("a", { class: "button secondary", href: "/", text: END.lobby() }),
  ]));
}
