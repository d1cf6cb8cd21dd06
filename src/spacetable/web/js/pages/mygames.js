// /me/games: a logged-in player's unfinished correspondence matches (issue 37 item 4),
// those waiting for his move first, each with the time left and a link to its room; a
// guest is asked to log in. Refreshed every minute; when one more match waits on him the
// turn notification calls him back (shell/mygames.js).

import { t, tn } from "../shell/i18n.js";
import { $, clear, el, showError } from "../shell/dom.js";
import { loadMyGames, tellWaiting } from "../shell/mygames.js";
import { missedTurnsWords } from "../shell/missed.js";

const REFRESH_MS = 60_000;

/** Seconds a count of time left may round up by: a turn of 24 hours just begun (its
 * deadline read a few seconds later) reads "24 hours left", not 23. */
const ROUND_UP_S = 60;

function timeLeft(seconds) {
  if (seconds == null) return "";
  const hours = Math.floor((seconds + ROUND_UP_S) / 3600);
  if (hours >= 48) return tn("{n} day left", "{n} days left", Math.floor(hours / 24), { n: Math.floor(hours / 24) });
  if (hours >= 1) return tn("{n} hour left", "{n} hours left", hours, { n: hours });
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return tn("{n} minute left", "{n} minutes left", minutes, { n: minutes });
}

function item(game) {
  const players = el("span", { class: "my-game-players", text: game.players.join(" · ") });
  players.setAttribute("translate", "no");
  let status;
  if (game.phase === "lobby") status = t("Waiting for the players to be ready");
  else if (game.waiting_on_you) status = t("Your move");
  else status = t("Waiting for {names}", { names: game.waiting_on.join(", ") });
  const left = timeLeft(game.seconds_left);
  // His own turns that ran out in a row, and how many more lose (nothing if none did).
  const warning = missedTurnsWords(game.your_ran_out, game.your_missed, game.lose_at ?? 3);
  const line = el(
    "li",
    { class: `my-game${game.waiting_on_you ? " mine" : ""}` },
    el("a", { class: "my-game-open", href: `/rooms/${encodeURIComponent(game.room)}`, text: t(game.game) }),
    players,
    el("span", { class: "my-game-status", text: status }),
    el("span", { class: "my-game-left muted", text: [left, tn("{n} hour a turn", "{n} hours a turn", game.turn_hours, { n: game.turn_hours })].filter(Boolean).join(" · ") }),
    warning ? el("span", { class: "my-game-missed", role: "note", text: warning }) : null,
  );
  return line;
}

async function refresh() {
  const list = $("#my-games");
  const error = $("#my-games-error");
  try {
    const mine = await loadMyGames();
    error.hidden = true;
    if (!mine) {
      $("#my-games-login").hidden = false;
      $("#my-games-login-link").textContent = t("Log in");
      clear(list);
      return;
    }
    clear(list);
    for (const game of mine.games) list.append(item(game));
    $("#no-games").hidden = mine.games.length > 0;
    tellWaiting(mine.waiting);
  } catch (failure) {
    showError(error, failure.message);
  }
}

refresh();
setInterval(refresh, REFRESH_MS);
