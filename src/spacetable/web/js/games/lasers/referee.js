// The laser games' referee sandbox (Light Speed, Stellar Conflict): lay out any cards, no
// clock, then resolve the battle on the server (POST /api/resolve) and watch it. Tables
// export and import as table files (DESIGN section 3).

import "./sheet.js";
import { $, clear, el, fetchJSON, followPointer, postJSON, readJSON, setPhase, svg } from "../../shell/dom.js";
import { loadCatalog } from "./cards.js";
import { COLOUR_NAMES, colourOf } from "../../shell/colours.js";
import { CARD_SIZE, cardTransform, cardsTouch, fmt } from "./geometry.js";
import { normAngle } from "../../shell/angles.js";
import { TableView, dragRotateHandle, rotateHandle } from "./table.js";
import { Inspector, inspectorPanel } from "./inspector.js";
import { playBattle } from "./scores.js";
import { laserSandboxParts } from "./referee_markup.js";
import { mountSandbox, showSandboxError } from "../../shell/sandbox.js";
import { PhotoReader } from "./photo.js";
import { playerName, t, tn, tParts } from "../../shell/i18n.js";
import { errorText } from "../../shell/phrase.js";

// The least area the sandbox shows around the origin (mm): room to lay out a battle.
const REFEREE_VIEW = [720, 520];
/** The words of the sandbox (kept together for translation). */
const OTHER_SHIPS = () => t("Other ships");
const IMPORTED = (name) => tParts("{file}: its table is shown. Press Resolve to see its battle.", { file: asIs(name) });
/** A name the page shows as it is (a file's, a card's id): no language's words. */
const asIs = (text) => el("span", { translate: "no", text });
/** The asteroid a Light Speed table starts with (Stellar Conflict's have cargo ships instead). */
const START_ASTEROID = { id: "asteroid", type: "asteroid", x: 0, y: 0, rotation: 0, rocks: 12 };
const VARIANTS = { lightspeed: ["piracy", () => t("Piracy")], stellar: ["stolen_goods", () => t("Stolen goods")] };

let view = null;
let photo = null; // the photo referee's panel (photo.js): a photo's cards, its close calls
let started = null; // what the page may ask of the sandbox, once it is built
let handOff = () => {}; // opens a file of another game in its own sandbox
const sandbox = {
  ruleset: "lightspeed",
  players: COLOUR_NAMES.slice(0, 2),
  variant: false,
  catalog: {},
  races: {}, // Stellar Conflict's races: {race: {name, ships: [keys]}}
  extra: {}, // fields of an imported file kept as they were: ships, card_size, table
  cards: [],
  selected: null,
  battle: null,
};

const ships = () => ({ ...sandbox.catalog, ...(sandbox.extra.ships || {}) });
const cardSize = () => sandbox.extra.card_size || CARD_SIZE;
const sizeOf = (card) => card.size || cardSize();
/** A player's colour: by seat, unless every player is named after a colour (a photo's
 * table names them after their printed cards: green's cards stay green). */
const colourOfPlayer = (player) => {
  const named = COLOUR_NAMES.indexOf(player);
  if (named >= 0 && sandbox.players.every((p) => COLOUR_NAMES.includes(p))) return colourOf(named);
  return colourOf(Math.max(0, sandbox.players.indexOf(player)));
};
const editing = () => !sandbox.battle;

// -- the table file ---------------------------------------------------------------------------

/** The sandbox as a table file. */
function tableFile() {
  const [key] = VARIANTS[sandbox.ruleset];
  const file = { ruleset: sandbox.ruleset, players: [...sandbox.players], variant: { [key]: sandbox.variant } };
  for (const field of ["ships", "card_size", "table"]) {
    if (sandbox.extra[field]) file[field] = sandbox.extra[field];
  }
  file.cards = sandbox.cards.map((c) => ({ ...c }));
  return file;
}

/** Load a table file into the sandbox (only the shape is checked here; the server judges). */
async function loadFile(data) {
  if (!data || typeof data !== "object" || Array.isArray(data)) throw new Error(t("a table file must hold a JSON object"));
  if (!Array.isArray(data.cards)) throw new Error(t("'cards' must be a list"));
  if (!Array.isArray(data.players) || data.players.length < 2 || data.players.length > 4) {
    throw new Error(t("'players' must name 2 to 4 players"));
  }
  const ruleset = data.ruleset === "stellar" ? "stellar" : "lightspeed";
  await setRuleset(ruleset);
  sandbox.players = data.players.map(String);
  const [key] = VARIANTS[ruleset];
  sandbox.variant = Boolean(data.variant?.[key]);
  sandbox.extra = { ships: data.ships, card_size: data.card_size, table: data.table };
  // Table files may leave out a rotation (0) but the editor turns every card.
  sandbox.cards = data.cards.map((c) => ({ ...c, rotation: c.rotation ?? 0 }));
  sandbox.selected = null;
  renderSetup();
  fitView();
  render();
}

// -- editing ----------------------------------------------------------------------------------

async function setRuleset(ruleset) {
  sandbox.ruleset = ruleset;
  $("#ruleset").value = ruleset;
  try {
    sandbox.catalog = await loadCatalog(ruleset);
    if (ruleset === "stellar" && !Object.keys(sandbox.races).length) {
      sandbox.races = await fetchJSON("/api/games/stellar/races");
    }
  } catch (error) {
    sandbox.catalog = {};
    showError(t("cannot load the {ruleset} catalog: {error}", { ruleset, error: error.message }));
  }
  renderPalette();
}

function renderSetup() {
  $("#player-count").value = String(sandbox.players.length);
  const names = clear($("#player-names"));
  sandbox.players.forEach((player, i) => {
    names.append(el("label", { style: `--team: ${colourOfPlayer(player)}` }, el("span", { class: "swatch" }),
      el("input", { type: "text", id: `player-${i}`, value: playerName(player), maxlength: 24, "aria-label": t("player {n}'s name", { n: i + 1 }),
        on: { change: (e) => renamePlayer(i, e.target.value.trim()) } })));
  });
  const [, label] = VARIANTS[sandbox.ruleset];
  $("#variant-name").textContent = label();
  $("#variant").checked = sandbox.variant;
  const owner = $("#owner");
  const chosen = owner.value;
  clear(owner).append(...sandbox.players.map((p) => el("option", { value: p, selected: p === chosen, text: playerName(p) })));
}

function renamePlayer(index, name) {
  const old = sandbox.players[index];
  if (!name || name === playerName(old) || sandbox.players.includes(name)) {
    renderSetup();
    return;
  }
  sandbox.players[index] = name;
  for (const card of sandbox.cards) if (card.owner === old) card.owner = name;
  renderSetup();
  render();
}

function setPlayerCount(count) {
  const players = sandbox.players.slice(0, count);
  for (const name of COLOUR_NAMES) if (players.length < count && !players.includes(name)) players.push(name);
  sandbox.cards = sandbox.cards.filter((c) => c.type === "asteroid" || players.includes(c.owner));
  sandbox.players = players;
  renderSetup();
  render();
}

/** A ship button's tooltip: its speed and health. */
function shipTitle(def) {
  const and = t(" and ");
  return t("speed {speed}, health {health}", { speed: [def.speed].flat().join(and), health: def.health });
}

function renderPalette() {
  const box = clear($("#ship-buttons"));
  const all = ships();
  const entries = Object.entries(all);
  if (!entries.length) box.append(el("p", { class: "muted", text: t("This catalog has no ships.") }));
  const button = ([key, def]) => el("button", { type: "button", class: "add-ship", dataset: { ship: key },
    title: shipTitle(def),
    on: { click: () => addCard({ owner: $("#owner").value, ship: key }) } }, def.name);
  // Stellar Conflict's ships come under their race's heading; others (a file's own) after.
  const races = sandbox.ruleset === "stellar" ? Object.entries(sandbox.races) : [];
  const grouped = new Set();
  for (const [race, { name, ships: keys }] of races) {
    const own = keys.filter((key) => all[key]);
    if (!own.length) continue;
    own.forEach((key) => grouped.add(key));
    box.append(el("h3", { class: "race-heading", dataset: { race }, text: name }),
      el("div", { class: "race-ships", dataset: { race } }, ...own.map((key) => button([key, all[key]]))));
  }
  const rest = entries.filter(([key]) => !grouped.has(key));
  if (grouped.size && rest.length) box.append(el("h3", { class: "race-heading", text: OTHER_SHIPS() }));
  if (rest.length) box.append(el("div", { class: "race-ships" }, ...rest.map(button)));
}

/** A free id for a new card (`red-moth`, `red-moth-2`, ...). */
function freshId(base) {
  const ids = new Set(sandbox.cards.map((c) => c.id));
  if (!ids.has(base)) return base;
  let n = 2;
  while (ids.has(`${base}-${n}`)) n += 1;
  return `${base}-${n}`;
}

/** Add a card near the centre, on the first spot where it touches nothing. */
function addCard(fields) {
  if (!editing()) return;
  const base = fields.type === "asteroid" ? "asteroid" : `${fields.owner}-${fields.ship}`;
  const card = { id: freshId(base), ...fields, x: 0, y: 0, rotation: 0 };
  const size = sizeOf(card);
  for (let i = 0; i < 400; i += 1) {
    const ring = Math.ceil(Math.sqrt(i));
    const angle = i * 2.4;
    const pose = { x: Math.round(Math.cos(angle) * ring * 55), y: Math.round(Math.sin(angle) * ring * 55), rotation: 0 };
    if (!sandbox.cards.some((c) => cardsTouch(pose, size, c, sizeOf(c)))) {
      Object.assign(card, pose);
      break;
    }
  }
  sandbox.cards.push(card);
  sandbox.selected = card.id;
  render();
}

function selectedCard() {
  return sandbox.cards.find((c) => c.id === sandbox.selected) || null;
}

function rotateSelected(degrees) {
  const card = selectedCard();
  if (!card || !editing()) return;
  card.rotation = normAngle(card.rotation + degrees);
  render();
}

function deleteSelected() {
  if (!editing()) return;
  sandbox.cards = sandbox.cards.filter((c) => c.id !== sandbox.selected);
  sandbox.selected = null;
  render();
}

function fitView() {
  const table = sandbox.extra.table;
  const size = table ? [table.width, table.height] : null;
  view.setTable(size, sandbox.cards.map((c) => ({ ...c, size: sizeOf(c) })), REFEREE_VIEW);
}

/** Draw every card with its selection outline; the selected one gets a rotate handle. */
function render() {
  clear(view.cards);
  photo?.sync(sandbox.cards);
  for (const card of sandbox.cards) {
    const group = view.addCard(card, ships(), colourOfPlayer, cardSize());
    const [w, h] = sizeOf(card);
    group.classList.add("editor-card");
    photo?.mark(group, card);
    group.append(svg("rect", { class: "select-outline", x: -w / 2 - 2, y: -h / 2 - 2, width: w + 4, height: h + 4, rx: 4 }));
    const touching = sandbox.cards.some((o) => o !== card && cardsTouch(card, sizeOf(card), o, sizeOf(o)));
    group.classList.toggle("touching", touching);
    group.addEventListener("pointerdown", (e) => startDrag(e, card, group));
    if (card.id === sandbox.selected && editing()) {
      group.classList.add("selected");
      const handle = group.appendChild(rotateHandle(sizeOf(card)));
      dragRotateHandle(view, handle, () => card, (rotation) => {
        card.rotation = normAngle(rotation);
        group.setAttribute("transform", cardTransform(card));
        showSelection();
      });
      handle.addEventListener("pointerup", () => render());
    }
  }
  // While no ship lies on the table, it says what to do (the laser tables open empty).
  $("#referee-table-hint").hidden = !editing() || sandbox.cards.some((c) => c.type !== "asteroid");
  showSelection();
}

function showSelection() {
  const card = selectedCard();
  const text = $("#selected");
  if (!card) {
    text.textContent = t("Click a card to select it; drag to move it. Turn it with the wheel, Q / E or its yellow handle.");
    return;
  }
  const what = card.type === "asteroid" ? tn("asteroid ({n} rock)", "asteroid ({n} rocks)", card.rocks ?? 12)
    : t("{owner}'s {ship}", { owner: card.owner, ship: ships()[card.ship]?.name || card.ship });
  text.replaceChildren(...tParts("{card}: {what} at ({x}, {y}) mm, turned {angle}°", { card: asIs(card.id), what, x: Number(fmt(card.x)), y: Number(fmt(card.y)), angle: Number(fmt(card.rotation)) }));
}

function startDrag(event, card, group) {
  if (!editing()) return;
  event.stopPropagation();
  event.preventDefault();
  if (sandbox.selected !== card.id) {
    sandbox.selected = card.id;
    render();
    group = view.cardElement(card.id);
  }
  const start = view.toTable(event.clientX, event.clientY);
  const origin = { x: card.x, y: card.y };
  const area = view.svg;
  area.setPointerCapture(event.pointerId);
  const move = (e) => {
    const p = view.toTable(e.clientX, e.clientY);
    card.x = Math.round((origin.x + p.x - start.x) * 2) / 2;
    card.y = Math.round((origin.y + p.y - start.y) * 2) / 2;
    group.setAttribute("transform", cardTransform(card));
    showSelection();
  };
  followPointer(area, move, { onLift: () => render() });
}

// -- resolving --------------------------------------------------------------------------------

function showError(message) {
  showNote("");
  showSandboxError($("#referee-error"), message);
}

/** A note under the tools (what an import did), or none. */
function showNote(message) {
  const box = $("#referee-note");
  box.replaceChildren(...[message].flat());
  box.hidden = !box.textContent;
}

async function resolve() {
  showError("");
  const file = tableFile();
  let answer;
  try {
    answer = await postJSON("/api/resolve", file);
  } catch (error) {
    showError(errorText(error));
    return;
  }
  startBattle(answer.table || file, answer.result);
}

function startBattle(table, result) {
  stopBattle();
  sandbox.selected = null;
  render();
  for (const node of view.cards.children) node.classList.remove("touching", "selected");
  setPhase("battle");
  $("#battle-controls").hidden = false;
  $("#edit").hidden = false;
  $("#resolve").hidden = true;
  // Locked while the battle plays: dimmed, and inert (out of reach of the keyboard and of
  // assistive technology, whose contrast rules the dimmed text would not meet).
  for (const panel of ["#palette", "#selection", "#setup"]) lockPanel($(panel), true);
  sandbox.battle = playBattle(view, { table, result, ships: ships(), colourOf: colourOfPlayer });
}

function stopBattle() {
  sandbox.battle?.destroy();
  sandbox.battle = null;
  $("#battle-controls").hidden = true;
  $("#score-panel").hidden = true;
  $("#edit").hidden = true;
  $("#resolve").hidden = false;
  for (const panel of ["#palette", "#selection", "#setup"]) lockPanel($(panel), false);
}

function lockPanel(panel, locked) {
  panel.classList.toggle("locked", locked);
  panel.inert = locked;
}

function backToEditing() {
  stopBattle();
  setPhase("lobby");
  render();
}

// -- files ------------------------------------------------------------------------------------

function exportFile() {
  const blob = new Blob([`${JSON.stringify(tableFile(), null, 2)}\n`], { type: "application/json" });
  const link = el("a", { href: URL.createObjectURL(blob), download: "table.json" });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

async function importFile(file) {
  showError("");
  const { data, error } = await readJSON(await file.text());
  if (error !== undefined) {
    showError(tParts("{file}: {error}", { file: asIs(file.name), error }));
    return;
  }
  if (data?.ruleset === "lightspeed" || data?.ruleset === "stellar") await importData(data, file.name);
  else handOff(data, file.name);
}

/**
 * Open the table file `data` (read from `name`) and show its table: the server checks it
 * at once (and says what is wrong), but its battle waits for Resolve.
 */
async function importData(data, name) {
  try {
    backToEditing();
    await loadFile(data);
  } catch (error) {
    showError(tParts("{file}: {error}", { file: asIs(name), error: errorText(error) }));
    return;
  }
  showError("");
  try {
    await postJSON("/api/resolve", tableFile());
  } catch (error) {
    showError(errorText(error));
    return;
  }
  showNote(IMPORTED(name));
}

/** Show a photo's table (photo.js) in the sandbox, ready to be corrected and resolved. */
async function openPhotoTable(table) {
  backToEditing();
  showNote("");
  await loadFile(table);
}

// -- wiring -----------------------------------------------------------------------------------

function listen() {
  $("#player-count").addEventListener("change", (e) => setPlayerCount(Number(e.target.value)));
  $("#variant").addEventListener("change", (e) => { sandbox.variant = e.target.checked; });
  $("#add-asteroid").addEventListener("click", () => {
    const rocks = Math.max(0, Math.round(Number($("#asteroid-rocks").value) || 0));
    addCard({ type: "asteroid", rocks });
  });
  $("#rotate-left").addEventListener("click", () => rotateSelected(15));
  $("#rotate-right").addEventListener("click", () => rotateSelected(-15));
  $("#delete").addEventListener("click", deleteSelected);
  $("#clear").addEventListener("click", () => {
    if (!editing()) return;
    sandbox.cards = [];
    sandbox.selected = null;
    render();
  });
  $("#resolve").addEventListener("click", resolve);
  $("#edit").addEventListener("click", backToEditing);
  $("#export").addEventListener("click", exportFile);
  $("#import-file").addEventListener("change", (e) => {
    const [file] = e.target.files;
    if (file) importFile(file);
    e.target.value = "";
  });
  view.svg.addEventListener("pointerdown", () => {
    if (!editing() || !sandbox.selected) return;
    sandbox.selected = null; // a press on empty space
    render();
  });
  view.svg.addEventListener("wheel", (e) => {
    if (!editing() || !selectedCard()) return;
    e.preventDefault();
    const delta = e.deltaY || e.deltaX;
    if (delta) rotateSelected((delta > 0 ? -1 : 1) * (e.shiftKey ? 5 : 15));
  }, { passive: false });
  window.addEventListener("keydown", (e) => {
    if (e.target.closest?.("input, select, textarea")) return;
    const key = e.key.toLowerCase();
    if (key === "q" || key === "e") rotateSelected((key === "q" ? 1 : -1) * (e.shiftKey ? 5 : 15));
    else if (key === "delete" || key === "backspace") deleteSelected();
    else return;
    e.preventDefault();
  });
}

/** The sandbox changes game: a table of the other laser game keeps only its asteroids. */
async function switchRuleset(ruleset) {
  backToEditing();
  showError(""); // an error of the other game's table is no longer about this one
  photo.forget(); // so is a photo's result: its cards leave the table
  sandbox.extra = {};
  sandbox.cards = sandbox.cards.filter((c) => c.type === "asteroid" && !isStartAsteroid(c));
  if (ruleset === "lightspeed" && !sandbox.cards.length) sandbox.cards = [{ ...START_ASTEROID }];
  await setRuleset(ruleset);
  renderSetup();
  render();
}

/** Whether `card` is the asteroid a Light Speed table starts with, untouched. */
function isStartAsteroid(card) {
  return ["id", "x", "y", "rotation", "rocks"].every((k) => card[k] === START_ASTEROID[k]);
}

/** The page shows another game's sandbox: ours stops its battle and lets go of its card. */
function leave() {
  backToEditing();
  showError(""); // its error is about our table, which is put away
  sandbox.selected = null;
  render();
}

/**
 * Show the sandbox for `ruleset` ("lightspeed" or "stellar"), built the first time;
 * `onOtherGame(data, name)` opens a file of another game. Resolves with {importData, leave}.
 */
export async function startLaserReferee({ ruleset, onOtherGame = () => {} }) {
  handOff = onOtherGame;
  if (started) {
    if (ruleset !== sandbox.ruleset) await switchRuleset(ruleset);
    return started;
  }
  const parts = laserSandboxParts();
  photo = new PhotoReader({ openTable: openPhotoTable, showError, tableFile, redraw: render,
    shipName: (ship) => ships()[ship]?.name || ship });
  parts.side.splice(1, 0, photo.panel); // under the tools: Resolve, Export, Import
  started = { importData, leave, parts: mountSandbox(parts) };
  view = new TableView($("#table"));
  // Zoom and pan (buttons, Ctrl+wheel or the wheel with no card selected, pinch, a drag of empty space).
  view.enableGestures({ wheelZooms: () => !(editing() && selectedCard()) });
  const zoom = view.zoomControls();
  $("#table-wrap").append(zoom);
  started.parts.push(zoom); // the other games' boards have their own
  // Hover a card to see it large; in a battle, a click keeps it open.
  new Inspector(view, inspectorPanel(), {
    cardOf: (id) => (sandbox.battle ? sandbox.battle.byId[id] : sandbox.cards.find((c) => c.id === id)),
    ships, colourOf: colourOfPlayer, ruleset: () => sandbox.ruleset, canPin: () => !editing(),
  });
  listen();
  await setRuleset(ruleset);
  sandbox.cards = ruleset === "lightspeed" ? [{ ...START_ASTEROID }] : [];
  renderSetup();
  fitView();
  render();
  return started;
}
