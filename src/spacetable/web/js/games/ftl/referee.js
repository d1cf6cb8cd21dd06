// The referee sandbox for Faster Than Light: lay the ships and missiles where they stand on a
// real table, write each piece's order as the players wrote it, resolve the turn on the server
// (POST /api/resolve), watch it and read it told step by step, then go on to the next turn.
// Turn files (DESIGN section 5) export and import as they are.

import { $, clear, el, postJSON, setPhase } from "../../dom.js";
import { FtlBoard, HITS_TO_DESTROY, describePiece, nose, pieceList, seatColour } from "./board.js";
import { attachEditor, readOrders } from "./editor.js";
import { TurnHistory } from "./history.js";
import { inches } from "./turns.js";

const NAMES = ["red", "blue", "green", "purple"];
const DEFAULT_TABLE = { width: 48, height: 48 };
const SHIP_FIELDS = ["hits", "missiles", "launched"];

const ref = {
  players: ["red", "blue"], table: { ...DEFAULT_TABLE }, fileHasTable: false,
  pieces: [], orders: [], // the turn file's pieces and its orders [{piece, order}] in file order
  selected: null, phase: "edit", turn: 1, snapshot: null, shown: null, over: false,
};
let board = null;
let editor = null;
let history = null;
let handOff = () => {};
const clone = (value) => JSON.parse(JSON.stringify(value));
const editing = () => ref.phase === "edit";
const pieceById = (id) => ref.pieces.find((p) => p.id === id) || null;
const colour = (player) => seatColour(ref.players.indexOf(player));

/** Ships at their seats' starting places, as a match begins. */
function startingPieces(players, table) {
  const angles = { 2: [-90, 90], 3: [-90, 30, 150], 4: [-90, 90, 180, 0] }[players.length];
  const r = 0.375 * Math.min(table.width, table.height);
  return players.map((player, i) => {
    const a = (angles[i] * Math.PI) / 180;
    const x = Math.round(Math.cos(a) * r * 1000) / 1000;
    const y = Math.round(Math.sin(a) * r * 1000) / 1000;
    const heading = Math.round((Math.atan2(x, -y) * 180) / Math.PI) || 0; // facing the centre
    return { id: player, kind: "ship", owner: player, x, y, heading, hits: 0, missiles: 10, launched: 0 };
  });
}

// -- the turn file --------------------------------------------------------------------------

/** The table and the orders as a turn file. */
export function turnFile() {
  const file = { ruleset: "ftl", players: [...ref.players] };
  const { width, height } = ref.table;
  if (ref.fileHasTable || width !== DEFAULT_TABLE.width || height !== DEFAULT_TABLE.height) file.table = { width, height };
  file.pieces = ref.pieces.map((p) => clone(p));
  file.orders = ref.orders.map((o) => ({ ...o }));
  return file;
}

function loadFile(data) {
  ref.players = data.players.map(String);
  ref.fileHasTable = Boolean(data.table);
  ref.table = data.table ? { width: Number(data.table.width), height: Number(data.table.height) } : { ...DEFAULT_TABLE };
  ref.pieces = clone(data.pieces);
  ref.orders = clone(data.orders || []);
  ref.selected = null;
  ref.turn = 1;
  ref.over = false;
  history.reset();
  setEditing();
  board.setTable(ref.table);
  board.fitPieces(ref.pieces, { pad: 5, least: 16 });
  renderSetup();
  renderList();
  render();
}

/** The orders written for `id`, as one text. */
const ordersText = (id) => ref.orders.filter((o) => o.piece === id).map((o) => o.order).join(" ");

/** Replace the orders of `id` (keeping their place in the file's order). */
function setOrders(id, orders) {
  const at = ref.orders.findIndex((o) => o.piece === id);
  const rest = ref.orders.filter((o) => o.piece !== id);
  const mine = orders.map((order) => ({ piece: id, order }));
  rest.splice(at < 0 ? rest.length : at, 0, ...mine);
  ref.orders = rest;
}

// -- drawing --------------------------------------------------------------------------------

function render() {
  board.draw(ref.shown || ref.pieces, { players: ref.players, highlight: editing() ? ref.selected : null });
  editor.drawHandle();
  updateRows();
  renderSelected();
}

function setEditing() {
  ref.phase = "edit";
  ref.shown = null;
  ref.snapshot = null;
  history?.stop();
  board.layer("anim").replaceChildren();
  setPhase("lobby");
  updateTools();
}

function updateTools() {
  const resolved = ref.phase === "resolved";
  $("#ftl-resolve").hidden = !editing();
  $("#ftl-next").hidden = !resolved;
  $("#ftl-next").disabled = ref.over;
  $("#ftl-edit").hidden = editing();
  $("#ftl-edit").disabled = ref.phase === "animating";
  $("#ftl-history-panel").hidden = !history?.turns.length;
  $("#ftl-account-panel").hidden = editing();
  for (const id of ["#ftl-setup", "#ftl-add", "#ftl-selected"]) $(id).classList.toggle("locked", !editing());
  const status = ref.phase === "animating" ? `Turn ${ref.turn}: resolving…`
    : resolved ? (ref.over ? `Turn ${ref.turn} resolved. The game is over.` : `Turn ${ref.turn} resolved. Press Next turn to write the next orders from here.`)
      : `Turn ${ref.turn}: put the pieces where they stand, write the orders, then Resolve.`;
  $("#ftl-status").textContent = status;
}

function renderSetup() {
  $("#ftl-player-count").value = String(ref.players.length);
  const names = clear($("#ftl-player-names"));
  ref.players.forEach((player, i) => {
    names.append(el("label", { style: `--team: ${seatColour(i)}` }, el("span", { class: "swatch" }),
      el("input", { type: "text", value: player, maxlength: 24, "aria-label": `player ${i + 1}`,
        on: { change: (e) => renamePlayer(i, e.target.value.trim()) } })));
  });
  $("#ftl-width").value = String(ref.table.width);
  $("#ftl-height").value = String(ref.table.height);
  const owner = $("#ftl-owner");
  const chosen = owner.value;
  clear(owner).append(...ref.players.map((p) => el("option", { value: p, selected: p === chosen, text: p })));
}

/** Rebuild the list of pieces, each with its order field (after pieces come or go). */
function renderList() {
  const list = clear($("#ftl-piece-list"));
  for (const piece of pieceList(ref.shown || ref.pieces)) {
    const input = el("input", { type: "text", class: "order-input", maxlength: 40, placeholder: "no order",
      "aria-label": `order for ${piece.id}`, value: ordersText(piece.id), spellcheck: "false", autocapitalize: "characters",
      on: { input: (e) => writeOrders(piece.id, e.target.value), focus: () => select(piece.id) } });
    list.append(el("li", { class: `ftl-piece-row ${piece.kind}`, dataset: { piece: piece.id }, style: `--team: ${colour(piece.owner)}` },
      el("button", { type: "button", class: "piece-pick", on: { click: () => select(piece.id) } },
        el("span", { class: `piece-icon ${piece.kind}` }), el("b", { text: piece.id })),
      el("span", { class: "piece-where" }),
      input,
      el("p", { class: "order-problem", role: "alert", hidden: true }),
      el("p", { class: "order-note", hidden: true })));
  }
  if (!list.children.length) list.append(el("li", { class: "muted", text: "No piece yet: add a ship." }));
  updateRows();
}

/** Refresh each row's position, hits and order checks. */
function updateRows() {
  for (const row of $("#ftl-piece-list").children) {
    const piece = pieceList(ref.shown || ref.pieces).find((p) => p.id === row.dataset.piece);
    if (!piece) continue;
    const gone = piece.on_table === false;
    const ship = piece.kind !== "missile";
    row.classList.toggle("selected", piece.id === ref.selected && editing());
    row.classList.toggle("removed", gone);
    row.querySelector(".piece-where").textContent = gone ? "removed" : `(${inches(piece.x)}, ${inches(piece.y)}) in · ${inches(piece.heading || 0)}°`
      + (ship ? ` · ${piece.hits || 0} hit${piece.hits === 1 ? "" : "s"} · ${piece.missiles ?? 10} left` : "");
    row.title = describePiece(piece);
    const input = row.querySelector(".order-input");
    input.disabled = !editing();
    const { problem, note } = editing() ? readOrders(piece, input.value) : { problem: null, note: null };
    input.setAttribute("aria-invalid", problem ? "true" : "false");
    const shownProblem = row.querySelector(".order-problem");
    shownProblem.hidden = !problem;
    shownProblem.textContent = problem || "";
    const shownNote = row.querySelector(".order-note");
    shownNote.hidden = !note;
    shownNote.textContent = note || "";
  }
}

function writeOrders(id, text) {
  const piece = pieceById(id);
  if (!piece) return;
  setOrders(id, readOrders(piece, text).orders);
  updateRows();
}

/** The selected piece's fields: id, owner, post, heading, a ship's hits and missiles. */
function renderSelected() {
  const box = clear($("#ftl-selected-fields"));
  const piece = editing() ? pieceById(ref.selected) : null;
  $("#ftl-selected-help").hidden = Boolean(piece);
  $("#ftl-selected-tools").hidden = !piece;
  if (!piece) return;
  const field = (label, key, attrs = {}) => el("label", {}, label, el("input", { type: "number", step: "any", value: piece[key] ?? (key === "missiles" ? 10 : 0),
    dataset: { field: key }, ...attrs, on: { change: (e) => setField(piece, key, Number(e.target.value)) } }));
  box.append(el("p", { class: "selected-title", style: `--team: ${colour(piece.owner)}` }, el("span", { class: "swatch" }),
    el("b", { text: piece.id }), ` · ${piece.owner}'s ${piece.kind}`));
  box.append(field("x (in)", "x"), field("y (in)", "y"), field("heading (°)", "heading", { step: 15 }));
  if (piece.kind !== "missile") {
    box.append(field("hits", "hits", { min: 0, max: HITS_TO_DESTROY - 1, step: 1 }), field("missiles left", "missiles", { min: 0, step: 1 }),
      field("launched", "launched", { min: 0, step: 1 }));
  }
}

function setField(piece, key, value) {
  if (!Number.isFinite(value)) return render();
  piece[key] = SHIP_FIELDS.includes(key) ? Math.max(0, Math.round(value)) : value;
  render();
}

// -- editing --------------------------------------------------------------------------------

function select(id) {
  if (!editing() || ref.selected === id) return;
  ref.selected = id;
  render();
}

function freeSpot(x, y) {
  for (let i = 0; i < 200; i += 1) {
    const p = { x: x + (i % 10) * 2, y: y - Math.floor(i / 10) * 2.5 };
    if (!ref.pieces.some((o) => Math.hypot(o.x - p.x, o.y - p.y) < 1.6)) return p;
  }
  return { x, y };
}

function addShip(owner) {
  let id = owner;
  for (let n = 2; pieceById(id); n += 1) id = `${owner}-${n}`;
  const spot = freeSpot(0, 0);
  ref.pieces.push({ id, kind: "ship", owner, x: spot.x, y: spot.y, heading: 0, hits: 0, missiles: 10, launched: 0 });
  ref.selected = id;
  renderList();
  render();
}

/** A missile just ahead of the owner's ship, counted as launched by it. */
function addMissile(owner) {
  const ship = ref.pieces.find((p) => p.kind !== "missile" && p.owner === owner);
  let id;
  let place = freeSpot(0, -3);
  if (ship) {
    let k = (ship.launched || 0) + 1;
    while (pieceById(`${ship.id}-m${k}`)) k += 1;
    id = `${ship.id}-m${k}`;
    ship.launched = k;
    ship.missiles = Math.max(0, (ship.missiles ?? 10) - 1);
    const front = nose(ship);
    const [dx, dy] = [(front.x - ship.x) / 0.75, (front.y - ship.y) / 0.75];
    place = { x: Math.round((front.x + dx * 0.5) * 1000) / 1000, y: Math.round((front.y + dy * 0.5) * 1000) / 1000 };
  } else {
    let k = 1;
    while (pieceById(`${owner}-m${k}`)) k += 1;
    id = `${owner}-m${k}`;
  }
  ref.pieces.push({ id, kind: "missile", owner, x: place.x, y: place.y, heading: ship?.heading ?? 0 });
  ref.selected = id;
  renderList();
  render();
}

function removePiece(id) {
  if (!editing() || !id) return;
  ref.pieces = ref.pieces.filter((p) => p.id !== id);
  ref.orders = ref.orders.filter((o) => o.piece !== id);
  ref.selected = null;
  renderList();
  render();
}

function renamePlayer(index, name) {
  const old = ref.players[index];
  if (!name || ref.players.includes(name)) return renderSetup();
  ref.players[index] = name;
  const ids = new Map();
  for (const piece of ref.pieces.filter((p) => p.owner === old)) {
    piece.owner = name;
    const id = piece.id === old ? name : piece.id.startsWith(`${old}-`) ? name + piece.id.slice(old.length) : piece.id;
    if (id !== piece.id && !pieceById(id)) ids.set(piece.id, id), (piece.id = id);
  }
  for (const order of ref.orders) order.piece = ids.get(order.piece) || order.piece;
  if (ids.has(ref.selected)) ref.selected = ids.get(ref.selected);
  renderSetup();
  renderList();
  render();
}

function setPlayerCount(count) {
  const players = ref.players.slice(0, count);
  for (const name of NAMES) if (players.length < count && !players.includes(name)) players.push(name);
  const added = players.filter((p) => !ref.players.includes(p));
  ref.players = players;
  ref.pieces = ref.pieces.filter((p) => players.includes(p.owner));
  ref.orders = ref.orders.filter((o) => pieceById(o.piece));
  const seats = startingPieces(players, ref.table);
  for (const player of added) ref.pieces.push(seats[players.indexOf(player)]);
  renderSetup();
  renderList();
  render();
}

function setTableSize() {
  const width = Number($("#ftl-width").value);
  const height = Number($("#ftl-height").value);
  if (!(width >= 6 && width <= 1000 && height >= 6 && height <= 1000)) return renderSetup();
  ref.table = { width, height };
  board.setTable(ref.table);
  render();
}

// -- resolving ------------------------------------------------------------------------------

function showError(message) {
  const box = $("#ftl-error");
  box.textContent = message;
  box.hidden = !message;
  if (message) box.scrollIntoView?.({ block: "nearest" });
}

/** Each player's orders as the `plot` events of a match, for the account and the history. */
function plots(file) {
  const owners = new Map(file.pieces.map((p) => [p.id, p.owner]));
  return file.players.map((player) => ({ type: "plot", player,
    orders: file.orders.filter((o) => owners.get(o.piece) === player).map((o) => `${o.piece}:${o.order}`) }));
}

async function resolve() {
  showError("");
  const problems = ref.pieces.map((p) => readOrders(p, ordersText(p.id)).problem).filter(Boolean);
  if (problems.length) return showError(problems[0]);
  const file = turnFile();
  let answer;
  try {
    answer = await postJSON("/api/resolve", file);
  } catch (error) {
    return showError(error.message);
  }
  const result = answer.result || answer;
  ref.snapshot = { pieces: clone(ref.pieces), orders: clone(ref.orders) };
  ref.shown = Object.entries(result.pieces).map(([id, p]) => ({ id, ...p }));
  ref.over = Boolean(result.over);
  ref.phase = "animating";
  ref.selected = null;
  editor.drawHandle();
  setPhase("battle");
  updateTools();
  clear($("#ftl-account"));
  history.players = [...ref.players];
  await history.addTurn(ref.turn, file.pieces, [...plots(file), ...result.events]);
  if (ref.phase !== "animating") return;
  ref.phase = "resolved";
  renderList();
  setPhase("over");
  updateTools();
}

function nextTurn() {
  if (ref.phase !== "resolved" || ref.over) return;
  ref.pieces = ref.shown.filter((p) => p.on_table !== false).map(({ on_table: _gone, ...piece }) => {
    const before = ref.snapshot.pieces.find((b) => b.id === piece.id);
    if (before?.size) piece.size = before.size;
    return piece;
  });
  ref.orders = [];
  ref.turn += 1;
  setEditing();
  renderList();
  render();
}

function backToEditing() {
  if (!ref.snapshot) return;
  ref.pieces = ref.snapshot.pieces;
  ref.orders = ref.snapshot.orders;
  history.turns.pop();
  history.renderList();
  setEditing();
  renderList();
  render();
}

// -- files ----------------------------------------------------------------------------------

function exportFile() {
  const file = turnFile();
  const blob = new Blob([`${JSON.stringify(file, null, 2)}\n`], { type: "application/json" });
  const link = el("a", { href: URL.createObjectURL(blob), download: `ftl-turn-${ref.turn}.json` });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

/** Load a turn file's data (`name`: where it came from, for messages) once the server accepts it. */
export async function importData(data, name = "the file") {
  showError("");
  try {
    await postJSON("/api/resolve", data); // the server judges the file; a refused one changes nothing
  } catch (error) {
    return showError(`${name}: ${error.message}`);
  }
  loadFile(data);
}

async function importFile(file) {
  let data;
  try {
    data = JSON.parse(await file.text());
  } catch (error) {
    return showError(`${file.name}: not valid JSON (${error.message})`);
  }
  if (data && typeof data === "object" && !Array.isArray(data) && data.ruleset !== "ftl" && Array.isArray(data.cards)) {
    return handOff(data, file.name); // a Light Speed or Stellar Conflict table
  }
  await importData(data, file.name);
}

// -- the page -------------------------------------------------------------------------------

/**
 * Start the FTL referee in referee.html's #ftl-table and #ftl-referee. `onOtherGame(data,
 * name)` takes a table file of another game imported here. Returns {importData}.
 */
export function startFtlReferee({ onOtherGame = () => {} } = {}) {
  handOff = onOtherGame;
  if (board) return { importData };
  board = new FtlBoard($("#ftl-table"), ref.table);
  $("#table-wrap").append(board.zoomControls());
  editor = attachEditor(board, {
    pieces: () => ref.pieces, selected: () => ref.selected, select, remove: removePiece, enabled: editing,
    changed: () => render(),
  });
  history = new TurnHistory($("#ftl-history"), board, {
    players: ref.players,
    onStart: () => clear($("#ftl-account")),
    onStep: (text) => $("#ftl-account").append(el("li", { text })),
  });
  const on = (selector, event, handler) => $(selector).addEventListener(event, handler);
  on("#ftl-resolve", "click", resolve);
  on("#ftl-next", "click", nextTurn);
  on("#ftl-edit", "click", backToEditing);
  on("#ftl-export", "click", exportFile);
  on("#ftl-import-file", "change", (e) => {
    const [file] = e.target.files;
    if (file) importFile(file);
    e.target.value = "";
  });
  on("#ftl-player-count", "change", (e) => setPlayerCount(Number(e.target.value)));
  on("#ftl-width", "change", setTableSize);
  on("#ftl-height", "change", setTableSize);
  on("#ftl-add-ship", "click", () => editing() && addShip($("#ftl-owner").value));
  on("#ftl-add-missile", "click", () => editing() && addMissile($("#ftl-owner").value));
  on("#ftl-rotate-left", "click", () => editor.rotate(15));
  on("#ftl-rotate-right", "click", () => editor.rotate(-15));
  on("#ftl-delete", "click", () => removePiece(ref.selected));
  ref.pieces = startingPieces(ref.players, ref.table);
  renderSetup();
  renderList();
  setEditing();
  render();
  return { importData };
}
