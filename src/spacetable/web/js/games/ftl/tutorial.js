// The tutorial's Faster Than Light steps, a duel against Blue on a small table. Launch a
// missile from your ship (the order of a first turn), turn it with the ring (the plotter of
// the FTL room, games/ftl/plotter.js) to face Blue's ship, sprint it with the arrow so its
// tape meets the ship, then dodge Blue's missile with a sprint: only a piece that turns or
// launches can be hit. Blue's orders are fixed, so the lesson is the same every time. Each
// turn is resolved by the server's referee (POST /api/resolve, the turn file of DESIGN
// section 5) and played out on the board (games/ftl/animate.js), told line by line.
// ftlLesson() gives the tutorial page (pages/tutorial.js) the steps and the finale (a first
// FTL duel against the beginner bot), and builds the board and panels when the first is shown.

import { clear, el, postJSON, setPhase, svg } from "../../shell/dom.js";
import { t, tn } from "../../shell/i18n.js";
import { FtlBoard, fmt, pieceList, seatColour } from "./board.js";
import { Plotter } from "./plotter.js";
import { afterOrder, noseOf, orderText, tapeContact } from "./orders.js";
import { animateTurn, clearMarks } from "./animate.js";
import { headingText, missilesWords, shownId } from "./turns.js";

const PLAYERS = ["red", "blue"];
const TABLE = { width: 14, height: 14 };
const ME = "red";
const SHIP = "red";
const MISSILE = "red-m1";
const TARGET = "blue";
const BLUE_MISSILE = "blue-m1";
/** Blue's orders, turn by turn: it launches too, turns its missile to face your ship,
 * turns its ship (which puts it in normal space), then sprints its missile at your ship. */
const BLUE_ORDERS = [
  [{ piece: TARGET, order: "L" }],
  [{ piece: BLUE_MISSILE, order: "R+60" }],
  [{ piece: TARGET, order: "R+15" }],
  [{ piece: BLUE_MISSILE, order: "S7.5" }],
];
/** Your ship launches its missile to (2, -3); Blue's ship faces +x. */
const START = [
  { id: SHIP, kind: "ship", owner: "red", x: 2, y: -4.25, heading: 0, hits: 0, missiles: 10, launched: 0 },
  { id: TARGET, kind: "ship", owner: "blue", x: -3, y: 2, heading: -90, hits: 0, missiles: 10, launched: 0 },
];
/** What each step asks of which piece: the others stay without an order. */
const GOALS = { launch: SHIP, turn: MISSILE, sprint: MISSILE, dodge: SHIP };
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
    this.panel = panel;
    clear(panel);
    const list = el("div", { id: "plot-pieces" });
    panel.append(el("h2", { text: t("Your orders") }),
      el("p", { class: "plot-help", text: t("One order per piece. You may also type it: R–45 turns 45° counter-clockwise, S6 sprints 6 in.") }),
      list);
    this.plotter = new Plotter(this.board, list, { colourOf, onChange: () => this.check() });
    board.addEventListener("click", (e) => {
      const id = e.target.closest?.(".ftl-piece")?.dataset.piece;
      if (id && this.plotter.mine().some((p) => p.id === id)) this.plotter.select(id);
    });
  }

  /** Plot the turn of step `goal` (launch, turn, sprint or dodge: GOALS). */
  plot(goal) {
    this.goal = goal;
    this.panel.hidden = false;
    clearMarks(this.board); // the last turn's tapes: this is a new turn
    this.board.draw(this.pieces, { players: PLAYERS });
    this.plotter.show({ pieces: this.pieces, turn: this.turn, plot: [] }, ME, true);
    // Selected without select(), which would scroll the page to the piece's row.
    this.plotter.selected = GOALS[goal];
    this.plotter.render();
    this.drawBlueTape();
    const actions = clear(this.actions());
    this.playButton = el("button", { type: "button", id: "play-turn", text: t("Play the turn"), disabled: true,
      on: { click: () => this.play() } });
    // The launch step's action beside Play, in the lesson card: on a phone the ship's row
    // (with its own Launch) is a screen down, under the board.
    if (goal === "launch") {
      actions.append(el("button", { type: "button", id: "lesson-launch", class: "secondary", text: t("Launch from your ship"),
        on: { click: () => this.plotter.setOrder(SHIP, { kind: "L" }) } }));
    }
    actions.append(this.playButton);
    this.check();
  }

  /** In the dodge step Blue's plot is shown (this once): its missile's tape, dashed. */
  drawBlueTape() {
    const layer = clear(this.board.layer("lesson"));
    const missile = this.pieces.find((p) => p.id === BLUE_MISSILE);
    if (this.goal !== "dodge" || !missile) return;
    const start = noseOf(missile);
    const end = noseOf(afterOrder(missile, { kind: "S", distance: 7.5 }));
    layer.append(svg("line", { class: "lesson-blue-tape", x1: fmt(start[0]), y1: fmt(-start[1]), x2: fmt(end[0]), y2: fmt(-end[1]),
      stroke: colourOf("blue"), "stroke-width": 3, "stroke-dasharray": "6 4", "vector-effect": "non-scaling-stroke" }));
  }

  /** What the step asks that the plot does not do yet, or null. */
  problem() {
    const missile = this.pieces.find((p) => p.id === MISSILE);
    const target = this.pieces.find((p) => p.id === TARGET);
    const wanted = GOALS[this.goal];
    const other = Object.keys(this.plotter.orders).find((id) => id !== wanted);
    if (other) {
      return wanted === SHIP ? t("This step is about your ship: clear {piece}'s order (✕) first.", { piece: other })
        : t("This step is about your missile: clear {piece}'s order (✕) first.", { piece: other });
    }
    const order = this.plotter.orders[wanted];
    if (this.goal === "launch") {
      return order?.kind === "L" ? null : t("Press Launch from your ship (here, or Launch on your ship's row): a missile appears just ahead of it.");
    }
    if (this.goal === "turn") {
      const after = afterOrder(missile, order);
      if (order?.kind !== "R") return t("Drag the ring around your missile (the circle with a dot) to give it a turn order.");
      if (tapeContact(noseOf(after), after.heading, 8, target) === null) {
        return t("{order} points it away from Blue's ship: keep turning it (the ghost shows where it will face).", { order: orderText(order) });
      }
      return null;
    }
    if (this.goal === "sprint") {
      const turned = afterOrder(target, { kind: "R", angle: 15 });
      if (order?.kind !== "S") return t("Drag the arrow ahead of your missile to give it a sprint order.");
      if (tapeContact(noseOf(missile), missile.heading, order.distance, turned) === null) {
        return t("{order}: the tape stops short of Blue's ship. Drag the arrow further.", { order: orderText(order) });
      }
      return null;
    }
    if (order?.kind === "S") return null;
    if (order) {
      return order.kind === "L" ? t("{order} launches: your ship would be in normal space, and Blue's tape would hit it. Sprint instead.", { order: orderText(order) })
        : t("{order} turns: your ship would be in normal space, and Blue's tape would hit it. Sprint instead.", { order: orderText(order) });
    }
    return t("Drag the arrow ahead of your ship to sprint: a sprinting piece cannot be hit.");
  }

  /** Whether the plot does what the step asks: say what is missing, or allow Play. */
  check() {
    if (!this.playButton || this.playButton.dataset.played) return;
    const problem = this.problem();
    this.playButton.disabled = Boolean(problem);
    const order = this.plotter.orders[GOALS[this.goal]];
    this.say(problem || t("{order}: ready. Press Play the turn.", { order: orderText(order) }));
  }

  /** Send this turn's orders to the referee and play the turn out on the board. */
  async play() {
    this.playButton.disabled = true;
    this.playButton.dataset.played = "yes";
    const orders = this.plotter.plot().map((entry) => {
      const cut = entry.lastIndexOf(":");
      return { piece: entry.slice(0, cut), order: entry.slice(cut + 1) };
    });
    orders.push(...(BLUE_ORDERS[this.turn - 1] || []));
    const file = { ruleset: "ftl", players: PLAYERS, table: TABLE, pieces: this.pieces.map(fileFields), orders };
    let answer;
    try {
      answer = await postJSON("/api/resolve", file);
    } catch (error) {
      delete this.playButton.dataset.played;
      this.playButton.disabled = false;
      this.say(t("The turn could not be resolved: {error}", { error: error.message }));
      return;
    }
    document.body.dataset.phase = "resolving";
    this.plotter.show({ pieces: this.pieces, turn: this.turn, plot: this.plotter.plot() }, ME, false);
    this.say(t("Turn {turn}: your orders and Blue's happen at once…", { turn: this.turn }));
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
    clear(this.board.layer("lesson"));
    document.body.dataset.phase = "plot";
    this.playButton.remove();
    this.playButton = null;
    this.done(WORDS[this.goal].call(this, answer.result));
  }

  launchWords() {
    const missile = this.pieces.find((p) => p.id === MISSILE);
    return missile
      ? t("Your missile {missile} is on the table, just ahead of your ship ({missiles} left). Blue launched one too. Launching puts both pieces in normal space for the turn: they could have been hit.",
        { missile: shownId(MISSILE, ME), missiles: missilesWords(this.pieces.find((p) => p.id === SHIP)?.missiles ?? 0) })
      : t("Your missile could not be put on the table.");
  }

  turnWords() {
    const missile = this.pieces.find((p) => p.id === MISSILE);
    return t("Your missile now faces {heading}, towards Blue's ship. It turned, so this turn it was in normal space: it could have been hit.",
      { heading: headingText(Math.round(missile.heading)) });
  }

  sprintWords(result) {
    const blue = result.pieces[TARGET];
    if (blue && blue.hits > 0) {
      return tn("Hit! Your missile's tape met Blue's ship: the missile is spent and Blue's ship has {n} hit of 3. The third hit destroys a ship.",
        "Hit! Your missile's tape met Blue's ship: the missile is spent and Blue's ship has {n} hits of 3. The third hit destroys a ship.", blue.hits);
    }
    return t("Your tape missed this time: Blue's ship turned out of its way.");
  }

  dodgeWords(result) {
    const ship = result.pieces[SHIP];
    if (ship && ship.on_table !== false && !ship.hits) {
      return t("Blue's missile sprinted straight through where your ship stood, and nothing happened: your ship was sprinting, so it was out of normal space. A piece that sprints (or does nothing) cannot be hit; one that turns or launches can.");
    }
    return tn("Your ship was hit: it has {n} hit of 3.", "Your ship was hit: it has {n} hits of 3.", ship?.hits ?? 0);
  }
}

/** What the board says after each step's turn. */
const WORDS = { launch: FtlLesson.prototype.launchWords, turn: FtlLesson.prototype.turnWords,
  sprint: FtlLesson.prototype.sprintWords, dodge: FtlLesson.prototype.dodgeWords };

/**
 * The FTL lesson for the tutorial page's `api` (pages/tutorial.js): its steps. The board
 * and the panels join the page when the first step is shown.
 */
export function ftlLesson(api) {
  let lesson = null;
  const table = api.roomDefault("table_size_in"); // the first match's, [width, height] in
  const start = () => {
    setPhase("plot");
    if (lesson) return lesson;
    const board = svg("svg", { id: "ftl-board", role: "img", "aria-label": t("The Faster Than Light table, in inches") });
    const panel = el("section", { id: "plot-panel", class: "panel" });
    const log = el("ol", { id: "turn-log", class: "ftl-account" });
    const logPanel = el("section", { id: "turn-log-panel", class: "panel", hidden: true }, el("h2", { text: t("The turn") }), log);
    api.table(board);
    api.side(panel, logPanel);
    lesson = new FtlLesson({ board, panel, log, logPanel, actions: api.actions, say: api.say, done: api.done });
    return lesson;
  };
  return {
    basics: true,
    steps: [
      {
        id: "ftl-launch",
        name: "Launch",
        title: t("Faster Than Light: launch a missile"),
        text: [
          t("Faster Than Light is a duel of secret orders on a table measured in inches. Each turn you give each of your pieces one order, the other player does the same, and then all the orders happen at once."),
          t("Ships do not shoot: they launch missiles, and a duel starts with none on the table. <b>Press Launch from your ship</b> below (or Launch on your ship's row, or type <b>L</b>), then <b>Play the turn</b>. The ghost shows where the missile will appear."),
        ],
        enter: () => start().plot("launch"),
      },
      {
        id: "ftl-turn",
        name: "Turn",
        title: t("Turn with the ring"),
        text: [
          t("Your red missile (<b>red-m1</b>) must reach Blue's ship. <b>Drag the ring around your missile</b> until it faces Blue's ship (15° at a time), then press <b>Play the turn</b>. A ghost shows where it will point."),
        ],
        enter: () => start().plot("turn"),
      },
      {
        id: "ftl-sprint",
        name: "Sprint",
        title: t("Sprint with the arrow, see the tape"),
        text: [
          t("Now <b>drag the arrow ahead of your missile</b> to sprint: the yellow tape is its path, 1 to 8 inches. Make it reach Blue's ship."),
          t("A tape only strikes a piece that launched or turned this turn. Blue is turning this turn, so it can be hit. Then press <b>Play the turn</b>."),
        ],
        enter: () => start().plot("sprint"),
      },
      {
        id: "ftl-dodge",
        name: "Dodge",
        title: t("A sprinting piece cannot be hit"),
        text: [
          t("Blue's missile faces your ship, and this once you know Blue's plot: it sprints straight at you (the dashed blue line)."),
          t("Only a piece that turns or launches this turn is in normal space, where a tape can hit it; a piece that sprints, or does nothing, is not. <b>Sprint your ship</b> with the arrow, then <b>Play the turn</b>."),
        ],
        enter: () => start().plot("dodge"),
      },
    ],
    finale: {
      id: "ftl-ready",
      name: "Play",
      title: t("Your first Faster Than Light duel"),
      text: [
        tn("That is the whole game: launch, turn, sprint, and guess where the other will be. Your first duel is on a {width} x {height} in table with {n} missile a ship, and the last ship on the table wins.",
          "That is the whole game: launch, turn, sprint, and guess where the other will be. Your first duel is on a {width} x {height} in table with {n} missiles a ship, and the last ship on the table wins.",
          api.roomDefault("missiles"), { width: table[0], height: table[1] }),
        t("The greedy bot takes the best shot at where you stand and never guesses your move: keep sprinting when its missiles face you."),
      ],
      enter: () => {
        start().panel.hidden = true; // nothing to plot any more
        setPhase("over");
        const play = api.firstMatch({ id: "play-ftl" });
        api.actions().replaceChildren(play, el("a", { class: "button secondary", href: "/rules#ftl", text: t("Read the FTL rules") }));
        api.done(t("You have the Faster Than Light basics."));
        play.focus({ preventScroll: true });
      },
    },
  };
}
