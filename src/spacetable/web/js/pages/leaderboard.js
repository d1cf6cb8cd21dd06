// /leaderboard/{game}: the best rated players of a game, the provisional ones after the
// others (GET /api/leaderboard); the menu goes to another game's. A logged-in player may
// challenge anyone listed (shell/challenges.js). The people's and the bot accounts' are
// apart (issue 72): the Bots tab (?bots=1) lists the bots'.

import { t, num } from "../shell/i18n.js";
import { $, el, fetchJSON, showError } from "../shell/dom.js";
import { errorText } from "../shell/phrase.js";
import { gameList } from "../games/index.js";
import { ratingText } from "../shell/ratings.js";
import { challengeButton } from "../shell/challenges.js";

async function main() {
  const key = decodeURIComponent(location.pathname.split("/").pop());
  const bots = new URLSearchParams(location.search).get("bots") === "1";
  const here = `/leaderboard/${encodeURIComponent(key)}`;
  $("#board-people").href = here;
  $("#board-bots").href = `${here}?bots=1`;
  (bots ? $("#board-bots") : $("#board-people")).setAttribute("aria-current", "page");
  $("#bots-about").hidden = !bots;
  const menu = $("#board-game");
  try {
    const games = (await gameList()).filter((game) => game.playable);
    for (const game of games) menu.append(el("option", { value: game.key, text: game.title }));
    menu.value = key;
    menu.addEventListener("change", () => location.assign(`/leaderboard/${encodeURIComponent(menu.value)}${bots ? "?bots=1" : ""}`));
    const board = await fetchJSON(`/api/leaderboard/${encodeURIComponent(key)}${bots ? "?bots=1" : ""}`);
    const body = $("#board tbody");
    board.players.forEach((player, index) => {
      const link = el("a", { href: `/players/${encodeURIComponent(player.name)}`, text: player.name, translate: "no" });
      body.append(el("tr", {},
        el("td", { text: num(index + 1) }), el("td", {}, link),
        el("td", { class: "rating", dataset: { label: t("rating") }, text: ratingText(player) }),
        el("td", { dataset: { label: t("matches") }, text: num(player.matches) }),
        el("td", { class: "challenge-cell" }, challengeButton(player.name))));
    });
    if (bots) $("#no-players").textContent = t("No bot account is rated in this game yet.");
    $("#no-players").hidden = board.players.length > 0;
    $("#board").hidden = board.players.length === 0;
  } catch (error) {
    showError($("#board-error"), errorText(error));
  }
}

main();
