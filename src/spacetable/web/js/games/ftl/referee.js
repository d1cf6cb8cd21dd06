// The referee sandbox for Faster Than Light: lay the ships and missiles where they stand on a
// real table, write each piece's order as the players wrote it, resolve the turn on the server
// (POST /api/resolve), watch it and read it told step by step, then go on to the next turn.
// Turn files (DESIGN section 5) export and import as they are.

import "./sheet.js";
import { $, clear, el, postJSON, readJSON, setPhase } from "../../shell/dom.js";
import { FtlBoard, HITS_TO_DESTROY, describePiece, pieceList, seatColour } from "./board.js";
import { attachEditor, readOrders } from "./editor.js";
import { TurnHistory, retell, tellLine } from "./history.js";
import { Sandbox } from "./sandbox.js";
import { bearing, endOf, endText, headingText, inches, ownerName, shownId } from "./turns.js";
import { ftlSandboxParts } from "./referee_markup.js";
import { mountSandbox, showSandboxError } from "../../shell/sandbox.js";
import { BoardTurn } from "../../shell/boardturn.js";
import { endCardIn } from "../../shell/endcard.js";
import { t, tn } from "../../shell/i18n.js";
import { errorText } from "../../shell/phrase.js";

const SHIP_FIELDS = ["hits", "missiles", "launched"];
/** The end card's words (kept together for translation). */
const END_WORDS = {
  wins: (winner) => t("{winner} wins", { winner: ownerName(winner) }),
  draw: t("Draw"),
  next: t("Back to editing takes this turn back to change its orders; Export keeps its turn file."),
  back: t("Back to editing"),
  export: t("Export"),
};

/** The turn file being written, and the page's state around it. */
const sandbox = new Sandbox();
const ref = { selected: null, phase: "edit", turn: 1, snapshot: null, shown: null, over: false };
let board = null;
let editor = null;
let history = null;
let endCard = null; // the end of the game, over the table (shell/endcard.js)
let handOff = () => {};
const clone = (value) => JSON.parse(JSON.stringify(value));
const editing = () => ref.phase === "edit";
const colour = (player) => seatColour(sandbox.players.indexOf(player));

function loadFile(data) {
  sandbox.load(data);
  ref.selected = null;
  ref.turn = 1;
  ref.over = false;
  history.reset();
  setEditing();
  board.setTable(sandbox.table);
  board.fitPieces(sandbox.pieces, { pad: 5, least: 16 });
  rebuild();
}

// -- drawing --------------------------------------------------------------------------------

function render() {
  board.draw(ref.shown || sandbox.pieces, { players: sandbox.players, highlight: editing() ? ref.selected : null });
  editor.drawHandle();
  updateRows();
  renderSelected();
}

function setEditing() {
  ref.phase = "edit";
  ref.shown = null;
  ref.snapshot = null;
  history?.stop();
  endCard?.hide();
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
  const turn = ref.turn;
  const status = ref.phase === "animating" ? t("Turn {turn}: resolving…", { turn })
    : resolved ? (ref.over ? t("Turn {turn} resolved. The game is over.", { turn }) : t("Turn {turn} resolved. Press Next turn to write the next orders from here.", { turn }))
      : t("Turn {turn}: put the pieces where they stand, write the orders, then Resolve.", { turn });
  $("#ftl-status").textContent = status;
}

function renderSetup() {
  $("#ftl-player-count").value = String(sandbox.players.length);
  const names = clear($("#ftl-player-names"));
  sandbox.players.forEach((player, i) => {
    names.append(el("label", { style: `--team: ${seatColour(i)}` }, el("span", { class: "swatch" }),
      el("input", { type: "text", value: player, maxlength: 24, "aria-label": t("player {n}", { n: i + 1 }),
        on: { change: (e) => renamePlayer(i, e.target.value.trim()) } })));
  });
  $("#ftl-width").value = String(sandbox.table.width);
  $("#ftl-height").value = String(sandbox.table.height);
  const owner = $("#ftl-owner");
  const chosen = owner.value;
  clear(owner).append(...sandbox.players.map((p) => el("option", { value: p, selected: p === chosen, text: ownerName(p) })));
}

/** Rebuild the list of pieces, each with its order field (after pieces come or go). */
function renderList() {
  const list = clear($("#ftl-piece-list"));
  for (const piece of pieceList(ref.shown || sandbox.pieces)) {
    const input = el("input", { type: "text", class: "order-input", maxlength: 40, placeholder: t("no order"),
      "aria-label": t("order for {piece}", { piece: shownId(piece.id, piece.owner) }), value: sandbox.ordersText(piece.id), spellcheck: "false", autocapitalize: "characters",
      on: { input: (e) => writeOrders(piece.id, e.target.value), focus: () => select(piece.id) } });
    list.append(el("li", { class: `ftl-piece-row ${piece.kind}`, dataset: { piece: piece.id }, style: `--team: ${colour(piece.owner)}` },
      el("button", { type: "button", class: "piece-pick", on: { click: () => select(piece.id) } },
        el("span", { class: `piece-icon ${piece.kind}` }), el("b", { text: shownId(piece.id, piece.owner) })),
      el("span", { class: "piece-where" }),
      input,
      el("p", { class: "order-problem", role: "alert", hidden: true }),
      el("p", { class: "order-note", hidden: true })));
  }
  if (!list.children.length) list.append(el("li", { class: "muted", text: t("No piece yet: add a ship.") }));
  updateRows();
}

/** Refresh each row's position, hits and order checks. */
function updateRows() {
  for (const row of $("#ftl-piece-list").children) {
    const piece = pieceList(ref.shown || sandbox.pieces).find((p) => p.id === row.dataset.piece);
    if (!piece) continue;
    const gone = piece.on_table === false;
    const ship = piece.kind !== "missile";
    row.classList.toggle("selected", piece.id === ref.selected && editing());
    row.classList.toggle("removed", gone);
    const [x, y] = board.frame.point(piece.x, piece.y);
    const where = t("({x}, {y}) in · {heading}", { x: inches(x), y: inches(y), heading: headingText(board.frame.heading(piece.heading || 0)) });
    row.querySelector(".piece-where").textContent = gone ? t("removed") : ship
      ? tn("{where} · {n} hit · {missiles} left", "{where} · {n} hits · {missiles} left", piece.hits || 0, { where, missiles: piece.missiles ?? 10 })
      : where;
    row.title = describePiece(piece, board.frame);
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
  const piece = sandbox.piece(id);
  if (!piece) return;
  sandbox.setOrders(id, readOrders(piece, text).orders);
  updateRows();
}

/** The selected piece's fields: id, owner, post, heading, a ship's hits and missiles. */
function renderSelected() {
  const box = clear($("#ftl-selected-fields"));
  const piece = editing() ? sandbox.piece(ref.selected) : null;
  $("#ftl-selected-help").hidden = Boolean(piece);
  $("#ftl-selected-tools").hidden = !piece;
  if (!piece) return;
  // The post and heading as the view shows them (a turned board: the viewer's frame).
  const [x, y] = board.frame.point(piece.x, piece.y);
  const shown = { ...piece, x, y, heading: bearing(board.frame.heading(piece.heading || 0)) };
  const field = (label, key, attrs = {}) => el("label", {}, label, el("input", { type: "number", step: "any", value: shown[key] ?? (key === "missiles" ? 10 : 0),
    dataset: { field: key }, ...attrs, on: { change: (e) => setField(piece, key, Number(e.target.value)) } }));
  const owner = ownerName(piece.owner);
  const whose = piece.kind === "missile" ? t("{owner}'s missile", { owner }) : t("{owner}'s ship", { owner });
  box.append(el("p", { class: "selected-title", style: `--team: ${colour(piece.owner)}` }, el("span", { class: "swatch" }),
    el("b", { text: shownId(piece.id, piece.owner) }), " · ", whose));
  box.append(field(t("x (in)"), "x"), field(t("y (in)"), "y"), field(t("facing (° clockwise from up)"), "heading", { step: 15 }));
  if (piece.kind !== "missile") {
    box.append(field(t("hits"), "hits", { min: 0, max: HITS_TO_DESTROY - 1, step: 1 }), field(t("missiles left"), "missiles", { min: 0, step: 1 }),
      field(t("launched"), "launched", { min: 0, step: 1 }));
  }
}

function setField(piece, key, value) {
  if (!Number.isFinite(value)) return render();
  if (key === "x" || key === "y") {
    // Typed in the view's frame: back to the table's.
    const shown = board.frame.point(piece.x, piece.y);
    shown[key === "x" ? 0 : 1] = value;
    [piece.x, piece.y] = board.frame.fromView(...shown);
  } else if (key === "heading") piece.heading = board.frame.headingFromView(-value); // a bearing typed
  else piece[key] = SHIP_FIELDS.includes(key) ? Math.max(0, Math.round(value)) : value;
  render();
}

// -- editing --------------------------------------------------------------------------------

function select(id) {
  if (!editing() || ref.selected === id) return;
  ref.selected = id;
  render();
}

/** After pieces came or went: the list, the board, the selected piece's fields. */
function rebuild() {
  renderSetup();
  renderList();
  render();
}

function addPiece(kind) {
  if (!editing()) return;
  const owner = $("#ftl-owner").value;
  ref.selected = kind === "ship" ? sandbox.addShip(owner) : sandbox.addMissile(owner);
  rebuild();
}

function removePiece(id) {
  if (!editing() || !id) return;
  sandbox.remove(id);
  ref.selected = null;
  rebuild();
}

function renamePlayer(index, name) {
  const ids = sandbox.renamePlayer(index, name);
  if (ids?.has(ref.selected)) ref.selected = ids.get(ref.selected);
  rebuild();
}

function setPlayerCount(count) {
  sandbox.setPlayerCount(count);
  if (!sandbox.piece(ref.selected)) ref.selected = null;
  rebuild();
}

function setTableSize() {
  const width = Number($("#ftl-width").value);
  const height = Number($("#ftl-height").value);
  if (!(width >= 6 && width <= 1000 && height >= 6 && height <= 1000)) return renderSetup();
  sandbox.table = { width, height };
  board.setTable(sandbox.table);
  render();
}

// -- resolving ------------------------------------------------------------------------------

function showError(message) {
  showSandboxError($("#ftl-error"), message);
}

async function resolve() {
  showError("");
  const [problem] = sandbox.problems();
  if (problem) return showError(problem);
  const file = sandbox.turnFile();
  let answer;
  try {
    answer = await postJSON("/api/resolve", file);
  } catch (error) {
    return showError(errorText(error));
  }
  const result = answer.result || answer;
  ref.snapshot = { pieces: clone(sandbox.pieces), orders: clone(sandbox.orders) };
  ref.shown = Object.entries(result.pieces).map(([id, p]) => ({ id, ...p }));
  ref.over = Boolean(result.over);
  ref.phase = "animating";
  ref.selected = null;
  editor.drawHandle();
  setPhase("battle");
  updateTools();
  clear($("#ftl-account"));
  history.players = [...sandbox.players];
  await history.addTurn(ref.turn, file.pieces, [...sandbox.plots(), ...result.events]);
  if (ref.phase !== "animating") return;
  ref.phase = "resolved";
  renderList();
  setPhase("over");
  updateTools();
  const end = endOf(result.events);
  if (end) showEnd(end);
}

/** The game is over: who won and how, and what the referee can do now, over the table. */
function showEnd(end) {
  const seat = sandbox.players.indexOf(end.winner);
  const title = el("p", { class: `end-title${end.winner ? " winner" : " draw"}`, id: "winner", dataset: { winner: end.winner ?? "" },
    style: seat >= 0 ? `--team: ${seatColour(seat)}` : null, text: end.winner ? END_WORDS.wins(end.winner) : END_WORDS.draw });
  endCard.show([title, el("p", { class: "end-reason", id: "ftl-end-reason", text: endText(end, true) }),
    el("p", { class: "end-detail muted", text: END_WORDS.next })], [
    el("button", { type: "button", id: "ftl-end-edit", on: { click: backToEditing } }, END_WORDS.back),
    el("button", { type: "button", id: "ftl-end-export", class: "secondary", on: { click: exportFile } }, END_WORDS.export),
  ]);
}

function nextTurn() {
  if (ref.phase !== "resolved" || ref.over) return;
  sandbox.pieces = ref.shown.filter((p) => p.on_table !== false).map(({ on_table: _gone, ...piece }) => {
    const before = ref.snapshot.pieces.find((b) => b.id === piece.id);
    if (before?.size) piece.size = before.size;
    return piece;
  });
  sandbox.orders = [];
  ref.turn += 1;
  setEditing();
  rebuild();
}

function backToEditing() {
  if (!ref.snapshot) return;
  sandbox.pieces = ref.snapshot.pieces;
  sandbox.orders = ref.snapshot.orders;
  history.dropLast();
  setEditing();
  rebuild();
}

// -- files ----------------------------------------------------------------------------------

function exportFile() {
  const file = sandbox.turnFile();
  const blob = new Blob([`${JSON.stringify(file, null, 2)}\n`], { type: "application/json" });
  const link = el("a", { href: URL.createObjectURL(blob), download: `ftl-turn-${ref.turn}.json` });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

/** Load a turn file's data (`name`: where it came from, for messages) once the server accepts it. */
export async function importData(data, name = t("the file")) {
  showError("");
  try {
    await postJSON("/api/resolve", data); // the server judges the file; a refused one changes nothing
  } catch (error) {
    return showError(t("{file}: {error}", { file: name, error: errorText(error) }));
  }
  loadFile(data);
}

async function importFile(file) {
  const { data, error } = await readJSON(await file.text());
  if (error !== undefined) return showError(t("{file}: {error}", { file: file.name, error }));
  const other = data && typeof data === "object" && !Array.isArray(data) && data.ruleset !== "ftl"
    && (typeof data.ruleset === "string" || Array.isArray(data.cards));
  if (other) return handOff(data, file.name); // another game's file (a laser table, a combat script)
  await importData(data, file.name);
}

// -- the page -------------------------------------------------------------------------------

let started = null;

/**
 * Start the FTL referee: its table and panels join the referee page the first time
 * (referee_markup.js). `onOtherGame(data, name)` takes a table file of another game
 * imported here. Returns {importData, parts}.
 */
export function startFtlReferee({ onOtherGame = () => {} } = {}) {
  handOff = onOtherGame;
  if (started) return started;
  const parts = mountSandbox(ftlSandboxParts());
  board = new FtlBoard($("#ftl-table"), sandbox.table);
  const zoom = board.zoomControls();
  const turn = new BoardTurn(board, "ftl.referee", { onChange: () => {
    if (editor) render();
    retell($("#ftl-account"), board.frame);
  } });
  zoom.append(turn.button);
  $("#table-wrap").append(zoom); // the page shows it with FTL's sandbox only
  endCard = endCardIn($("#table-wrap"), "ftl-end-card");
  // Leaving for another game's sandbox, its error goes: it was about this table, and so
  // does its end card.
  started = { importData, leave: () => { showError(""); endCard.hide(); }, parts: [...parts, zoom] };
  editor = attachEditor(board, {
    pieces: () => sandbox.pieces, selected: () => ref.selected, select, remove: removePiece, enabled: editing,
    changed: () => render(),
  });
  history = new TurnHistory($("#ftl-history"), board, {
    players: sandbox.players,
    onStart: () => clear($("#ftl-account")),
    onStep: (text, event, names) => tellLine($("#ftl-account"), text, event, names),
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
  on("#ftl-add-ship", "click", () => addPiece("ship"));
  on("#ftl-add-missile", "click", () => addPiece("missile"));
  on("#ftl-rotate-left", "click", () => editor.rotate(15));
  on("#ftl-rotate-right", "click", () => editor.rotate(-15));
  on("#ftl-delete", "click", () => removePiece(ref.selected));
  setEditing();
  rebuild();
  return started;
}
