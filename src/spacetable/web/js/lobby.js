// The lobby: your name, creating a room, the open rooms (refreshed every few seconds) and
// the most recent matches.

import { $, clear, el, fetchJSON, postJSON, saveName, savedName } from "./dom.js";
import { describeOptions } from "./seats.js";
import { loadMatches, matchItem } from "./matchlist.js";

const REFRESH_MS = 3000;

async function createRoom(event) {
  event.preventDefault();
  const form = event.target;
  const error = $("#create-error");
  error.hidden = true;
  saveName($("#name").value);
  const rocks = form.rocks.value.trim();
  const body = {
    ruleset: "lightspeed",
    seats: Number(form.seats.value),
    asteroids: form.asteroids.value,
    rocks: rocks === "" ? null : Number(rocks),
    piracy: form.piracy.checked,
  };
  try {
    const room = await postJSON("/api/rooms", body);
    location.href = `/rooms/${encodeURIComponent(room.id)}`;
  } catch (e) {
    error.textContent = `Cannot create the room: ${e.message}`;
    error.hidden = false;
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
  refreshRooms();
  refreshRecent();
  setInterval(refreshRooms, REFRESH_MS);
}

main();
