// The lobby: your name, creating a room, the open rooms (refreshed every few seconds) and
// the most recent matches.

import { $, clear, el, fetchJSON, postJSON, saveName, savedName } from "./dom.js";
import { RACES, describeOptions } from "./seats.js";
import { loadMatches, matchItem } from "./matchlist.js";

const REFRESH_MS = 3000;

async function createRoom(event) {
  event.preventDefault();
  const form = event.target;
  const error = $("#create-error");
  error.hidden = true;
  saveName($("#name").value);
  const body = roomBody(form);
  const problem = body.races && new Set(body.races).size !== body.races.length
    ? "each seat needs a different race (every race's cards exist once)" : null;
  if (problem) {
    error.textContent = `Cannot create the room: ${problem}`;
    error.hidden = false;
    return;
  }
  try {
    const room = await postJSON("/api/rooms", body);
    location.href = `/rooms/${encodeURIComponent(room.id)}`;
  } catch (e) {
    error.textContent = `Cannot create the room: ${e.message}`;
    error.hidden = false;
  }
}

/** The POST /api/rooms body the form describes. */
function roomBody(form) {
  const seats = Number(form.seats.value);
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
        el("td", { text: describeOptions(room.options) }),
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
  $("#ruleset").addEventListener("change", showGameOptions);
  $("#seats").addEventListener("change", showGameOptions);
  showGameOptions();
  refreshRooms();
  refreshRecent();
  setInterval(refreshRooms, REFRESH_MS);
}

main();
