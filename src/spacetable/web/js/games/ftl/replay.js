// The replay of a stored Faster Than Light match: the table as it stood before turn 1
// (`result.start`), then turn after turn from the flat event log, with the orders each
// player revealed, the account of the turn on the board, play / pause and stepping.

import "./sheet.js";
import { $, clear, el, setPhase } from "../../shell/dom.js";
import { FtlBoard, pieceList, seatColour } from "./board.js";
import { TurnHistory, retell, tellLine } from "./history.js";
import { missilesWords, outWords, splitTurns } from "./turns.js";
import { replayChat } from "../../shell/chatreplay.js";
import { bottomSidePicker, turnToBottom, viewerSide } from "../../shell/boardturn.js";
import { playerName, t, tn } from "../../shell/i18n.js";
import { botBadgeSpan } from "../../shell/botseats.js";
import { stoppedByPlayers } from "../../shell/endings.js";
import { replayTitle } from "../../shell/matchlist.js";

/**
 * The match time each turn resolved at (index 0: the start), from the stored actions: a
 * turn resolves when its plot timer runs out or when every player's plot is in.
 */
export function turnTimes(actions, players) {
  const times = [0];
  let plotted = new Set();
  for (const action of actions || []) {
    if (action.type === "plot") plotted.add(action.player);
    else if (action.type === "unplot") plotted.delete(action.player);
    if (action.type === "plot-timer" || plotted.size >= players.length) {
      times.push(action.t);
      plotted = new Set();
    }
  }
  return times;
}

const REASONS = () => ({
  "last-ship": t("the last with a ship on the table"),
  "no-ships": t("no ship was left on the table"),
  "turn-limit": t("the turn limit was reached (most hits scored, then most pieces left, win)"),
});

/** One line for a match's result: "red wins: the last with a ship on the table, after 3 turns";
 * none for a match its players stopped (the page's ending line says who resigned). */
export function resultText(result) {
  if (!result || stoppedByPlayers(result)) return "";
  const why = REASONS()[result.reason] || result.reason || "";
  const params = { player: result.winner, why };
  if (!result.turns) return result.winner ? t("{player} wins: {why}.", params) : t("A draw: {why}.", params);
  return result.winner ? tn("{player} wins: {why}, after {n} turn.", "{player} wins: {why}, after {n} turns.", result.turns, params)
    : tn("A draw: {why}, after {n} turn.", "A draw: {why}, after {n} turns.", result.turns, params);
}

/**
 * Fill the replay page (replay.html's table and side panel) with the FTL match `match`
 * (GET /api/matches/{id}) and start playing it.
 */
export function showFtlReplay(match) {
  const options = match.options || {};
  const players = options.players || (match.seats || []).map((s) => s.player);
  const [width, height] = options.table_size_in || [48, 48];
  document.body.classList.add("ftl-page");
  $("#match-title").textContent = replayTitle("Faster Than Light", players, match.finished_at);

  const board = new FtlBoard($("#table"), { width, height });
  $("#table-wrap").append(board.zoomControls());
  const side = $("#players").parentElement;
  const log = clear($("#replay-log"));
  log.classList.add("ftl-account");
  const status = el("p", { id: "ftl-result", class: "ftl-result game-result", text: resultText(match.result), hidden: !resultText(match.result) });
  const intro = el("section", { class: "panel ftl-intro" },
    el("h2", { text: "Faster Than Light" }),
    el("p", { class: "help", text: t("Each turn every player wrote one order per piece in secret (R: rotate, S: sprint so many inches, L: launch a missile); then the turn resolved: launches, rotations, and all sprints at once. Table {width} × {height} in.", { width, height }) }),
    status);
  // The turns and their controls: first under the board on a phone (css/endings.css).
  const historyBox = el("section", { class: "panel", id: "ftl-history", dataset: { replayControls: "" } });
  const accountHead = el("h2", { class: "ftl-account-title", text: t("What happened") });
  side.insertBefore(intro, $("#players"));
  side.insertBefore(historyBox, log);
  side.insertBefore(accountHead, log);

  const seatOf = (player) => (match.seats || []).find((s) => s.player === player);
  const showPlayers = (pieces) => {
    const list = clear($("#players"));
    players.forEach((player, i) => {
      const ship = pieceList(pieces).find((p) => p.kind === "ship" && p.owner === player);
      const seat = seatOf(player);
      const state = !ship ? "" : ship.on_table === false ? outWords(history.turns.slice(0, history.position), ship.id)
        : t("{hits} of 3 hits · {missiles} left", { hits: ship.hits || 0, missiles: missilesWords(ship.missiles ?? 10) });
      list.append(el("li", { class: `player${match.result?.winner === player ? " winner" : ""}`, dataset: { player }, style: `--team: ${seatColour(i)}` },
        el("span", { class: "swatch" }), el("span", { class: "player-name", text: playerName(player) }),
        botBadgeSpan(seat, player),
        el("span", { class: "ship-state", text: state })));
    });
  };

  const chat = replayChat(side, match);
  const times = turnTimes(match.actions, players);
  const history = new TurnHistory(historyBox, board, {
    players,
    onStart: (turn) => {
      clear(log);
      accountHead.textContent = t("What happened in turn {turn}", { turn });
      setPhase("battle");
    },
    onStep: (text, event, names) => tellLine(log, text, event, names),
    onShow: (position, pieces) => {
      showPlayers(pieces);
      chat.show(position >= times.length - 1 ? Infinity : times[position] ?? 0);
      if (position === 0) {
        clear(log);
        accountHead.textContent = t("What happened");
        log.append(el("li", { class: "muted", text: t("The ships at the start. Press Play, or step through the turns.") }));
      }
      setPhase(position >= history.turns.length ? "over" : "fast");
    },
  });
  const start = match.result?.start || [];
  // Whose side is at the bottom: the viewer's own if he played, else the first player's;
  // the board turns so that that side's ship starts at the bottom.
  intro.append(bottomSidePicker(players, `ftl.${match.id}`, {
    initial: viewerSide(players, match.seats),
    onChange: (player) => {
      const ship = start.find((p) => p.kind === "ship" && p.owner === player);
      board.setTurned(ship ? turnToBottom(ship.x, -ship.y) : 0);
      retell(log, board.frame);
    },
  }));

  history.setMatch(start, splitTurns(match.events));
  // Framed on every place a piece stands in the match, not only the start: a piece sprinting
  // to the table's edge stays in view (the start's frame left it off a phone's screen).
  const everywhere = Array.from({ length: history.turns.length + 1 }, (_, i) => pieceList(history.piecesAt(i))).flat();
  board.fitPieces(everywhere, { least: 30 });
  history.play();
  return history;
}
