// The seat panel of a room in its lobby: who sits where, take a seat, add bots, get ready.

import { clear, el, saveName, savedName } from "./dom.js";
import { colourOf } from "./cards.js";

const LEVELS = ["random", "easy", "medium", "hard"];

/** The games a room can play, by ruleset. */
export const GAME_NAMES = { lightspeed: "Light Speed", stellar: "Stellar Conflict", ftl: "Faster Than Light" };
const BATTLES = { dispute: "Dispute (10 credits)", conflict: "Conflict (15 credits)", war: "War (20 credits)" };
const RACE_NAMES = { wiss: "Wiss", vak: "Vak", hexai: "Hexai", tetrakori: "Tetrakori" };
/** Stellar Conflict's races in the order seats get them unless the room says otherwise. */
export const RACES = Object.keys(RACE_NAMES);

/**
 * A short description of a room's options: "Light Speed: 2 seats, single asteroid,
 * piracy" or "Stellar Conflict: 2 seats, Wiss vs Vak, Dispute (10 credits), countdown".
 */
export function describeOptions(options) {
  const game = GAME_NAMES[options.ruleset] || options.ruleset;
  const parts = [`${options.seats} seats`];
  if (options.ruleset === "stellar") {
    const races = options.races || RACES.slice(0, options.seats);
    parts.push(races.map((r) => RACE_NAMES[r] || r).join(" vs "), BATTLES[options.battle_size] || options.battle_size,
      options.deployment === "stop" ? "stop rule" : "countdown",
      options.asteroids ? `${options.asteroids} asteroid${options.asteroids > 1 ? "s" : ""}` : "cargo ships");
    if (options.stolen_goods) parts.push("stolen goods");
  } else {
    parts.push(`${options.asteroids} asteroid${options.asteroids === "two-small" ? "s" : ""}`);
    if (options.rocks) parts.push(`${options.rocks} rocks`);
    if (options.piracy) parts.push("piracy");
  }
  return `${game}: ${parts.join(", ")}`;
}

/**
 * Fill `container` with the seats of `room` (a `room` message). `mySeat` is our seat index
 * or null; `send(message)` talks to the room. `watching` (came to watch) hides the seat
 * buttons behind `onPlay()`, called when the visitor decides to play after all.
 */
export function renderSeats(container, room, mySeat, send, { watching = false, onPlay = () => {} } = {}) {
  clear(container);
  const seated = mySeat !== null && mySeat !== undefined;
  if (watching && !seated) {
    const taken = room.seats.filter((s) => s.kind !== "empty").map((s) => s.name);
    container.append(
      el("h2", { text: "Watching" }),
      el("p", { class: "room-options", text: describeOptions(room.options) }),
      el("p", { id: "watching", text: taken.length ? `Seated: ${taken.join(", ")}. The match starts when every seat is ready.` : "Nobody is seated yet." }),
      room.seats.some((s) => s.kind === "empty")
        ? el("button", { type: "button", id: "want-to-play", on: { click: onPlay } }, "I want to play")
        : el("p", { class: "seat-help", text: "Every seat is taken." }));
    return;
  }
  const nameInput = el("input", { id: "player-name", type: "text", maxlength: 24, placeholder: "your name",
    value: savedName(), autocomplete: "nickname", on: { change: (e) => saveName(e.target.value) } });
  const name = () => {
    const value = nameInput.value.trim() || `player ${Math.floor(Math.random() * 900 + 100)}`;
    saveName(value);
    return value;
  };
  container.append(el("h2", { text: "Seats" }), el("p", { class: "room-options", text: describeOptions(room.options) }));
  if (!seated) container.append(el("label", { class: "name-field" }, "Your name ", nameInput));
  const list = el("ul", { class: "seats" });
  for (const seat of room.seats) {
    const mine = seat.seat === mySeat;
    const item = el("li", {
      class: `seat kind-${seat.kind}${mine ? " mine" : ""}`,
      dataset: { seat: seat.seat, kind: seat.kind, ready: seat.ready },
      style: `--team: ${colourOf(seat.seat)}`,
    }, el("span", { class: "swatch" }));
    const who = seat.kind === "empty" ? "empty seat"
      : seat.kind === "bot" ? `${seat.name} (${seat.level} bot)`
        : `${seat.name}${mine ? " (you)" : ""}`;
    item.append(el("span", { class: "seat-name", text: who }));
    if (seat.kind === "human") {
      item.append(el("span", { class: `seat-state${seat.connected ? "" : " away"}`,
        text: !seat.connected ? "disconnected" : seat.ready ? "ready" : "not ready" }));
    } else if (seat.kind === "bot") {
      item.append(el("span", { class: "seat-state", text: "ready" }));
    }
    const actions = el("span", { class: "seat-actions" });
    if (seat.kind === "empty" && !seated) {
      actions.append(el("button", { type: "button", class: "take-seat",
        on: { click: () => send({ type: "join", name: name(), seat: seat.seat }) } }, "Take this seat"));
    } else if (seat.kind === "empty") {
      const level = el("select", { class: "bot-level", "aria-label": "bot level" },
        LEVELS.map((l) => el("option", { value: l, selected: l === "medium", text: l })));
      actions.append(level, el("button", { type: "button", class: "add-bot",
        on: { click: () => send({ type: "bot", seat: seat.seat, level: level.value }) } }, "Add bot"));
    }
    if (mine) {
      actions.append(
        el("button", { type: "button", id: "ready", class: seat.ready ? "on" : "",
          "aria-pressed": String(seat.ready),
          on: { click: () => send({ type: "ready", ready: !seat.ready }) } }, seat.ready ? "Ready ✓" : "Ready?"),
      );
    }
    item.append(actions);
    list.append(item);
  }
  container.append(list);
  if (seated) {
    container.append(el("p", { class: "seat-help",
      text: "The match starts when every seat is taken and every player is ready." }),
    el("button", { type: "button", id: "watch", class: "secondary",
      on: { click: () => { send({ type: "leave" }); send({ type: "watch" }); } } }, "Leave my seat and watch"));
  } else {
    container.append(el("p", { class: "seat-help", id: "watching",
      text: "You are watching. Take a free seat to play." }));
  }
}
