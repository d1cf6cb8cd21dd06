// /matches: finished matches with their players, scores and winner, linking to replays,
// a page at a time: "older" and "newer" follow the list (?before=ID / ?after=ID), of one
// game or one player's if the form above it asks (?ruleset=KEY, ?player=NAME).

import { t } from "../shell/i18n.js"; // (and the page's language switch)
import { $, clear, el, showError } from "../shell/dom.js";
import { listedGames, loadMatches, matchRow } from "../shell/matchlist.js";
import { gameList } from "../games/index.js";

/** Matches on one page. */
const PAGE = 50;

/** The filters the address asks for (blank ones left out). */
function filtersOf(params) {
  const filters = {};
  const ruleset = params.get("ruleset");
  const player = (params.get("player") || "").trim();
  if (ruleset) filters.ruleset = ruleset;
  if (player) filters.player = player;
  return filters;
}

/** The list's address with these filters and this cursor. */
function listLink(filters, cursor = {}) {
  const query = new URLSearchParams({ ...filters, ...cursor });
  return `/matches${query.size ? `?${query}` : ""}`;
}

/**
 * The page the address asks for, newest first, and whether there are older and newer
 * matches. One match more than a page is asked for, to know whether another page follows.
 */
async function loadPage(params, filters) {
  const before = params.get("before");
  const after = params.get("after");
  if (after) {
    const found = await loadMatches(PAGE + 1, { after, ...filters });
    if (found.length > PAGE) return { matches: found.slice(1), older: true, newer: true };
    // Fewer than a page are newer than that: the newest page is the one to show.
    history.replaceState(null, "", listLink(filters));
  }
  const found = await loadMatches(PAGE + 1, before && !after ? { before, ...filters } : filters);
  return { matches: found.slice(0, PAGE), older: found.length > PAGE, newer: Boolean(before && !after) };
}

function showPager({ matches, older, newer }, filters) {
  const first = matches[0];
  const last = matches[matches.length - 1];
  const newerLink = $("#newer");
  const olderLink = $("#older");
  newerLink.hidden = !(newer && first);
  $("#newest").hidden = !newer;
  $("#newest").href = listLink(filters);
  olderLink.hidden = !(older && last);
  if (first) newerLink.href = listLink(filters, { after: first.id });
  if (last) olderLink.href = listLink(filters, { before: last.id });
}

/** The form shows the filters in force: every game to pick from, and a way back to all. */
function showFilters(games, filters) {
  const select = $("#filter-game");
  for (const game of games) select.append(el("option", { value: game.key, text: game.title }));
  select.value = filters.ruleset || "";
  $("#filter-player").value = filters.player || "";
  $("#filter-clear").hidden = !filters.ruleset && !filters.player;
  // A blank field is left out of the address.
  $("#match-filters").addEventListener("submit", (event) => {
    event.preventDefault();
    const chosen = filtersOf(new URLSearchParams(new FormData(event.target)));
    location.assign(listLink(chosen));
  });
}

async function main() {
  const params = new URLSearchParams(location.search);
  const filters = filtersOf(params);
  try {
    const [games, page] = await Promise.all([gameList(), loadPage(params, filters)]);
    showFilters(games, filters);
    const listed = await listedGames(page.matches);
    const body = clear($("#matches tbody"));
    for (const summary of page.matches) body.append(matchRow(summary, listed));
    const none = $("#no-matches");
    none.hidden = page.matches.length > 0;
    if (filters.ruleset || filters.player) none.textContent = t("No finished matches of this game or player.");
    showPager(page, filters);
  } catch (error) {
    showError($("#matches-error"), t("Cannot load the matches: {error}", { error: error.message }));
    $("#newest").hidden = false;
  }
}

main();
