// The lobby's hex fleet options in the create-room form: a ready scenario (told in words,
// with the ships of each side) or custom fleets built ship by ship (class, a medium ship's
// weapons, a name), the turn limit, who plays each other seat (a friend by the link or a bot
// level, told in words), and hot seat: two people at this screen, each named.
//
// API:
//   showHexOptions(box, seats)   build (once) and update the options in `box` for `seats`
//                                sides; loads the scenarios and the bots the first time.
//   hexRoomBody(seats) -> the POST /api/rooms body; throws an Error a player understands
//                         when the custom fleets are not complete.
//   hexRoomLink(room, seats) -> the room page's address: it seats us, the bots, or in hot
//                               seat both named players.

import { clear, el, fetchJSON } from "../../shell/dom.js";

const CLASS_NAMES = { light: "light (fast, forward arc only)", medium: "medium", heavy: "heavy (tough, slow)" };
const data = { scenarios: null, classes: null, bots: { levels: ["random", "easy", "tactical"], default: "easy", about: {} }, maxShips: 8 };
let built = null; // the option elements once built

/** "Benellyn (heavy), Swift (light)" — a side's ships in words. */
function shipsText(side) {
  return side.map((s) => `${s.name} (${s.class}${s.class === "medium" ? `, ${s.weapons} weapons` : ""})`).join(", ");
}

async function load() {
  const [scenarios, games] = await Promise.all([fetchJSON("/api/games/hexfleet/scenarios"), fetchJSON("/api/games")]);
  data.scenarios = scenarios.scenarios;
  data.classes = scenarios.classes;
  data.maxShips = scenarios.max_ships || 8;
  const game = games.find((g) => g.key === "hexfleet");
  if (game?.bot_levels?.length) data.bots = { levels: game.bot_levels, default: game.default_bot, about: game.bot_descriptions || {} };
}

/** Build (once) and update the hex fleet options in `box` for `seats` sides. */
export function showHexOptions(box, seats) {
  if (!built) {
    built = build(box);
    load().then(() => update(seats)).catch(() => { built.about.textContent = "Cannot load the scenarios: is the server running?"; });
  }
  built.seats = seats;
  update(seats);
}

function build(box) {
  const scenario = el("select", { name: "hex_scenario", id: "hex-scenario", "aria-describedby": "hex-scenario-about" },
    el("option", { value: "duel", selected: true, text: "Duel of heavies" }), el("option", { value: "skirmish", text: "Skirmish" }),
    el("option", { value: "fleet", text: "Fleet action" }), el("option", { value: "custom", text: "Custom fleets" }));
  const about = el("div", { id: "hex-scenario-about", class: "hex-scenario-about" });
  const custom = el("div", { id: "hex-custom", class: "hex-custom", hidden: true });
  const turnLimit = el("input", { name: "hex_turn_limit", id: "hex-turn-limit", type: "number", min: 1, max: 200, value: 20, required: true });
  const seatsBox = el("div", { class: "hex-seats", id: "hex-seats" }, el("span", { class: "races-label", text: "Who plays the other seats" }));
  const hotseat = el("input", { type: "checkbox", id: "hex-hotseat", name: "hex_hotseat" });
  const names = [el("input", { id: "hex-hotseat-0", type: "text", maxlength: 24, value: "Red", "aria-label": "first player's name" }),
    el("input", { id: "hex-hotseat-1", type: "text", maxlength: 24, value: "Blue", "aria-label": "second player's name" })];
  const hotNames = el("div", { class: "hex-hotseat-names", hidden: true },
    el("label", {}, "First player ", names[0]), el("label", {}, "Second player ", names[1]));
  box.append(
    el("p", { class: "game-blurb", text: "Fleets on a hex map. Each turn ships are activated by chits drawn from a cup; shields, fire and damage are decided by playing cards, with the odds shown before you fire. Last side that can fight wins." }),
    el("label", {}, "Scenario ", scenario), about, custom,
    el("label", {}, "Turn limit (then the strongest side wins) ", turnLimit),
    el("label", { class: "check" }, hotseat, " Hot seat: two people at this screen"), hotNames, seatsBox);
  scenario.addEventListener("change", () => update(built.seats));
  hotseat.addEventListener("change", () => update(built.seats));
  return { scenario, about, custom, turnLimit, seatsBox, hotseat, names, hotNames, fleets: [], seats: 2 };
}

function update(seats) {
  const { scenario, about, custom, seatsBox, hotseat, hotNames } = built;
  const chosen = data.scenarios?.[scenario.value];
  clear(about);
  if (chosen) {
    about.append(el("p", { class: "muted", text: `${chosen.about} Board ${chosen.board.width} x ${chosen.board.height} hexes.` }),
      el("ul", { class: "hex-sides" }, Array.from({ length: seats }, (_, i) => el("li", {},
        el("b", { text: `Side ${i + 1}: ` }),
        i < chosen.sides.length ? shipsText(chosen.sides[i]) : `${shipsText(chosen.sides[0])} (numbered ${i + 1})`))));
  } else if (scenario.value === "custom") {
    about.append(el("p", { class: "muted", text: `Build each side's fleet: up to ${data.maxShips} ships a side, each a class, a medium ship's weapons and a name.` }));
  }
  custom.hidden = scenario.value !== "custom";
  for (let i = built.fleets.length; i < seats; i += 1) addSide(i);
  built.fleets.forEach((side, i) => { side.box.hidden = i >= seats; });
  hotNames.hidden = !hotseat.checked;
  // One choice per other seat (seats after the hot seat's two when it is on).
  const first = hotseat.checked ? 2 : 1;
  const selects = [...seatsBox.querySelectorAll("select")];
  for (let i = selects.length + 1; i < 4; i += 1) {
    const select = el("select", { id: `hex-seat-${i}`, "aria-label": `who plays seat ${i + 1}`, dataset: { seat: i } });
    const about2 = el("small", { class: "bot-about" });
    select.addEventListener("change", () => { about2.textContent = data.bots.about[select.value] || ""; });
    seatsBox.append(el("label", { class: "ftl-seat hex-seat", dataset: { seat: i } }, `seat ${i + 1} `, select, about2));
  }
  for (const select of seatsBox.querySelectorAll("select")) {
    const was = select.value;
    select.replaceChildren(el("option", { value: "", text: "a friend (share the link)" }),
      ...data.bots.levels.map((level) => el("option", { value: level, text: `${level} bot` })));
    select.value = select.dataset.touched ? was : data.bots.default;
    select.dataset.touched = "yes";
    select.nextElementSibling.textContent = data.bots.about[select.value] || "";
  }
  for (const label of seatsBox.querySelectorAll(".hex-seat")) {
    const seat = Number(label.dataset.seat);
    label.hidden = seat < first || seat >= seats;
  }
  seatsBox.hidden = first >= seats;
}

/** A side of the custom fleets: its ships' rows and an Add ship button. */
function addSide(index) {
  const list = el("ol", { class: "hex-fleet-ships" });
  const side = { list, box: null };
  const add = el("button", { type: "button", class: "secondary add-ship", on: { click: () => addShip(side, index) } }, "Add ship");
  side.box = el("fieldset", { class: "hex-fleet-side", dataset: { side: index } }, el("legend", { text: `Side ${index + 1}'s fleet` }), list, add);
  built.custom.append(side.box);
  built.fleets.push(side);
  addShip(side, index);
}

function addShip(side, index) {
  const count = side.list.children.length;
  if (count >= data.maxShips) return;
  const n = count + 1;
  const cls = el("select", { class: "ship-class", "aria-label": `side ${index + 1} ship ${n} class` },
    Object.entries(CLASS_NAMES).map(([value, text]) => el("option", { value, text, selected: value === "medium" })));
  const weapons = el("select", { class: "ship-weapons", "aria-label": `side ${index + 1} ship ${n} weapons` },
    el("option", { value: "heavy", text: "heavy weapons" }), el("option", { value: "light", text: "light weapons" }));
  const name = el("input", { class: "ship-name-input", type: "text", maxlength: 24, placeholder: "name",
    "aria-label": `side ${index + 1} ship ${n} name`, value: `${["Aegis", "Brand", "Corsair", "Drake"][index]} ${n}` });
  const row = el("li", { class: "hex-fleet-ship" }, cls, weapons, name,
    el("button", { type: "button", class: "secondary remove-ship", "aria-label": `remove side ${index + 1} ship ${n}`,
      on: { click: () => { if (side.list.children.length > 1) row.remove(); } } }, "✕"));
  cls.addEventListener("change", () => { weapons.hidden = cls.value !== "medium"; });
  side.list.append(row);
}

/** The POST /api/rooms body of the hex fleet options for `seats` sides. */
export function hexRoomBody(seats) {
  const body = { ruleset: "hexfleet", seats, scenario: built.scenario.value, turn_limit: Number(built.turnLimit.value) || 20 };
  if (body.scenario === "custom") {
    body.fleets = built.fleets.slice(0, seats).map((side) => [...side.list.children].map((row) => {
      const cls = row.querySelector(".ship-class").value;
      const name = row.querySelector(".ship-name-input").value.trim();
      return { class: cls, weapons: cls === "medium" ? row.querySelector(".ship-weapons").value : null, name: name || null };
    }));
    if (body.fleets.some((fleet) => !fleet.length)) throw new Error("every side needs at least one ship");
  }
  return body;
}

/** The room page's address for a room just created: hot seat, bots, or just us. */
export function hexRoomLink(room, seats) {
  const href = `/rooms/${encodeURIComponent(room.id)}`;
  const first = built.hotseat.checked ? 2 : 1;
  const bots = [...built.seatsBox.querySelectorAll("select")].filter((s) => Number(s.dataset.seat) >= first
    && Number(s.dataset.seat) < seats && s.value).map((s) => `${s.dataset.seat}:${s.value}`).join(",");
  const params = new URLSearchParams();
  if (built.hotseat.checked) params.set("hotseat", built.names.map((n, i) => n.value.trim() || ["Red", "Blue"][i]).join(","));
  if (bots) params.set("bots", bots);
  if (!params.toString()) params.set("join", "1");
  return `${href}?${params.toString().replace(/%2C/g, ",").replace(/%3A/g, ":")}`;
}
