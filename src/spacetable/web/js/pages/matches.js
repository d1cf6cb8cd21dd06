// /matches: finished matches with their players, scores and winner, linking to replays,
// a page at a time: "older" and "newer" follow the list (?before=ID / ?after=ID).

import { t } from "../shell/i18n.js"; // (and the page's language switch)
import { $, clear } from "../shell/dom.js";
import { loadMatches, matchRow } from "../shell/matchlist.js";
import { gameList } from "../games/index.js";

/** Matches on one page. */
const PAGE = 50;

/**
 * The page the address asks for, newest first, and whether there are older and newer
 * matches. One match more than a page is asked for, to know whether another page follows.
 */
async function loadPage(params) {
  const before = params.get("before");
  const after = params.get("after");
  if (after) {
    const found = await loadMatches(PAGE + 1, { after });
    if (found.length > PAGE) return { matches: found.slice(1), older: true, newer: true };
    // Fewer than a page are newer than that: the newest page is the one to show.
    history.replaceState(null, "", "/matches");
  }
  const found = await loadMatches(PAGE + 1, before && !after ? { before } : {});
  return { matches: found.slice(0, PAGE), older: found.length > PAGE, newer: Boolean(before && !after) };
}

function showPager({ matches, older, newer }) {
  const first = matches[0];
  const last = matches[matches.length - 1];
  const newerLink = $("#newer");
  const olderLink = $("#older");
  newerLink.hidden = !(newer && first);
  $("#newest").hidden = !newer;
  olderLink.hidden = !(older && last);
  if (first) newerLink.href = `/matches?after=${encodeURIComponent(first.id)}`;
  if (last) olderLink.href = `/matches?before=${encodeURIComponent(last.id)}`;
}

async function main() {
  try {
    const [games, page] = await Promise.all([gameList(), loadPage(new URLSearchParams(location.search))]);
    const body = clear($("#matches tbody"));
    for (const summary of page.matches) body.append(matchRow(summary, games));
    $("#no-matches").hidden = page.matches.length > 0;
    showPager(page);
  } catch (error) {
    const box = $("#matches-error");
    box.textContent = t("Cannot load the matches: {error}", { error: error.message });
    box.hidden = false;
    $("#newest").hidden = false;
  }
}

main();
