// The lobby's "Play now" (issue 69 item 2): a game, its seats when the game allows more
// than two (its options schema says), real time or correspondence (when the game can be
// played a turn a day: its schema has `turn_hours`), rated or casual and, for a logged-in
// player, the ratings of the opponents he wants. Pressing it asks the server for an
// opponent (POST /api/seeks); the section then says how long it has looked, with Cancel
// (DELETE /api/seeks/{id}). The server's pool pairs waiting players and sends each page
// `paired` on the lobby socket (shell/lobbysocket.js): the page opens the room, where the
// players are seated already. After OFFER_BOT_S with nobody, it offers a bot instead.
// A guest seeks casual real-time games only: the form says so and leaves out the rest.
// A seek of his still open when the lobby opens (a reload, a correspondence seek waiting
// for days) is waited on again, with its Cancel (GET /api/seeks).
//
// API:
//   mountPlayNow({ games, playBot })  games: GET /api/games's entries; playBot(game,
//                                     seats): open a room of `game` against bots.

import { num, t, tn } from "./i18n.js";
import { $, el, fetchJSON, postJSON, saveName, showError } from "./dom.js";
import { errorText } from "./phrase.js";
import { account } from "./account.js";
import { ratingText } from "./ratings.js";
import { lobbySocket } from "./lobbysocket.js";
import { gameTitle, openPairedRoom, paceWords } from "./challenges.js";

/** Seconds with nobody found before the page offers a bot. */
export const OFFER_BOT_S = 30;
/** The hours a correspondence turn lasts unless the player says otherwise. */
const DEFAULT_TURN_HOURS = 24;

/** The seeks this page waits on: {id, game, seats, since} (null when it waits on none). */
let seeking = null;
let ticker = null;
/** Whether a seek is on its way to the server, and a pairing heard meanwhile (the pool may
 * pair it before the page hears its id). */
let posting = false;
let early = null;

/** The game's seats as its schema bounds them: {min, max, byDefault} (2 seats when it says none). */
function seatRange(game) {
  const seats = game.options.properties.seats;
  if (!seats || seats.minimum === undefined) return { min: 2, max: 2, byDefault: 2 };
  return { min: seats.minimum, max: seats.maximum ?? seats.minimum, byDefault: seats.default ?? seats.minimum };
}

/** The bounds of the game's hours a turn when it can be played by correspondence, else null. */
function turnHours(game) {
  const field = game.options.properties.turn_hours;
  if (!field) return null;
  const hours = (field.anyOf || [field]).find((option) => option.type === "integer" || option.type === "number");
  return hours ? { min: hours.minimum ?? 1, max: hours.maximum ?? 168 } : null;
}

/** The logged-in player's ratings by game (GET /api/players/{name}), once loaded. */
let myRatings = {};

/** Under the rating range, the player's own rating in the chosen game (what the range is
 * measured against): a newcomer's is 0 until his first rated match. */
function showMyRating(game) {
  const mine = myRatings[game.key];
  const rating = mine ? ratingText(mine) : num(0);
  $("#play-now-mine").textContent = t("Your rating in {game}: {rating}", { game: game.title, rating });
}

/** Show the fields the chosen game offers (its seats, correspondence) and the player may use. */
function showFields(games) {
  const game = games.find((g) => g.key === $("#play-now-game").value);
  if (!game) return;
  if (account) showMyRating(game);
  const seats = seatRange(game);
  const seatMenu = $("#play-now-seats");
  const was = Number(seatMenu.value) || seats.byDefault;
  seatMenu.replaceChildren(...Array.from({ length: seats.max - seats.min + 1 }, (_, i) => seats.min + i)
    .map((n) => el("option", { value: n, text: tn("{n} player", "{n} players", n) })));
  seatMenu.value = String(Math.min(Math.max(was, seats.min), seats.max));
  $("#play-now-seats-field").hidden = seats.max === seats.min;
  const hours = turnHours(game);
  const pace = $("#play-now-pace");
  $("#play-now-pace-field").hidden = !hours || !account;
  if (!hours || !account) pace.value = "realtime";
  const input = $("#play-now-hours");
  if (hours) {
    input.min = hours.min;
    input.max = hours.max;
  }
  $("#play-now-hours-field").hidden = pace.value !== "correspondence" || $("#play-now-pace-field").hidden;
}

/** A rating bound typed in the range fields: a number, or null when left empty. */
function bound(input) {
  const text = input.value.trim();
  if (text === "") return null;
  const value = Number(text);
  if (!Number.isFinite(value)) throw new Error(t("a rating is a number"));
  return value;
}

/** The POST /api/seeks body the form says. */
function seekBody(games) {
  const game = games.find((g) => g.key === $("#play-now-game").value);
  const body = { game: game.key, rated: Boolean(account) && $("#play-now-rated").checked };
  if (!$("#play-now-seats-field").hidden) body.seats = Number($("#play-now-seats").value);
  if (!$("#play-now-hours-field").hidden) body.turn_hours = Number($("#play-now-hours").value);
  if (account) {
    const range = [bound($("#play-now-min")), bound($("#play-now-max"))];
    if (range.some((value) => value !== null)) body.range = range;
  }
  return body;
}

/** Say how long the page has been looking; past OFFER_BOT_S, offer a bot. */
function tick() {
  if (!seeking) return;
  const seconds = Math.max(0, Math.floor((Date.now() - seeking.since) / 1000));
  $("#play-now-status").textContent = seeking.correspondence
    ? t("Looking for an opponent… You may leave this page: once one is found, the match waits for you in My games.")
    : tn("Looking for an opponent… {n} second", "Looking for an opponent… {n} seconds", seconds);
  $("#play-now-offer").hidden = seeking.correspondence || seconds < OFFER_BOT_S;
}

/** Show the form, or the waiting line. */
function showWaiting(waiting) {
  $("#play-now").hidden = waiting;
  $("#play-now-waiting").hidden = !waiting;
  // The seek this page waits on (shell/toasts.js leaves its pairing to this page).
  if (waiting) document.body.dataset.seek = seeking.id;
  else delete document.body.dataset.seek;
  clearInterval(ticker);
  if (waiting) {
    tick();
    ticker = setInterval(tick, 1000);
  } else $("#play-now-offer").hidden = true;
}

async function seek(event, games) {
  event.preventDefault();
  const error = $("#play-now-error");
  error.hidden = true;
  saveName($("#name").value);
  let body;
  try {
    body = seekBody(games);
  } catch (e) {
    showError(error, t("Cannot look for an opponent: {error}", { error: errorText(e) }));
    return;
  }
  const button = $("#play-now-start");
  button.disabled = true;
  posting = true;
  early = null;
  document.body.dataset.seek = ""; // looking (shell/toasts.js leaves its pairing to this page)
  try {
    const { id } = await postJSON("/api/seeks", body);
    await wait({ id, ...body });
    if (early?.seek === id) found(early);
  } catch (e) {
    delete document.body.dataset.seek;
    showError(error, t("Cannot look for an opponent: {error}", { error: errorText(e) }));
  } finally {
    posting = false;
    early = null;
    button.disabled = false;
  }
}

/** Wait on `seek` (a POST /api/seeks body with its id): say for what, and for how long. */
async function wait(seek) {
  const seats = seek.seats ?? 2;
  seeking = { id: seek.id, game: seek.game, seats, since: Date.now(), correspondence: Boolean(seek.turn_hours) };
  showWaiting(true);
  const players = tn("{n} player", "{n} players", seats);
  $("#play-now-what").textContent = `${await gameTitle(seek.game)} · ${players} · ${paceWords(seek)}`;
}

/** A seek of this player's still open (the page reloaded, a correspondence seek waiting):
 * the section waits on it again, so that it can be cancelled (one seek a game). */
async function resume() {
  try {
    const { mine } = await fetchJSON("/api/seeks");
    if (mine?.length && !seeking && !posting) await wait(mine[0]);
  } catch {
    // The server restarting: the form stays, and a second seek of a game is refused in words.
  }
}

/** This page's seek is paired: open the room, where the players are seated already. */
function found(message) {
  seeking = null;
  clearInterval(ticker);
  $("#play-now-status").textContent = t("Opponent found: opening the room…");
  $("#play-now-offer").hidden = true;
  $("#play-now-cancel").disabled = true;
  openPairedRoom(message);
}

/** Stop looking (the server forgets the seek); true when it is forgotten. */
async function cancel() {
  if (!seeking) return true;
  const { id } = seeking;
  try {
    await fetchJSON(`/api/seeks/${encodeURIComponent(id)}`, { method: "DELETE" });
  } catch (e) {
    // Paired or dropped meanwhile: nothing left to cancel (a pairing opens its room).
    if (e.status !== 404) {
      showError($("#play-now-error"), t("Cannot cancel: {error}", { error: errorText(e) }));
      return false;
    }
  }
  if (seeking?.id === id) {
    seeking = null;
    showWaiting(false);
  }
  return true;
}

/** Mount the section: its games, its fields for a guest or a player, its buttons. */
export function mountPlayNow({ games, playBot }) {
  const offered = games.filter((game) => game.playable);
  $("#play-now-panel").hidden = !offered.length;
  $("#play-now-game").replaceChildren(...offered.map((game) => el("option", { value: game.key, text: game.title })));
  $("#play-now-hours").value = DEFAULT_TURN_HOURS;
  // A guest: casual real-time games only, said plainly; the rest is a logged-in player's.
  $("#play-now-guest").hidden = Boolean(account);
  $("#play-now-rated-field").hidden = !account;
  $("#play-now-range").hidden = !account;
  $("#play-now-rated").checked = Boolean(account);
  const show = () => showFields(offered);
  $("#play-now-game").addEventListener("change", show);
  $("#play-now-pace").addEventListener("change", show);
  show();
  if (account) {
    fetchJSON(`/api/players/${encodeURIComponent(account)}`).then((player) => {
      myRatings = player.ratings || {};
      show();
    }, () => {}); // not said, then: the range still works
  }
  $("#play-now").addEventListener("submit", (event) => seek(event, offered));
  $("#play-now-cancel").addEventListener("click", cancel);
  $("#play-now-bot").addEventListener("click", async () => {
    const wanted = seeking;
    if (!wanted || !(await cancel())) return;
    playBot(offered.find((game) => game.key === wanted.game), wanted.seats);
  });
  lobbySocket().on("paired", (message) => {
    if (posting) early = message;
    // Another page's seek, or a challenge accepted: shell/toasts.js tells it.
    else if (seeking && message.seek === seeking.id) found(message);
  });
  $("#play-now-start").disabled = false;
  resume();
}
