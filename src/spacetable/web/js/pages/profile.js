// /players/{name}: a registered player's ratings (one per game, "provisional" for the
// first matches), record and latest matches linking to their replays and to the registered
// opponents' pages (GET /api/players);
// on his own, the link to delete his account.

import { t, num } from "../shell/i18n.js";
import { $, el, fetchJSON, showError } from "../shell/dom.js";
import { errorText } from "../shell/phrase.js";
import { listedGames, matchRow } from "../shell/matchlist.js";
import { ratingText } from "../shell/ratings.js";
import { account } from "../shell/account.js";
import { gameList } from "../games/index.js";

function gameTitle(games, key) {
  const found = games.find((game) => game.key === key);
  return found ? found.title : key;
}

async function main() {
  const name = decodeURIComponent(location.pathname.split("/").pop());
  try {
    const [games, player] = await Promise.all([gameList(), fetchJSON(`/api/players/${encodeURIComponent(name)}`)]);
    $("#player-name").textContent = player.name;
    document.title = `${player.name} — spacetable`;
    const since = new Date(player.since * 1000).toLocaleDateString(document.documentElement.lang);
    $("#player-since").textContent = t("Playing here since {date}", { date: since });
    const ratings = $("#ratings tbody");
    for (const [key, rating] of Object.entries(player.ratings)) {
      const link = el("a", { href: `/leaderboard/${encodeURIComponent(key)}`, text: gameTitle(games, key) });
      // (On a phone the columns' titles are hidden: each number says what it counts.)
      const cell = (label, value) => el("td", { dataset: { label }, text: num(value) });
      ratings.append(el("tr", {},
        el("td", {}, link), el("td", { class: "rating", dataset: { label: t("rating") }, text: ratingText(rating) }),
        cell(t("matches"), rating.matches), cell(t("wins"), rating.wins),
        cell(t("draws"), rating.draws), cell(t("losses"), rating.losses)));
    }
    $("#no-ratings").hidden = Object.keys(player.ratings).length > 0;
    $("#ratings").hidden = Object.keys(player.ratings).length === 0;
    const listed = await listedGames(player.matches);
    const matches = $("#matches tbody");
    for (const summary of player.matches) matches.append(matchRow(summary, listed, { linkOthers: player.name }));
    $("#no-matches").hidden = player.matches.length > 0;
    $("#matches").hidden = player.matches.length === 0;
    // His own profile: the way to delete his account (/me/delete).
    $("#own-account").hidden = player.name !== account;
  } catch (error) {
    showError($("#player-error"), errorText(error));
  }
}

main();
