// /players/{name}: a registered player's ratings (one per game, "provisional" for the
// first matches), record and latest matches linking to their replays and to the registered
// opponents' pages (GET /api/players);
// on his own, the link to delete his account; on another's, for a logged-in player, his
// buttons: Follow (PUT/DELETE /api/following/{name}), Block (PUT/DELETE /api/blocking/{name}),
// Challenge (shell/challenges.js) and Report (shell/report.js).

import { t, num } from "../shell/i18n.js";
import { $, el, fetchJSON, showError } from "../shell/dom.js";
import { challengeButton } from "../shell/challenges.js";
import { reportButton } from "../shell/report.js";
import { errorText } from "../shell/phrase.js";
import { listedGames, matchRow } from "../shell/matchlist.js";
import { ratingText } from "../shell/ratings.js";
import { account } from "../shell/account.js";
import { gameList } from "../games/index.js";

/**
 * A button that turns a relation with `name` on and off (`path`: /api/following or
 * /api/blocking): pressed when on; its words say what a press does.
 */
function toggle(path, name, on, { id, words, cls }) {
  const button = el("button", { type: "button", id, class: `secondary ${cls}` });
  const show = (state) => {
    button.setAttribute("aria-pressed", String(state));
    button.textContent = state ? words.undo : words.doit;
  };
  show(on);
  button.addEventListener("click", async () => {
    const error = $("#player-actions-error");
    error.hidden = true;
    const wanted = button.getAttribute("aria-pressed") !== "true";
    button.disabled = true;
    try {
      await fetchJSON(`${path}/${encodeURIComponent(name)}`, { method: wanted ? "PUT" : "DELETE" });
      show(wanted);
    } catch (e) {
      showError(error, errorText(e));
    } finally {
      button.disabled = false;
    }
  });
  return button;
}

/** Follow and Block, each pressed when on (GET /api/following, /api/blocking say which). */
async function relationButtons(name) {
  const names = (list) => new Set((list || []).map((entry) => (typeof entry === "string" ? entry : entry.name)));
  const [following, blocking] = await Promise.all([fetchJSON("/api/following"), fetchJSON("/api/blocking")]);
  const follow = toggle("/api/following", name, names(following).has(name), { id: "follow", cls: "follow-button",
    words: { doit: t("Follow"), undo: t("Unfollow") } });
  const block = toggle("/api/blocking", name, names(blocking).has(name), { id: "block", cls: "block-button",
    words: { doit: t("Block"), undo: t("Unblock") } });
  return [follow, block];
}

/** A logged-in player's buttons on another player's page: challenge, follow, block, report. */
async function showActions(name) {
  if (!account || name === account) return;
  const box = $("#player-actions");
  const report = reportButton(name, {}, { className: "secondary report-button" });
  report.id = "report";
  box.replaceChildren(challengeButton(name, { id: "challenge" }), report);
  box.hidden = false;
  report.before(...await relationButtons(name));
}

function gameTitle(games, key) {
  const found = games.find((game) => game.key === key);
  return found ? found.title : key;
}

async function main() {
  const name = decodeURIComponent(location.pathname.split("/").pop());
  try {
    const [games, player] = await Promise.all([gameList(), fetchJSON(`/api/players/${encodeURIComponent(name)}`)]);
    $("#player-name").textContent = player.name;
    // A bot account (issue 72): its name says BOT, as its seats do.
    if (player.bot) $("#player-name").append(el("span", { class: "bot-tag", title: t("a bot account: a program plays for it"), text: t("BOT") }));
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
    await showActions(player.name);
  } catch (error) {
    showError($("#player-error"), errorText(error));
  }
}

main();
