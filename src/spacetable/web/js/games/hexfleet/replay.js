// The replay of a stored hex fleet battle: the board, the stored frames stepped through
// (play / pause / step back and forward / go to a turn), each step's cards, the ships' logs
// and the result.
//
// API:
//   export async function showHexReplay(page, match)
//     page: the document (or an element) holding replay.html's #table, #table-wrap,
//       #players and #replay-log (hidden: the ship logs tell the battle).
//     match: GET /api/matches/{id} of a hexfleet match (its `events` are the frames: the
//       opening frame with action null, then one per action; `result`).
//   export function resultText(result) -> "ann wins: ... after 6 turns; strength left ann
//     90%, bob 68%." (also for the matches list).

import { replayChat } from "../../shell/chatreplay.js";
import { botBadgeSpan } from "../../shell/botseats.js";
import "./sheet.js";
import { clear, el, fetchJSON, setPhase } from "../../shell/dom.js";
import { colourOf as seatColour } from "../../shell/colours.js";
import { num, playerName, t, tn } from "../../shell/i18n.js";
import { stoppedByPlayers } from "../../shell/endings.js";
import { replayTitle } from "../../shell/matchlist.js";
import { logText } from "./cardnames.js";
import { HexBoard } from "./board.js";
import { bottomSidePicker, viewerSide } from "../../shell/boardturn.js";
import { turnsCards } from "./salvo.js";
import { CardTray } from "./reveal.js";
import { ShipLogs } from "./shiplog.js";

const REASONS = () => ({
  "last-side": t("the only side left with a ship that can fight"),
  "no-side": t("no side has a ship left that can fight"),
  "turn-limit": t("the turn limit was reached, decided on strength left"),
});
const CLASSES = () => ({ light: t("light"), medium: t("medium"), heavy: t("heavy") });
/** How long a step without cards stays on screen while playing (ms, at speed 1). */
const STEP_MS = 1100;
const SPEEDS = [0.5, 1, 2, 4];

const percent = (share) => num(Math.round(share * 100) / 100, { style: "percent" });

/** The strength of each side in words: "ann 90%, bob 68%". */
export function strengthText(strength) {
  return Object.entries(strength || {}).map(([side, share]) => `${playerName(side)} ${percent(share)}`).join(", ");
}

/** One line for a battle's result: "ann wins: ... after 6 turns; strength left ann 90%, bob 68%."
 * A battle its players stopped has only the strength left (the page's ending line says who
 * resigned: it was said twice). */
export function resultText(result) {
  if (!result) return "";
  if (stoppedByPlayers(result)) return result.strength ? t("Strength left: {strength}.", { strength: strengthText(result.strength) }) : "";
  const why = REASONS()[result.reason] || result.reason || "";
  const turns = result.turns ? tn(", after {n} turn", ", after {n} turns", result.turns) : "";
  const strength = result.strength ? t("; strength left {strength}", { strength: strengthText(result.strength) }) : "";
  const verdict = result.winner ? t("{player} wins", { player: result.winner }) : t("A draw");
  return t("{verdict}: {why}{turns}{strength}.", { verdict, why, turns, strength });
}

/** The board's size for the match's options: its own, or its scenario's. */
async function boardSize(options) {
  if (Array.isArray(options.board)) return options.board;
  try {
    const { scenarios } = await fetchJSON("/api/games/hexfleet/scenarios");
    const board = scenarios[options.scenario]?.board;
    if (board) return [board.width, board.height];
  } catch {
    // the resource could not be read: fall back to the engine's default size
  }
  return [24, 16];
}

/** What a step did, in a few words: the action's first log line, or the opening. */
function stepText(frame, index) {
  if (index === 0 || !frame.action) return t("The fleets at the start of the battle. Press ▶ Play, or step with Next ▶.");
  const lines = frame.log || [];
  const main = lines.find((l) => !/activation ends|chit comes out|turn \d+ (begins|ends)|blank chit/.test(l.text)) || lines[0];
  return t("{player}: {what}", { player: frame.player, what: main ? logText(main) : frame.action.type });
}

/** A ship's systems in a line: "shields 15/16 (up) · weapons 15/16 · propulsion 6/8". */
function shipState(ship) {
  if (ship.status === "wrecked") return "wrecked";
  if (ship.status === "gone") return t("left the battle");
  const where = ship.status === "jumped" ? " · " + t("jumped out, back on turn {turn}", { turn: ship.returns_on }) : "";
  const shields = ship.shields_up ? t("shields {left}/{max} (up)", { left: ship.shields, max: ship.shields_max })
    : t("shields {left}/{max}", { left: ship.shields, max: ship.shields_max });
  const weapons = t("weapons {left}/{max}", { left: ship.weapon_systems, max: ship.weapon_systems_max });
  const propulsion = t("propulsion {left}/{max}", { left: ship.propulsion, max: ship.propulsion_max });
  return `${shields} · ${weapons} · ${propulsion}${where}`;
}

/** Fill the replay page with the hex fleet battle `match` and start playing it. */
export async function showHexReplay(page, match) {
  const find = (selector) => page.querySelector(selector);
  const frames = match.events || [];
  const options = match.options || {};
  const players = options.players || (match.seats || []).map((s) => s.player);
  const colourOf = (owner) => seatColour(Math.max(0, players.indexOf(owner)));
  document.body.classList.add("hx-replay");
  find("#match-title").textContent = replayTitle(t("Hex fleet"), players, match.finished_at);
  find("#replay-log").hidden = true;

  const [width, height] = await boardSize(options);
  const board = new HexBoard(find("#table"), { width, height, colourOf });
  const wrap = find("#table-wrap");
  wrap.append(board.zoomControls());
  // Whose side is at the bottom: the viewer's own if he played, else the first player's;
  // the board turns so that that side's fleet starts at the bottom.
  const bottomSide = bottomSidePicker(players, `hexfleet.${match.id}`, {
    initial: viewerSide(players, match.seats),
    onChange: (player) => board.setTurned(board.turnFor(player, frames[0]?.ships || [])),
  });
  // The cards under the board, the salvo drawn on it: as the room shows them (reveal.js).
  const cardTray = new CardTray(wrap, board, { stepText: true });
  const trayText = cardTray.text;
  const cards = cardTray.cards;

  const side = find("#players").parentElement;
  const position = el("output", { class: "hx-position" });
  const turnChooser = el("select", { class: "hx-turn-chooser", "aria-label": t("go to a turn") });
  const speedChooser = el("select", { class: "hx-speed", "aria-label": t("speed") },
    ...SPEEDS.map((s) => el("option", { value: s, text: `${s}×`, selected: s === 1 })));
  const button = (step, text, title) => el("button", { type: "button", class: "secondary", dataset: { step }, title, text });
  const play = button("play", "▶ " + t("Play"), t("play"));
  play.classList.remove("secondary");
  const controls = el("div", { class: "hx-replay-controls", role: "toolbar", "aria-label": t("replay") },
    button("first", "⇤ " + t("Start"), t("back to the start")), button("back", "◀ " + t("Back"), t("one step back")), play,
    button("next", t("Next") + " ▶", t("one step forward")), button("last", t("End") + " ⇥", t("to the end")));
  const status = el("p", { class: "hx-result game-result", id: "hx-result" });
  // The controls' panel: first under the board on a phone (css/endings.css).
  const intro = el("section", { class: "panel hx-replay-panel", dataset: { replayControls: "" } },
    el("h2", { text: t("Hex fleet") }),
    el("p", { class: "help", text: t("Ships were activated one at a time as their chits came out of the cup; each could move, raise shields, hail, fire and jump. Every card turned is shown under the board. Keys: ← → step, Space plays or pauses.") }),
    controls, el("p", { class: "hx-replay-where" }, position, " ",
      el("label", {}, t("turn") + " ", turnChooser), " ", el("label", {}, t("speed") + " ", speedChooser)),
    el("p", { class: "hx-replay-where" }, bottomSide),
    status);
  side.insertBefore(intro, find("#players"));
  // On a phone the buttons are a bar fixed along the bottom of the screen (hexfleet.css):
  // the page keeps their height free below its content.
  const measureBar = () => document.documentElement.style.setProperty("--hx-replay-bar",
    getComputedStyle(controls).position === "fixed" ? `${Math.ceil(controls.getBoundingClientRect().height)}px` : "0px");
  new ResizeObserver(measureBar).observe(controls);
  window.matchMedia("(max-width: 820px)").addEventListener("change", measureBar);
  const logBox = el("div", { class: "hx-replay-logs" });
  side.insertBefore(logBox, find("#players").nextSibling);

  // The ship whose log is read is outlined on the board, wherever it stands at each step.
  let picked = null;
  const outline = (ships) => {
    const ship = picked === null ? null : (ships || []).find((s) => s.id === picked);
    board.select(ship?.status === "table" && ship.at ? `${ship.at[0]},${ship.at[1]}` : null);
  };
  const pick = (id) => {
    picked = id;
    outline(frames[Math.max(0, at)]?.ships);
  };
  const logs = new ShipLogs(logBox, { ships: frames[0]?.ships || [], onSelect: pick });
  const readLog = (id) => {
    logs.select(id);
    pick(id);
  };
  board.onShip((ship) => readLog(ship.id));

  // Every turn to go to: the first step showing it, or for a turn the blank chit ended at
  // once, the step it passed in.
  const turnStarts = new Map(); // turn -> frame index
  frames.forEach((frame, i) => {
    for (const event of frame.events || []) if (event.type === "turn" && !turnStarts.has(event.turn)) turnStarts.set(event.turn, i);
    if (!turnStarts.has(frame.turn)) turnStarts.set(frame.turn, i);
  });
  const acted = new Set(frames.map((f) => f.turn));
  for (const [turn] of [...turnStarts].sort((a, b) => a[0] - b[0])) {
    turnChooser.append(el("option", { value: turn, text: acted.has(turn) ? String(turn) : t("{turn} (no ship acted)", { turn }) }));
  }

  const seatOf = (player) => (match.seats || []).find((s) => s.player === player);
  const showPlayers = (frame) => {
    const list = clear(find("#players"));
    players.forEach((player, i) => {
      const seat = seatOf(player);
      const ships = (frame.ships || []).filter((s) => s.owner === player);
      list.append(el("li", { class: `player${match.result?.winner === player && at === frames.length - 1 ? " winner" : ""}`, dataset: { player }, style: `--team: ${seatColour(i)}` },
        el("span", { class: "swatch" }), el("span", { class: "player-name", text: playerName(player) }),
        botBadgeSpan(seat, player),
        el("ul", { class: "hx-fleet" }, ...ships.map((ship) => el("li", { dataset: { ship: ship.id } },
          el("button", { type: "button", class: "link", title: t("read {ship}'s log", { ship: ship.name }), on: { click: () => readLog(ship.id) } }, ship.name),
          el("span", { class: "hx-ship-state", text: ` ${CLASSES()[ship.class] || ship.class} · ${shipState(ship)}` }))))));
    });
  };

  let at = -1;
  let playing = false;
  let run = 0; // bumped to cancel a step under way

  const speed = () => Number(speedChooser.value) || 1;

  /** Show frame `index`; with `animate`, flip its cards and resolve when they are up. */
  const chat = replayChat(side, match);

  async function show(index, { animate = false } = {}) {
    const target = Math.max(0, Math.min(index, frames.length - 1));
    const frame = frames[target];
    chat.show(target >= frames.length - 1 ? Infinity : frame.action?.t ?? 0);
    if (target === at + 1) logs.add(frame.log || []);
    else logs.reset(frames.slice(0, target + 1).flatMap((f) => f.log || []));
    at = target;
    const ticket = ++run;
    // While a step's cards flip, the ships stand as before it: the cards tell the damage first.
    const cardsToCome = animate && turnsCards(frame) && target > 0;
    const before = cardsToCome ? frames[target - 1] : frame;
    position.textContent = target === 0 ? tn("Start · {n} step", "Start · {n} steps", frames.length - 1)
      : t("Step {step} of {steps} · turn {turn}", { step: target, steps: frames.length - 1, turn: frame.turn });
    turnChooser.value = String(frame.turn);
    trayText.textContent = stepText(frame, target);
    trayText.hidden = turnsCards(frame); // the cards' caption tells it
    board.showPath(null);
    const move = target > 0 ? (frame.events || []).find((e) => e.type === "move") : null;
    if (move) {
      cards.replaceChildren();
      // The path is drawn from where the ship stood; it stays on the board for this step.
      const earlier = frames[target - 1].ships || [];
      board.render({ ships: earlier, activation: { ...(frame.activation || {}), ship: move.ship } });
      board.showPath(move.steps, move.cost);
      if (animate) {
        // The ship glides along its path (the board's own animation), then the step goes on.
        board.render({ ships: frame.ships || [], activation: frame.activation });
        board.animateMove(move.ship, earlier.find((s) => s.id === move.ship)?.at, move.path);
        await new Promise((resolve) => setTimeout(resolve, Math.max(STEP_MS * 0.6 / speed(), 150 * move.path.length)));
      }
      if (ticket !== run) return false;
    }
    board.render({ ships: before.ships || [], activation: frame.activation });
    outline(before.ships);
    showPlayers(before);
    const last = target === frames.length - 1;
    status.textContent = last ? resultText(match.result) : "";
    const done = cardTray.show(frame, { speed: animate ? speed() : Infinity, sound: animate });
    if (animate) await done;
    if (cardsToCome && ticket === run) {
      board.render({ ships: frame.ships || [], activation: frame.activation });
      outline(frame.ships);
      showPlayers(frame);
    }
    if (ticket === run && last) {
      setPhase("over");
      stop();
    } else if (ticket === run) setPhase("battle");
    return ticket === run;
  }

  function stop() {
    playing = false;
    play.textContent = "▶ " + t("Play");
  }

  async function start() {
    if (playing) return;
    if (at >= frames.length - 1) await show(0);
    playing = true;
    play.textContent = "❚❚ " + t("Pause");
    while (playing && at < frames.length - 1) {
      const current = await show(at + 1, { animate: true });
      if (!current || !playing) break;
      await new Promise((resolve) => setTimeout(resolve, (turnsCards(frames[at]) ? STEP_MS / 2 : STEP_MS) / speed()));
    }
  }

  const jump = (index) => {
    stop();
    run += 1;
    show(index);
  };
  controls.addEventListener("click", (event) => {
    const step = event.target.closest("button")?.dataset.step;
    if (step === "play") (playing ? stop() : start());
    else if (step === "first") jump(0);
    else if (step === "back") jump(at - 1);
    else if (step === "next") jump(at + 1);
    else if (step === "last") jump(frames.length - 1);
  });
  turnChooser.addEventListener("change", () => jump(turnStarts.get(Number(turnChooser.value))));
  // The keyboard steps too (when no field or list has it): ← →, Home, End, Space.
  document.addEventListener("keydown", (event) => {
    if (event.target.closest?.("input, select, textarea, button, [role=log]") || event.ctrlKey || event.metaKey || event.altKey) return;
    const keys = { ArrowLeft: () => jump(at - 1), ArrowRight: () => jump(at + 1), Home: () => jump(0),
      End: () => jump(frames.length - 1), " ": () => (playing ? stop() : start()) };
    if (!keys[event.key]) return;
    event.preventDefault();
    keys[event.key]();
  });

  if (!frames.length) {
    status.textContent = resultText(match.result) || t("This battle has no steps stored.");
    setPhase("over");
    return;
  }
  await show(0);
  start();
}
