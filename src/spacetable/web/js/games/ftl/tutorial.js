// The tutorial's Faster Than Light steps: the player's missile must reach Blue's ship. First
// turn it with the ring (the plotter of the FTL room, games/ftl/plotter.js), then sprint it
// with the arrow so its tape meets the ship. Each turn is resolved by the server's referee
// (POST /api/resolve, the turn file of DESIGN section 5) and played out on the board
// (games/ftl/animate.js), told line by line. ftlLesson() gives the tutorial page
// (pages/tutorial.js) the steps, and builds the board and panels when the first is shown.

import { clear, el, postJSON, setPhase, svg } from "../../shell/dom.js";
import { FtlBoard, pieceList, seatColour } from "./board.js";
import { Plotter } from "./plotter.js";
import { afterOrder, noseOf, orderText, tapeContact } from "./orders.js";
import { animateTurn } from "./animate.js";
import { headingText } from "./turns.js";

const PLAYERS = ["red", "blue"];
const TABLE = { width: 14, height: 14 };
const ME = "red";
const MISSILE = "red-m1";
const TARGET = "blue";
/** Blue's orders, turn by turn: nothing, then a turn (which puts it in normal space). */
const BLUE_ORDERS = [null, "R+15"];
const START = [
  { id: "red", kind: "ship", owner: "red", x: 4, y: -5, heading: 0, hits: 0, missiles: 9, launched: 1 },
  { id: MISSILE, kind: "missile", owner: "red", x: 2, y: -3, heading: 0, hits: 0 },
  { id: TARGET, kind: "ship", owner: "blue", x: -3, y: 2, heading: -90, hits: 0, missiles: 10, launched: 0 },
];
const colourOf = (player) => seatColour(PLAYERS.indexOf(player));

/** A piece as a turn file writes it (the referee refuses any other field). */
function fileFields(piece) {
  const fields = { id: piece.id, kind: piece.kind, owner: piece.owner, x: piece.x, y: piece.y, heading: piece.heading,
    hits: piece.hits || 0 };
  if (piece.kind === "ship") Object.assign(fields, { missiles: piece.missiles, launched: piece.launched || 0 });
  return fields;
}

export class FtlLesson {
  /**
   * `board`: an empty <svg>; `panel`: where the plotter lists the pieces; `log` (an <ol>)
   * and `logPanel`: the turn told line by line; `actions()`: the step's button row;
   * `say(text)` and `done(text)`: the tutorial's status line and "this step is done".
   */
  constructor({ board, panel, log, logPanel, actions, say, done }) {
    this.board = new FtlBoard(board, TABLE);
    this.pieces = START.map((p) => ({ ...p }));
    this.turn = 1;
    this.log = log;
    this.logPanel = logPanel;
    this.actions = actions;
    this.say = say;
    this.done = done;
    this.goal = null;
    clear(panel);
    const list = el("div", { id: "plot-pieces" });
    panel.append(el("h2", { text: "Your orders" }),
      el("p", { class: "plot-help", text: "One order per piece. You may also type it: R–45 turns 45° counter-clockwise, S6 sprints 6 in." }),
      list);
    this.plotter = new Plotter(this.board, list, { colourOf, onChange: () => this.check() });
    board.addEventListener("click", (e) => {
      const id = e.target.closest?.(".ftl-piece")?.dataset.piece;
      if (id && this.plotter.mine().some((p) => p.id === id)) this.plotter.select(id);
    });
  }

  /** Turn 1: turn the missile with the ring to face Blue's ship. */
  plotTurn() {
    this.goal = "turn";
    this.showPlot();
  }

  /** Turn 2: sprint the missile with the arrow so its tape reaches Blue's ship. */
  plotSprint() {
    this.goal = "sprint";
    this.showPlot();
  }

  showPlot() {
    this.board.draw(this.pieces, { players: PLAYERS });
    this.plotter.show({ pieces: this.pieces, turn: this.turn, plot: [] }, ME, true);
    // Selected without select(), which would scroll the page to the missile's row.
    this.plotter.selected = MISSILE;
    this.plotter.render();
    const actions = clear(this.actions());
    this.playButton = el("button", { type: "button", id: "play-turn", text: "Play the turn", disabled: true,
      on: { click: () => this.play() } });
    actions.append(this.playButton);
    this.check();
  }

  /** Whether the plot does what the step asks: say what is missing, or allow Play. */
  check() {
    if (!this.playButton || this.playButton.dataset.played) return;
    const missile = this.pieces.find((p) => p.id === MISSILE);
    const target = this.pieces.find((p) => p.id === TARGET);
    const order = this.plotter.orders[MISSILE];
    let problem = null;
    if (this.goal === "turn") {
      const after = afterOrder(missile, order);
      if (order?.kind !== "R") problem = "Drag the ring around your missile (the circle with a dot) to give it a turn order.";
      else if (tapeContact(noseOf(after), after.heading, 8, target) === null) {
        problem = `${orderText(order)} points it away from Blue's ship: keep turning it (the ghost shows where it will face).`;
      }
    } else {
      const turned = afterOrder(target, { kind: "R", angle: 15 });
      if (order?.kind !== "S") problem = "Drag the arrow ahead of your missile to give it a sprint order.";
      else if (tapeContact(noseOf(missile), missile.heading, order.distance, turned) === null) {
        problem = `${orderText(order)}: the tape stops short of Blue's ship. Drag the arrow further.`;
      }
    }
    this.playButton.disabled = Boolean(problem);
    this.say(problem || `${orderText(order)}: ready. Press Play the turn.`);
  }

  /** Send this turn's orders to the referee and play the turn out on the board. */
  async play() {
    this.playButton.disabled = true;
    this.playButton.dataset.played = "yes";
    const orders = this.plotter.plot().map((entry) => {
      const cut = entry.lastIndexOf(":");
      return { piece: entry.slice(0, cut), order: entry.slice(cut + 1) };
    });
    const blue = BLUE_ORDERS[this.turn - 1];
    if (blue) orders.push({ piece: TARGET, order: blue });
    const file = { ruleset: "ftl", players: PLAYERS, table: TABLE, pieces: this.pieces.map(fileFields), orders };
    let answer;
    try {
      answer = await postJSON("/api/resolve", file);
    } catch (error) {
      delete this.playButton.dataset.played;
      this.playButton.disabled = false;
      this.say(`The turn could not be resolved: ${error.message}`);
      return;
    }
    document.body.dataset.phase = "resolving";
    this.plotter.show({ pieces: this.pieces, turn: this.turn, plot: this.plotter.plot() }, ME, false);
    this.say(`Turn ${this.turn}: your orders and Blue's happen at once…`);
    clear(this.log);
    this.logPanel.hidden = false;
    const before = this.pieces.map((p) => ({ ...p }));
    await animateTurn(this.board, before, answer.result.events, { players: PLAYERS,
      onStep: (text) => this.log.append(el("li", { text })) });
    this.pieces = pieceList(answer.result.pieces).filter((p) => p.on_table !== false);
    this.turn += 1;
    // The played turn's ghosts go; the animation's marks (tapes, contacts) stay.
    this.plotter.show({ pieces: this.pieces, turn: this.turn, plot: [] }, ME, false);
    this.board.draw(this.pieces, { players: PLAYERS });
    document.body.dataset.phase = "plot";
    this.playButton.remove();
    this.playButton = null;
    this.done(this.goal === "turn" ? this.turnWords(answer.result) : this.sprintWords(answer.result));
  }

  turnWords() {
    const missile = this.pieces.find((p) => p.id === MISSILE);
    return `Your missile now faces ${headingText(Math.round(missile.heading))}, towards Blue's ship. It turned, so this turn it was in normal space: it could have been hit.`;
  }

  sprintWords(result) {
    const blue = result.pieces[TARGET];
    if (blue && blue.hits > 0) {
      return `Hit! Your missile's tape met Blue's ship: the missile is spent and Blue's ship has ${blue.hits} hit${blue.hits === 1 ? "" : "s"} of 3. The third hit destroys a ship.`;
    }
    return "Your tape missed this time: Blue's ship turned out of its way.";
  }
}

/**
 * The FTL lesson for the tutorial page's `api` (pages/tutorial.js): its steps. The board
 * and the panels join the page when the first step is shown.
 */
export function ftlLesson(api) {
  let lesson = null;
  const start = () => {
    setPhase("plot");
    if (lesson) return lesson;
    const board = svg("svg", { id: "ftl-board", role: "img", "aria-label": "The Faster Than Light table, in inches" });
    const panel = el("section", { id: "plot-panel", class: "panel" });
    const log = el("ol", { id: "turn-log", class: "ftl-account" });
    const logPanel = el("section", { id: "turn-log-panel", class: "panel", hidden: true }, el("h2", { text: "The turn" }), log);
    api.table(board);
    api.side(panel, logPanel);
    lesson = new FtlLesson({ board, panel, log, logPanel, actions: api.actions, say: api.say, done: api.done });
    return lesson;
  };
  return {
    basics: true,
    steps: [
      {
        id: "ftl-turn",
        name: "Turn",
        title: "Faster Than Light: turn with the ring",
        text: [
          "A different game: a duel of secret orders on a table measured in inches. Each turn you give each of your pieces one order, the other player does the same, and then all the orders happen at once.",
          "Your red missile (<b>red-m1</b>) must reach Blue's ship. <b>Drag the ring around your missile</b> until it faces Blue's ship (15° at a time), then press <b>Play the turn</b>. A ghost shows where it will point.",
        ],
        enter: () => start().plotTurn(),
      },
      {
        id: "ftl-sprint",
        name: "Sprint",
        title: "Sprint with the arrow, see the tape",
        text: [
          "Now <b>drag the arrow ahead of your missile</b> to sprint: the yellow tape is its path, 1 to 8 inches. Make it reach Blue's ship.",
          "A tape only strikes a piece that launched or turned this turn. Blue is turning this turn, so it can be hit. Then press <b>Play the turn</b>.",
        ],
        enter: () => start().plotSprint(),
      },
    ],
  };
}
