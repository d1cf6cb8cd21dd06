// "My games" for a logged-in player (issue 37 item 4): his correspondence matches, from
// GET /api/me/games, polled now and then. The lobby's top bar shows a link to /me/games with
// how many of them wait on him; when one more does, the turn notification of a room page
// (shell/notify.js: the tab's title and icon, a chime, the browser's notification if
// allowed) calls him back while the tab is hidden.

import { t, tn } from "./i18n.js";
import { el, fetchJSON } from "./dom.js";
import { account } from "./account.js";
import { yourTurn } from "./notify.js";

const POLL_MS = 60_000;

let waitingBefore = 0;

/** The player's correspondence matches (`{name, waiting, games}`), or null for a guest. */
export async function loadMyGames() {
  if (!account) return null;
  try {
    return await fetchJSON("/api/me/games");
  } catch (failure) {
    if (failure.status === 401) return null;
    throw failure;
  }
}

/** Call the player back when more matches wait on him than the last time he was told. */
export function tellWaiting(waiting) {
  yourTurn(waiting > waitingBefore, t("A match by correspondence waits for your move"));
  waitingBefore = waiting;
}

function linkText(waiting) {
  return waiting ? tn("My games ({n} waiting)", "My games ({n} waiting)", waiting, { n: waiting }) : t("My games");
}

/** The top bar's "My games" link with the count waiting on the player, kept fresh. */
export function mountMyGamesLink() {
  const bar = document.querySelector(".topbar");
  if (!account || !bar || bar.querySelector(".my-games-link")) return;
  const link = el("a", { class: "my-games-link", href: "/me/games", text: linkText(0) });
  const nav = bar.querySelector("nav");
  if (nav) nav.append(" · ", link);
  else bar.append(link);
  const refresh = async () => {
    try {
      const mine = await loadMyGames();
      if (!mine) return;
      link.textContent = linkText(mine.waiting);
      link.classList.toggle("waiting", mine.waiting > 0);
      tellWaiting(mine.waiting);
    } catch {
      // The list is a convenience: the lobby works without it.
    }
  };
  refresh();
  setInterval(refresh, POLL_MS);
}
