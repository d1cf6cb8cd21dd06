// Stellar Conflict in the lobby: the schema's options (battle size, deployment, asteroids,
// stolen goods) and what a schema cannot say, a race for each seat (every race's cards
// exist once, so each seat needs a different one).
//
// API: lobbyForm(ctx) and describe(options), as every game's lobby module (lightspeed/lobby.js).

import { el } from "../../shell/dom.js";
import { t, tn } from "../../shell/i18n.js";

const BATTLES = () => ({ dispute: t("Dispute (10 credits)"), conflict: t("Conflict (15 credits)"), war: t("War (20 credits)") });

/** "hexai" -> "Hexai". */
function raceName(race) {
  return race[0].toUpperCase() + race.slice(1);
}

/** The races the schema offers, in the order seats get them unless the room says otherwise. */
function racesOf(game) {
  const races = game.options.properties.races;
  return (races.anyOf || [races]).find((option) => option.type === "array").items.enum;
}

/** Add one race per seat (seat 1 Wiss, seat 2 Vak... at first). */
export function lobbyForm({ game, box, form }) {
  const races = racesOf(game);
  const selects = races.map((_, i) => el("select", { id: `race-${i}`, "aria-label": t("race of seat {seat}", { seat: i + 1 }) },
    races.map((race, k) => el("option", { value: race, selected: k === i, text: raceName(race) }))));
  const labels = selects.map((select, i) => el("label", { class: "race-seat" }, t("seat {seat}", { seat: i + 1 }) + " ", select));
  box.prepend(el("p", { class: "game-blurb",
    text: t("Each player picks a secret fleet of his race within the battle's credits and deploys it against the clock; then the ships fight on their own over the cargo.") }));
  box.append(el("div", { class: "option-group", id: "races" }, el("span", { class: "option-group-label", text: game.options.properties.races.title }), labels));
  const seats = form.input("seats");
  const show = () => labels.forEach((label, i) => { label.hidden = i >= Number(seats.value); });
  seats.addEventListener("change", show);
  show();
  return {
    body(values) {
      const chosen = selects.slice(0, values.seats).map((select) => select.value);
      if (new Set(chosen).size !== chosen.length) throw new Error(t("each seat needs a different race (every race's cards exist once)"));
      return { ...values, races: chosen };
    },
  };
}

/** "Stellar Conflict: 2 seats, Wiss vs Vak, Conflict (15 credits), countdown, cargo ships". */
export function describe(options) {
  return t("Stellar Conflict: {options}", { options: optionWords(options) });
}

/** The options alone (the lobby's open rooms, under the game's title). */
export function optionWords(options) {
  const races = options.races || ["wiss", "vak", "hexai", "tetrakori"].slice(0, options.seats);
  const parts = [tn("{n} seat", "{n} seats", options.seats), races.map(raceName).join(t(" vs ")),
    BATTLES()[options.battle_size] || options.battle_size,
    options.deployment === "stop" ? t("stop rule") : t("countdown"),
    options.asteroids ? tn("{n} asteroid", "{n} asteroids", options.asteroids) : t("cargo ships")];
  if (options.stolen_goods) parts.push(t("stolen goods"));
  return parts.join(", ");
}
