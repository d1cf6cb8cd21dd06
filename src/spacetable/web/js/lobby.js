// The lobby: your name, "Play a bot" (one click to a Light Speed room with you and a bot,
// waiting for your "ready"), creating a room (which seats you: `?join=1`), the open rooms
// (refreshed every few seconds) and the most recent matches. A Faster Than Light room can be
// created with bots in its other seats: the room page seats you and them (`?bots=1:hard`),
// then waits for your "ready"; so can a hex fleet room, or one for two people at this screen
// (hot seat: the room page seats both).

import { $, clear, el, fetchJSON, postJSON, saveName, savedName } from "./shell/dom.js";
import { RACES, describeOptions } from "./shell/seats.js";
import { loadMatches, matchItem } from "./matchlist.js";
import { describeFtl } from "./games/ftl/room.js";
import { describeHexfleet } from "./games/hexfleet/room.js";
import { hexRoomBody, hexRoomLink, showHexOptions } from "./games/hexfleet/lobby.js";

const REFRESH_MS = 3000;
/** FTL's bot levels (GET /api/games replaces them) and the one offered first. */
const ftlBots = { levels: ["random", "greedy", "easy", "medium", "hard"], default: "medium", about: {} };
/** The laser games' bots, for "Play a bot" (GET /api/games replaces them). */
const laserBots = { levels: ["beginner"], default: "beginner", about: {} };

/** A room's options in a few words, for any game. */
function describe(options) {
  if (options.ruleset === "hexfleet") return describeHexfleet(options);
  return options.ruleset === "ftl" ? describeFtl(options) : describeOptions(options);
}

async function createRoom(event) {
  event.preventDefault();
  const form = event.target;
  const error = $("#create-error");
  error.hidden = true;
  saveName($("#name").value);
  let body;
  try {
    body = roomBody(form);
  } catch (e) {
    error.textContent = `Cannot create the room: ${e.message}`;
    error.hidden = false;
    return;
  }
  const problem = body.races && new Set(body.races).size !== body.races.length
    ? "each seat needs a different race (every race's cards exist once)" : null;
  if (problem) {
    error.textContent = `Cannot create the room: ${problem}`;
    error.hidden = false;
    return;
  }
  try {
    const room = await postJSON("/api/rooms", body);
    // The room page seats us (and an FTL room's bots) as it opens.
    if (body.ruleset === "hexfleet") {
      location.href = hexRoomLink(room, body.seats);
      return;
    }
    const bots = body.ruleset === "ftl" ? ftlBotSeats(body.seats) : "";
    location.href = `/rooms/${encodeURIComponent(room.id)}${bots ? `?bots=${bots}` : "?join=1"}`;
  } catch (e) {
    error.textContent = `Cannot create the room: ${e.message}`;
    error.hidden = false;
  }
}

/** The POST /api/rooms body the form describes. */
function roomBody(form) {
  const seats = Number(form.seats.value);
  if (form.ruleset.value === "hexfleet") return hexRoomBody(seats);
  if (form.ruleset.value === "ftl") {
    const [width, height] = form.table_size.value.split("x").map(Number);
    const limit = form.turn_limit.value.trim();
    return {
      ruleset: "ftl",
      seats,
      table_size_in: [width, height],
      missiles: Number(form.missiles.value),
      turn_limit: limit === "" ? null : Number(limit),
      plot_timer_s: form.plot_timer.value === "" ? null : Number(form.plot_timer.value),
    };
  }
  if (form.ruleset.value === "stellar") {
    return {
      ruleset: "stellar",
      seats,
      battle_size: form.battle_size.value,
      deployment: form.deployment.value,
      asteroids: Number(form.stellar_asteroids.value),
      stolen_goods: form.stolen_goods.checked,
      races: [...document.querySelectorAll("#races select")].slice(0, seats).map((s) => s.value),
    };
  }
  const rocks = form.rocks.value.trim();
  return {
    ruleset: "lightspeed",
    seats,
    asteroids: form.asteroids.value,
    rocks: rocks === "" ? null : Number(rocks),
    piracy: form.piracy.checked,
  };
}

/** Show the chosen game's options, with one race select per seat for Stellar Conflict. */
function showGameOptions() {
  const form = $("#create-room");
  const ruleset = form.ruleset.value;
  for (const set of document.querySelectorAll(".game-options")) set.hidden = set.dataset.ruleset !== ruleset;
  const box = $("#races");
  const seats = Number(form.seats.value);
  const selects = [...box.querySelectorAll("select")];
  for (let i = selects.length; i < seats; i += 1) {
    const select = el("select", { id: `race-${i}`, "aria-label": `race of seat ${i + 1}` },
      RACES.map((race, k) => el("option", { value: race, selected: k === i, text: race[0].toUpperCase() + race.slice(1) })));
    box.append(el("label", { class: "race-seat" }, `seat ${i + 1} `, select));
  }
  [...box.querySelectorAll(".race-seat")].forEach((label, i) => { label.hidden = i >= seats; });
  showFtlSeats(seats);
  if (ruleset === "hexfleet") showHexOptions($("#hexfleet-options"), seats);
}

/** One choice per FTL seat after yours: a friend who comes by the link, or a bot. */
function showFtlSeats(seats) {
  const box = $("#ftl-seats");
  const selects = [...box.querySelectorAll("select")];
  for (let i = selects.length + 1; i < seats; i += 1) {
    const select = el("select", { id: `ftl-seat-${i}`, "aria-label": `who plays seat ${i + 1}`, dataset: { seat: i } });
    box.append(el("label", { class: "ftl-seat" }, `seat ${i + 1} `, select));
  }
  for (const select of box.querySelectorAll("select")) {
    const chosen = select.value;
    select.replaceChildren(el("option", { value: "", text: "a friend (share the link)" }),
      ...ftlBots.levels.map((level) => el("option", { value: level, text: `${level} bot`, title: ftlBots.about[level] || "" })));
    select.value = chosen;
  }
  [...box.querySelectorAll(".ftl-seat")].forEach((label, i) => { label.hidden = i + 1 >= seats; });
}

/** "Play a bot": a two-seat Light Speed room; the room page seats us and the bot. */
async function playBot() {
  const error = $("#play-bot-error");
  error.hidden = true;
  saveName($("#name").value);
  const level = $("#play-bot-level").value || laserBots.default;
  try {
    const room = await postJSON("/api/rooms", { ruleset: "lightspeed", seats: 2 });
    location.href = `/rooms/${encodeURIComponent(room.id)}?join=1&bots=1:${encodeURIComponent(level)}`;
  } catch (e) {
    error.textContent = `Cannot open a room: ${e.message}`;
    error.hidden = false;
  }
}

/** The "Play a bot" choice: every laser bot level, the default first, told in words. */
function showPlayBot() {
  const select = $("#play-bot-level");
  const chosen = select.value || laserBots.default;
  select.replaceChildren(...laserBots.levels.map((level) => el("option", { value: level, text: `${level} bot` })));
  select.value = laserBots.levels.includes(chosen) ? chosen : laserBots.default;
  $("#play-bot-about").textContent = laserBots.about[select.value] || "";
}

/** The bots asked for in the FTL seats, as the room page reads them: "1:hard,2:easy". */
function ftlBotSeats(seats) {
  return [...document.querySelectorAll("#ftl-seats select")].slice(0, seats - 1)
    .filter((s) => s.value).map((s) => `${s.dataset.seat}:${s.value}`).join(",");
}

/** Bot levels from GET /api/games, when the server has it. */
async function loadGames() {
  try {
    const games = await fetchJSON("/api/games");
    const ftl = games.find((g) => g.key === "ftl");
    if (ftl?.bot_levels?.length) {
      Object.assign(ftlBots, { levels: ftl.bot_levels, default: ftl.default_bot || ftlBots.default, about: ftl.bot_descriptions || {} });
    }
    const lightspeed = games.find((g) => g.key === "lightspeed");
    if (lightspeed?.bot_levels?.length) {
      Object.assign(laserBots, { levels: lightspeed.bot_levels, default: lightspeed.default_bot, about: lightspeed.bot_descriptions || {} });
      showPlayBot();
    }
    showGameOptions();
  } catch {
    // An older server: the levels above.
  }
}

function seatsText(room) {
  const taken = room.seats.filter((s) => s.kind !== "empty");
  const names = taken.map((s) => s.name).join(", ");
  return `${taken.length}/${room.seats.length}${names ? `: ${names}` : ""}`;
}

async function refreshRooms() {
  try {
    const rooms = await fetchJSON("/api/rooms");
    const body = clear($("#rooms tbody"));
    for (const room of rooms) {
      const href = `/rooms/${encodeURIComponent(room.id)}`;
      const free = room.phase === "lobby" && room.seats.some((s) => s.kind === "empty");
      body.append(el("tr", { class: "room", dataset: { room: room.id, phase: room.phase } },
        el("td", {}, el("code", { text: room.id })),
        el("td", { text: describe(room.options) }),
        el("td", { text: seatsText(room) }),
        el("td", { text: { lobby: "waiting", playing: "playing", over: "finished" }[room.phase] || room.phase }),
        el("td", { class: "actions" },
          free ? el("a", { href, class: "join button" }, "Join") : null,
          el("a", { href: `${href}?watch=1`, class: "watch" }, "Watch"))));
    }
    $("#no-rooms").hidden = rooms.length > 0;
  } catch {
    // The server may be restarting: try again at the next refresh.
  }
}

async function refreshRecent() {
  try {
    const matches = await loadMatches(5);
    const list = clear($("#recent"));
    for (const summary of matches) list.append(matchItem(summary));
    if (!matches.length) list.append(el("li", { class: "muted", text: "No finished matches yet." }));
  } catch {
    // Not fatal: the list stays as it was.
  }
}

function main() {
  const name = $("#name");
  name.value = savedName();
  name.addEventListener("change", () => saveName(name.value));
  $("#create-room").addEventListener("submit", createRoom);
  $("#play-bot").addEventListener("click", playBot);
  $("#play-bot-level").addEventListener("change", () => {
    $("#play-bot-about").textContent = laserBots.about[$("#play-bot-level").value] || "";
  });
  $("#ruleset").addEventListener("change", showGameOptions);
  $("#seats").addEventListener("change", showGameOptions);
  showGameOptions();
  loadGames();
  refreshRooms();
  refreshRecent();
  setInterval(refreshRooms, REFRESH_MS);
}

main();
