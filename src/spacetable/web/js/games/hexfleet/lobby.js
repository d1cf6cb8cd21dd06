// Hex fleet in the lobby: the options form built from its schema (sides, scenario, turn
// limit), and what a schema cannot say: the chosen scenario told in words with the ships of
// each side, custom fleets built ship by ship (class, a medium ship's weapons, a name), hot
// seat (two people at this screen, each named) and who plays each other seat (a friend by
// the link or a bot level, told in words).
//
// API: lobbyForm(ctx) and describe(options), as every game's lobby module (lightspeed/lobby.js);
// the body throws an Error a player understands when the custom fleets are not complete,
// and the link seats us, the bots, or in hot seat both named players.

import "./sheet.js";
import { clear, el, fetchJSON } from "../../shell/dom.js";
import { t } from "../../shell/i18n.js";
import { botSeats } from "../../shell/botseats.js";

const CLASS_NAMES = () => ({ light: t("light (fast, forward arc only)"), medium: t("medium"), heavy: t("heavy (tough, slow)") });
const CLASSES = () => ({ light: t("light"), medium: t("medium"), heavy: t("heavy") });
/** Names the custom fleets' ships get at first, by side. */
const FLEET_NAMES = ["Aegis", "Brand", "Corsair", "Drake"];

/** "Benellyn (heavy), Swift (light)" — a side's ships in words. */
function shipsText(side) {
  const weapons = { light: t("light weapons"), heavy: t("heavy weapons") };
  return side.map((s) => `${s.name} (${CLASSES()[s.class] || s.class}${s.class === "medium" ? `, ${weapons[s.weapons] || s.weapons}` : ""})`).join(", ");
}

/** Add the scenario's words, the custom fleets, hot seat and the other seats. */
export function lobbyForm({ game, box, form }) {
  form.remove("board"); // the scenario's board: the lobby does not ask
  const data = { scenarios: null, maxShips: 8 };
  const scenario = form.input("scenario");
  const seats = form.input("seats");
  const about = el("div", { id: "hex-scenario-about", class: "hex-scenario-about" });
  scenario.setAttribute("aria-describedby", "hex-scenario-about");
  const custom = el("div", { id: "hex-custom", class: "hex-custom", hidden: true });
  const hotseat = el("input", { type: "checkbox", id: "hex-hotseat", name: "hex_hotseat" });
  const names = ["Red", "Blue"].map((name, i) => el("input", { id: `hex-hotseat-${i}`, type: "text", maxlength: 24, value: name,
    "aria-label": [t("first player's name"), t("second player's name")][i] }));
  const hotNames = el("div", { class: "hex-hotseat-names", hidden: true },
    el("label", {}, t("First player") + " ", names[0]), el("label", {}, t("Second player") + " ", names[1]));
  const others = botSeats(game, { idPrefix: "hex-seat" });
  const fleets = [];
  box.prepend(el("p", { class: "game-blurb", text: t("Fleets on a hex map. Each turn ships are activated by chits drawn from a cup; shields, fire and damage are decided by playing cards, with the odds shown before you fire. Last side that can fight wins.") }));
  form.option("scenario").after(about, custom);
  box.append(el("label", { class: "check" }, hotseat, " " + t("Hot seat: two people at this screen")), hotNames, others.element);

  function addShip(side, index) {
    const count = side.list.children.length;
    if (count >= data.maxShips) return;
    const n = count + 1;
    const what = { side: index + 1, ship: n };
    const cls = el("select", { class: "ship-class", "aria-label": t("side {side} ship {ship} class", what) },
      Object.entries(CLASS_NAMES()).map(([value, text]) => el("option", { value, text, selected: value === "medium" })));
    const weapons = el("select", { class: "ship-weapons", "aria-label": t("side {side} ship {ship} weapons", what) },
      el("option", { value: "heavy", text: t("heavy weapons") }), el("option", { value: "light", text: t("light weapons") }));
    const name = el("input", { class: "ship-name-input", type: "text", maxlength: 24, placeholder: t("name"),
      "aria-label": t("side {side} ship {ship} name", what), value: `${FLEET_NAMES[index]} ${n}` });
    const row = el("li", { class: "hex-fleet-ship" }, cls, weapons, name,
      el("button", { type: "button", class: "secondary remove-ship", "aria-label": t("remove side {side} ship {ship}", what),
        on: { click: () => { if (side.list.children.length > 1) row.remove(); } } }, "✕"));
    cls.addEventListener("change", () => { weapons.hidden = cls.value !== "medium"; });
    side.list.append(row);
  }

  function addSide(index) {
    const side = { list: el("ol", { class: "hex-fleet-ships" }) };
    const add = el("button", { type: "button", class: "secondary add-ship", on: { click: () => addShip(side, index) } }, t("Add ship"));
    side.box = el("fieldset", { class: "hex-fleet-side", dataset: { side: index } }, el("legend", { text: t("Side {side}'s fleet", { side: index + 1 }) }), side.list, add);
    custom.append(side.box);
    fleets.push(side);
    addShip(side, index);
  }

  function update() {
    const sides = Number(seats.value);
    const chosen = data.scenarios?.[scenario.value];
    clear(about);
    if (chosen) {
      about.append(el("p", { class: "muted", text: chosen.about + " " + t("Board {width} x {height} hexes.", chosen.board) }),
        el("ul", { class: "hex-sides" }, Array.from({ length: sides }, (_, i) => el("li", {},
          el("b", { text: t("Side {side}:", { side: i + 1 }) + " " }),
          i < chosen.sides.length ? shipsText(chosen.sides[i]) : shipsText(chosen.sides[0]) + " " + t("(numbered {n})", { n: i + 1 })))));
    } else if (scenario.value === "custom") {
      about.append(el("p", { class: "muted", text: t("Build each side's fleet: up to {n} ships a side, each a class, a medium ship's weapons and a name.", { n: data.maxShips }) }));
    }
    custom.hidden = scenario.value !== "custom";
    for (let i = fleets.length; i < sides; i += 1) addSide(i);
    fleets.forEach((side, i) => { side.box.hidden = i >= sides; });
    hotNames.hidden = !hotseat.checked;
    others.update(sides, hotseat.checked ? 2 : 1);
  }

  for (const input of [scenario, seats, hotseat]) input.addEventListener("change", update);
  update();
  fetchJSON(`/api/games/${game.key}/scenarios`).then((scenarios) => {
    data.scenarios = scenarios.scenarios;
    data.maxShips = scenarios.max_ships || data.maxShips;
    update();
  }).catch(() => { about.textContent = t("Cannot load the scenarios: is the server running?"); });

  return {
    body(values) {
      if (values.scenario !== "custom") return values;
      const built = fleets.slice(0, values.seats).map((side) => [...side.list.children].map((row) => {
        const cls = row.querySelector(".ship-class").value;
        const name = row.querySelector(".ship-name-input").value.trim();
        return { class: cls, weapons: cls === "medium" ? row.querySelector(".ship-weapons").value : null, name: name || null };
      }));
      if (built.some((fleet) => !fleet.length)) throw new Error(t("every side needs at least one ship"));
      return { ...values, fleets: built };
    },
    link(room, body) {
      const params = new URLSearchParams();
      if (hotseat.checked) params.set("hotseat", names.map((n, i) => n.value.trim() || ["Red", "Blue"][i]).join(","));
      const bots = others.param(body.seats);
      if (bots) params.set("bots", bots);
      if (!params.toString()) params.set("join", "1");
      return `/rooms/${encodeURIComponent(room.id)}?${params.toString().replace(/%2C/g, ",").replace(/%3A/g, ":")}`;
    },
  };
}

/** "Hex fleet: duel, 2 sides, 20-turn limit". */
export function describe(options) {
  return t("Hex fleet: {scenario}, {seats} sides, {limit}-turn limit", optionValues(options));
}

/** The options alone (the lobby's open rooms, under the game's title). */
export function optionWords(options) {
  return t("{scenario}, {seats} sides, {limit}-turn limit", optionValues(options));
}

function optionValues(options) {
  const scenarios = { duel: t("duel"), skirmish: t("skirmish"), fleet: t("fleet"), custom: t("custom") };
  const scenario = options.scenario || "duel";
  return { scenario: scenarios[scenario] || scenario, seats: options.seats, limit: options.turn_limit ?? 20 };
}
