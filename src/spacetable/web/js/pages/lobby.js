// The lobby: your name, "Play now" (paired with another player: shell/playnow.js), "Play a bot" (one click per game to a room of that game, you and
// its beginner bot, or the level chosen, in it, waiting for your "ready"), creating a room of any game (which seats you:
// `?join=1`, or as the game's lobby module links it: bots, hot seat), the open rooms
// (refreshed every few seconds) and the most recent matches.
//
// Every game comes from GET /api/games: the Game menu lists the playable ones, each game's
// form is built from its options schema (shell/optionsform.js) and completed by the game's
// module (`lobbyForm(ctx)`: what a schema cannot say), and the open rooms are told in the
// words of each game's `describe(options)`.

import { playerName, t, tn } from "../shell/i18n.js";
import { errorText } from "../shell/phrase.js";
import { $, clear, el, fetchJSON, postJSON, saveName, savedName, showError } from "../shell/dom.js";
import { botLevelName } from "../shell/botseats.js";
import { ratingText } from "../shell/ratings.js";
import { listedGames, loadMatches, matchItem } from "../shell/matchlist.js";
import { optionsForm } from "../shell/optionsform.js";
import { describerOf, gameList, loadGame } from "../games/index.js";
import { mountMyGamesLink } from "../shell/mygames.js";
import { account } from "../shell/account.js";
import { postWords } from "../shell/seats.js";
import { mountPlayNow } from "../shell/playnow.js";
import { mountOnlinePanel, onPlayerLine } from "../shell/online.js";
import { challengeButton } from "../shell/challenges.js";

const REFRESH_MS = 3000;

/** Every registered game (GET /api/games), once loaded. */
let games = [];
/** Each playable game's form by key: {box, form, extra}. */
const forms = new Map();

/** The game whose rooms and files name `ruleset`. */
function gameOf(ruleset) {
  return games.find((game) => game.rulesets.includes(ruleset));
}

/** The ruleset constant of a game's options (what POST /api/rooms names it by). */
function rulesetOf(game) {
  return game.options.properties.ruleset?.const ?? game.rulesets[0];
}

/** The options form of `game`: built from its schema, completed by the game's module. */
async function buildForm(game) {
  const module = await loadGame(game.key);
  const form = optionsForm(game.options);
  const box = el("fieldset", { id: `${game.key}-options`, class: "game-options", dataset: { ruleset: game.key } }, form.element);
  const extra = module.lobbyForm?.({ game, box, form }) || {};
  forms.set(game.key, { box, form, extra });
}

/** Show the chosen game's options. */
function showGameOptions() {
  $("#game-options").replaceChildren(forms.get($("#ruleset").value).box);
}

async function createRoom(event) {
  event.preventDefault();
  const error = $("#create-error");
  error.hidden = true;
  saveName($("#name").value);
  const game = games.find((g) => g.key === $("#ruleset").value);
  const { form, extra } = forms.get(game.key);
  let body;
  try {
    const values = { ruleset: rulesetOf(game), ...form.values() };
    body = extra.body ? extra.body(values) : values;
  } catch (e) {
    showError(error, t("Cannot create the room: {error}", { error: errorText(e) }));
    return;
  }
  try {
    const room = await postJSON("/api/rooms", body);
    // The room page seats us (and the bots the link names) as it opens.
    location.href = extra.link ? extra.link(room, body) : `/rooms/${encodeURIComponent(room.id)}?join=1`;
  } catch (e) {
    showError(error, t("Cannot create the room: {error}", { error: errorText(e) }));
  }
}

/** The games "Play a bot" offers: every playable one with bots. */
function botGames() {
  return games.filter((game) => game.playable && game.bot_levels.length);
}

/** "Play a bot" at `level` of `game`: a room of `seats` (two by default), a bot in each
 * seat but ours; the room page seats us and the bots. (Play now offers it too.) */
async function playBot(game, level, seats = 2, error = $("#play-bot-error")) {
  error.hidden = true;
  saveName($("#name").value);
  const bot = encodeURIComponent(level || game.beginner_bot || game.default_bot);
  const bots = Array.from({ length: seats - 1 }, (_, i) => `${i + 1}:${bot}`).join(",");
  try {
    const room = await postJSON("/api/rooms", { ruleset: rulesetOf(game), seats });
    location.href = `/rooms/${encodeURIComponent(room.id)}?join=1&bots=${bots}`;
  } catch (e) {
    showError(error, t("Cannot open a room: {error}", { error: errorText(e) }));
  }
}

/**
 * "Play a bot": a row per game, its bot levels (its beginner level chosen) told in
 * words and its button. The first game's row keeps the plain ids (#play-bot,
 * #play-bot-level, #play-bot-about) that the tests name.
 */
function showPlayBot() {
  const offered = botGames();
  $("#play-bot-panel").hidden = !offered.length;
  $("#play-bot-games").replaceChildren(...offered.map((game, i) => {
    const id = (name) => (i === 0 ? name : `${name}-${game.key}`);
    const about = el("small", { id: id("play-bot-about"), class: "bot-about" });
    const level = el("select", { id: id("play-bot-level"), "aria-label": t("{game}: bot level", { game: game.title }),
      "aria-describedby": id("play-bot-about") },
    game.bot_levels.map((l) => el("option", { value: l, text: botLevelName(l) })));
    level.value = game.beginner_bot || game.default_bot;
    const describe = () => { about.textContent = game.bot_descriptions[level.value] || ""; };
    level.addEventListener("change", describe);
    describe();
    return el("li", { class: "play-bot-game", dataset: { game: game.key } },
      el("span", { class: "play-bot-title", text: game.title }),
      level,
      el("button", { type: "button", id: id("play-bot"), dataset: { game: game.key },
        on: { click: () => playBot(game, level.value) } }, t("Play a bot")),
      about);
  }));
}

/** Build every playable game's form, list the games in the Game menu, show the first. */
async function loadGames() {
  try {
    games = await gameList();
    await Promise.all(games.filter((game) => game.playable).map(buildForm));
  } catch (e) {
    showError($("#create-error"), t("Cannot load the games: {error}", { error: errorText(e) }));
    return;
  }
  $("#ruleset").replaceChildren(...games.filter((game) => forms.has(game.key))
    .map((game) => el("option", { value: game.key, text: game.title })));
  showPlayBot();
  // Play now (shell/playnow.js): its bot offer is Play a bot's, the seats it looked for.
  mountPlayNow({ games, playBot: (game, seats) => playBot(game, null, seats, $("#play-now-error")) });
  showGameOptions();
  $("#create").disabled = false;
}

function seatsText(room) {
  const taken = room.seats.filter((s) => s.kind !== "empty");
  // A registered player's rating beside his name (issue 37): "ann · 12.5".
  const names = taken.map((s) => (s.rating ? `${playerName(s.name)} · ${ratingText(s.rating)}` : playerName(s.name))).join(", ");
  return `${taken.length}/${room.seats.length}${names ? `: ${names}` : ""}`;
}

/** A room's game and options: its title, and its options in the words of its game's module
 * (`optionWords`, else its whole `describe` sentence). */
async function describe(options) {
  const game = gameOf(options.ruleset);
  if (!game) return { title: options.ruleset, words: tn("{n} seat", "{n} seats", options.seats) };
  const module = await loadGame(game.key);
  const words = module.optionWords ? module.optionWords(options) : describerOf(module, game)(options);
  return { title: game.title, words: postWords(words, options) }; // (and its hours a turn)
}

async function refreshRooms() {
  try {
    const rooms = await fetchJSON("/api/rooms");
    const words = await Promise.all(rooms.map((room) => describe(room.options)));
    const body = clear($("#rooms tbody"));
    rooms.forEach((room, i) => {
      const href = `/rooms/${encodeURIComponent(room.id)}`;
      const free = room.phase === "lobby" && room.seats.some((s) => s.kind === "empty");
      // A logged-in player's own table (a match by correspondence, say) leads back to his seat.
      const mine = Boolean(account) && room.phase !== "over"
        && room.seats.some((s) => s.kind === "human" && s.name === account);
      body.append(el("tr", { class: "room", dataset: { room: room.id, phase: room.phase } },
        el("td", { dataset: { label: t("room") } }, el("code", { text: room.id })),
        el("td", { class: "room-game" },
          el("span", { class: "room-game-title", text: words[i].title }),
          el("span", { class: "room-game-options", text: words[i].words })),
        el("td", { text: seatsText(room) }),
        el("td", { text: { lobby: t("waiting"), playing: t("playing"), over: t("finished") }[room.phase] || room.phase }),
        el("td", { class: "actions" }, el("div", { class: "row-actions" },
          mine ? el("a", { href, class: "return button" }, t("Back to your seat"))
            : free ? el("a", { href, class: "join button" }, t("Join")) : null,
          mine ? null : el("a", { href: `${href}?watch=1`, class: "watch" }, t("Watch"))))));
    });
    $("#no-rooms").hidden = rooms.length > 0;
  } catch {
    // The server may be restarting: try again at the next refresh.
  }
}

async function refreshRecent() {
  try {
    const matches = await loadMatches(5);
    const listed = await listedGames(matches);
    const list = clear($("#recent"));
    for (const summary of matches) list.append(matchItem(summary, listed));
    if (!matches.length) list.append(el("li", { class: "muted", text: t("No finished matches yet.") }));
  } catch {
    // Not fatal: the list stays as it was.
  }
}

async function main() {
  const name = $("#name");
  name.value = savedName();
  name.addEventListener("change", () => saveName(name.value));
  $("#create-room").addEventListener("submit", createRoom);
  $("#ruleset").addEventListener("change", showGameOptions);
  await loadGames();
  refreshRooms();
  refreshRecent();
  setInterval(refreshRooms, REFRESH_MS);
}

main();
mountMyGamesLink(); // a logged-in player: his correspondence matches, how many wait on him
mountOnlinePanel(); // who is online now, live (shell/online.js)
// A logged-in player may challenge anyone online from the list (shell/challenges.js).
onPlayerLine((li, player) => {
  const button = challengeButton(player.name);
  if (button) li.append(" ", button);
});
