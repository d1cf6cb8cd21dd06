// The tutorial's hex fleet steps, on the room's hex board (games/hexfleet/board.js): draw
// chits from the cup until your ship is activated, move and turn it (each hex and each turn
// costs one) until Blue's ship is in its forward arc, raise shields (two cards), and fire
// (cards through the shields, damage cards, clubs drawn again). The cup and the deck are
// stacked, so the lesson is the same every time and shows each rule once: the blank, then
// Blue's chit, then yours; a pair for the shields, a salvo with a club among three hits, a
// club among the damage cards. The server's referee (POST /api/resolve, the combat scripts
// of DESIGN section 6) applies the charts to the cards, as it does for a referee at a real
// table.
//
// API: hexLesson(api) -> {pitch, steps, finale}: the tutorial's step objects ({id, name,
//   title, text, enter}), the finale opening a hex fleet duel against the beginner bot; `api`
//   is the tutorial page's (pages/tutorial.js: say, done, undone, isDone, actions, table,
//   side, firstMatch).

import { el, postJSON } from "../../shell/dom.js";
import { t, tn } from "../../shell/i18n.js";
import { HexBoard } from "./board.js";
import { DIRECTIONS } from "./hexes.js";
import { showCards } from "./salvo.js";
import { cardShown, logText } from "./cardnames.js";

const BOARD = { width: 9, height: 7 };
const ME = "Red";
/** The two ships as the room's view gives them (the server's ship JSON). */
const START = [
  { id: "dart", name: "Dart", owner: ME, class: "light", weapons: "light", at: [2, 4], facing: 3, status: "table",
    shields: 8, shields_max: 8, shields_up: false, weapon_systems: 8, weapon_systems_max: 8, propulsion: 16, propulsion_max: 16 },
  { id: "warden", name: "Warden", owner: "Blue", class: "heavy", weapons: "heavy", at: [6, -1], facing: 4, status: "table",
    shields: 6, shields_max: 16, shields_up: true, weapon_systems: 16, weapon_systems_max: 16, propulsion: 8, propulsion_max: 8 },
];
/** The same ships in a combat script (the Warden has lost 10 shield points already). */
const SCRIPT_SHIPS = {
  dart: { class: "light", owner: ME, name: "Dart" },
  warden: { class: "heavy", owner: "Blue", name: "Warden", shields_lost: 10, shields_up: true },
};
const SUITS = "SHDC";
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
/** The chits the cup gives, in order: the blank (a new turn), Blue's Warden, the Dart. */
const CUP_DRAWS = ["blank", "warden", "dart"];
/** The top of the lesson's deck: raising shields turns a pair of sevens; the salvo
 *  9♦ 3♣ Q♠ 5♥ (three hits, the club stopped by the shields); then the damage cards, a club
 *  drawn again before a weapon system, a shield point and a propulsion cell. */
const STACKED = ["7H", "7C", "9D", "3C", "QS", "5H", "2C", "8D", "KH", "4S"];

// -- the grid, as the server's hexes.py ----------------------------------------------------

const centre = ([q, r]) => [1.5 * q, Math.sqrt(3) * (r + q / 2)];
const onBoard = ([q, r]) => {
  const row = r + (q - (q & 1)) / 2;
  return q >= 0 && q < BOARD.width && row >= 0 && row < BOARD.height;
};
const distance = ([q1, r1], [q2, r2]) => (Math.abs(q1 - q2) + Math.abs(r1 - r2) + Math.abs(q1 + r1 - q2 - r2)) / 2;

/** Whether `target` is in the forward half of a ship at `at` facing `facing` (rulings H5). */
function inForwardArc(at, facing, target) {
  const [ax, ay] = centre(at);
  const [tx, ty] = centre(target);
  const [fx, fy] = centre(DIRECTIONS[facing]);
  return (tx - ax) * fx + (ty - ay) * fy >= -1e-9;
}

/** Every (hex, facing) a ship reaches with `movement` hexes: [{at, facing, steps, cost}]. */
function reachable(at, facing, movement, blocked) {
  const seen = new Map([[`${at},${facing}`, ""]]);
  let frontier = [[at, facing, ""]];
  const out = [];
  while (frontier.length) {
    const next = [];
    for (const [here, f, steps] of frontier) {
      if (steps.length >= movement) continue;
      const ahead = [here[0] + DIRECTIONS[f][0], here[1] + DIRECTIONS[f][1]];
      const options = [[here, (f + 5) % 6, "L"], [here, (f + 1) % 6, "R"]];
      if (onBoard(ahead) && !blocked.has(`${ahead}`)) options.push([ahead, f, "F"]);
      for (const [hex, face, letter] of options) {
        const key = `${hex},${face}`;
        if (seen.has(key)) continue;
        seen.set(key, steps + letter);
        out.push({ at: hex, facing: face, steps: steps + letter, cost: steps.length + 1 });
        next.push([hex, face, steps + letter]);
      }
    }
    frontier = next;
  }
  return out;
}

/** The lesson's deck: the stacked cards, then the rest of the 52 in suit and rank order. */
function lessonDeck() {
  const rest = SUITS.split("").flatMap((s) => RANKS.map((r) => `${r}${s}`)).filter((c) => !STACKED.includes(c));
  return [...STACKED, ...rest];
}

// -- the lesson ------------------------------------------------------------------------------

class HexLesson {
  constructor(api) {
    this.api = api;
    this.say = api.say;
    this.done = api.done;
    this.actions = api.actions;
    this.ships = START.map((s) => ({ ...s, at: [...s.at] }));
    this.deck = lessonDeck();
    this.steps = []; // the combat script's steps so far
    this.used = 0; // cards of the deck turned so far
    this.movement = 0;
    this.phase = null;
    this.built = false;
  }

  ship(id) {
    return this.ships.find((s) => s.id === id);
  }

  /** Put the hex board and its panels in the page (once). */
  build() {
    if (this.built) return;
    this.built = true;
    const [board] = this.api.table(el("div", { class: "hex-lesson-board" }));
    this.board = new HexBoard(board, { ...BOARD, colourOf: (owner) => (owner === ME ? "#ff5a5f" : "#4aa3ff") });
    // Played with the keyboard as in a room (room.js): focused, its arrow keys move the Dart.
    this.board.svg.setAttribute("role", "application");
    this.board.svg.setAttribute("tabindex", "0");
    this.board.svg.setAttribute("aria-label", t("the hex board: your Dart and Blue's Warden"));
    this.board.svg.setAttribute("aria-describedby", "hex-lesson-keys");
    this.board.svg.addEventListener("keydown", (e) => this.key(e));
    this.api.table(this.board.zoomControls(), el("p", { id: "hex-lesson-keys", class: "visually-hidden",
      text: t("With the board focused and your ship activated: the up arrow moves it one hex ahead, the left and right arrows turn it.") }));
    this.board.onHex(({ q, r }) => this.hexClicked(q, r));
    this.board.onFacing((facing) => this.facingClicked(facing));
    this.board.onShip((ship) => this.shipClicked(ship));
    this.cup = el("section", { class: "panel hex-cup", id: "hex-cup", "aria-label": t("the cup") });
    this.cards = el("section", { class: "panel hex-lesson-cards", id: "hex-lesson-cards", "aria-live": "polite",
      "aria-label": t("the cards turned"), hidden: true });
    this.log = el("ol", { class: "hex-step-log", id: "hex-lesson-log" });
    this.logPanel = el("section", { class: "panel", hidden: true }, el("h2", { text: t("Ships' log") }), this.log);
    // Under the step, where the player looks: the cup, then the cards and the log.
    this.api.side(this.cup, this.cards, this.logPanel);
    this.render();
  }

  render(activation = null) {
    this.board.render({ ships: this.ships, activation });
  }

  // -- the cup ------------------------------------------------------------------------------

  startCup() {
    this.build();
    this.phase = "cup";
    this.chits = ["dart", "warden", "blank"];
    this.drawn = 0; // chits drawn from CUP_DRAWS
    this.showCup();
  }

  showCup(drawn = null) {
    const names = { dart: t("{ship} (yours)", { ship: "Dart" }), warden: t("Warden (Blue)"), blank: t("blank") };
    this.cup.replaceChildren(el("h2", { text: t("The cup") }),
      el("ul", { class: "hex-chits" }, ...this.chits.map((c) => el("li", { class: `hex-chit chit-${c}`, text: names[c] }))),
      ...(drawn ? [el("p", { class: "hex-drawn", text: t("Drawn: {chit}", { chit: names[drawn] }) })] : [])); // replaceChildren writes a null as "null"
    if (this.phase !== "cup") return;
    const draw = el("button", { type: "button", id: "hex-draw", text: t("Draw a chit"), on: { click: () => this.drawChit() } });
    this.actions().replaceChildren(draw);
  }

  drawChit() {
    const chit = CUP_DRAWS[Math.min(this.drawn, CUP_DRAWS.length - 1)];
    this.drawn += 1;
    if (chit === "blank") {
      this.chits = ["dart", "warden", "blank"];
      this.say(t("The blank: the turn is over at once, and any ship still in the cup waits. A new turn starts with every chit back in the cup: draw again."));
    } else if (chit === "warden") {
      this.chits = this.chits.filter((c) => c !== "warden");
      this.say(t("Blue's Warden is activated. (In this lesson Blue does nothing with it.) Draw again."));
    } else {
      this.chits = this.chits.filter((c) => c !== "dart");
      this.phase = null;
      this.actions().replaceChildren();
      this.render({ ship: "dart" });
      this.done(t("Your Dart is activated: this is its turn to act."));
    }
    this.showCup(chit);
  }

  // -- moving ---------------------------------------------------------------------------------

  startMove() {
    this.build();
    this.cup.hidden = true;
    this.phase = "move";
    this.movement = this.ship("dart").propulsion;
    this.showReach();
    this.checkArc(false);
  }

  showReach() {
    const dart = this.ship("dart");
    const blocked = new Set(this.ships.filter((s) => s.id !== "dart").map((s) => `${s.at}`));
    this.render({ ship: "dart" });
    this.board.highlightMoves(this.phase === "move" ? reachable(dart.at, dart.facing, this.movement, blocked) : []);
    this.actions().replaceChildren(el("p", { class: "tutorial-question", id: "hex-movement",
      text: tn("Movement left: {left} of {n} hex.", "Movement left: {left} of {n} hexes.", dart.propulsion, { left: this.movement }) }));
  }

  hexClicked(q, r) {
    if (this.phase !== "move") return;
    const move = this.board.moveTo(`${q},${r}`);
    if (!move) return this.say(t("The Dart cannot reach that hex: pick a lit one."));
    this.apply(move);
  }

  facingClicked(facing) {
    if (this.phase !== "move") return;
    const move = this.board.turnTo(facing);
    if (move) this.apply(move);
  }

  /** Arrow keys on the focused board while moving: up steps ahead, left and right turn. */
  key(e) {
    const step = { ArrowUp: "F", ArrowLeft: "L", ArrowRight: "R" }[e.key];
    if (this.phase !== "move" || !step) return;
    e.preventDefault();
    const move = (this.board.reach || []).find((m) => m.steps === step);
    if (move) this.apply(move);
    else {
      this.say(step === "F" ? t("{ship} cannot move ahead: no movement left or the way is blocked.", { ship: "Dart" })
        : t("{ship} cannot turn: no movement left or the way is blocked.", { ship: "Dart" }));
    }
  }

  apply(move) {
    const dart = this.ship("dart");
    dart.at = [...move.at];
    dart.facing = move.facing;
    this.movement -= move.cost;
    this.board.showPath(null);
    this.showReach();
    const steps = move.steps.split("").map((step) => ({ F: t("ahead"), L: t("left"), R: t("right") }[step] || step)).join(" ");
    this.say(tn("{steps}: {n} hex of movement.", "{steps}: {n} hexes of movement.", move.cost, { steps }));
    this.checkArc(true);
  }

  checkArc(moved) {
    const dart = this.ship("dart");
    const warden = this.ship("warden");
    const ahead = inForwardArc(dart.at, dart.facing, warden.at) && distance(dart.at, warden.at) <= 12;
    if (ahead && moved) {
      this.done(tn("The Warden is in the Dart's forward arc, {n} hex away: it can be fired at.",
        "The Warden is in the Dart's forward arc, {n} hexes away: it can be fired at.", distance(dart.at, warden.at)));
    } else if (!ahead && this.api.isDone()) {
      this.api.undone(t("The Warden is behind the Dart again: turn back towards it."));
    }
  }

  // -- the cards ------------------------------------------------------------------------------

  /** Settle `step` with the deck's next cards on the server; the result, or null (said). */
  async settle(step) {
    this.actions().querySelectorAll("button").forEach((b) => { b.disabled = true; });
    const steps = [...this.steps, step];
    const script = { ruleset: "hexfleet", ships: SCRIPT_SHIPS, steps, cards: this.deck.slice(0, 52) };
    let answer;
    try {
      answer = await postJSON("/api/resolve", script);
    } catch (error) {
      this.actions().querySelectorAll("button").forEach((b) => { b.disabled = false; });
      this.say(t("The referee could not settle it: {error}. Try again.", { error: error.message }));
      return null;
    }
    const result = answer.result;
    this.steps = steps;
    const events = result.events.slice(this.eventsSeen || 0);
    this.eventsSeen = result.events.length;
    this.used = result.cards_used;
    for (const ship of this.ships) {
      const now = result.ships[ship.id];
      Object.assign(ship, { shields: now.shields, shields_up: now.shields_up, weapon_systems: now.weapons, propulsion: now.propulsion });
    }
    this.render({ ship: "dart" });
    for (const line of result.log[result.log.length - 1]) this.log.append(el("li", { text: logText(line) }));
    this.logPanel.hidden = false;
    this.cards.hidden = false;
    const discards = this.used;
    // As an acted frame: the ships as they stand after the cards.
    await showCards(this.cards, { events, ships: this.ships, deck: { pile: 52 - this.used, discards, reshuffles: 0 } });
    return result.steps[result.steps.length - 1];
  }

  startShields() {
    this.build();
    this.cup.hidden = true;
    this.phase = "shields";
    this.render({ ship: "dart" });
    this.board.highlightMoves([]);
    const raise = el("button", { type: "button", id: "hex-raise", text: t("Raise shields"), on: { click: async () => {
      const settled = await this.settle({ raise_shields: "dart" });
      if (!settled) return;
      this.phase = null;
      this.actions().replaceChildren();
      const cards = { first: cardShown(settled.cards[0]), second: cardShown(settled.cards[1]) };
      this.done(settled.success
        ? t("{first} and {second}: they match, the Dart's shields are up. They stay up until their last point is lost.", cards)
        : t("{first} and {second}: no match, the shields stay down. One try an activation: in a battle you would try again next time.", cards));
    } } });
    this.actions().replaceChildren(raise);
  }

  startFire() {
    this.build();
    this.cup.hidden = true;
    this.phase = "fire";
    this.render({ ship: "dart" });
    this.board.highlightTargets([{ ship: "warden" }]);
    const fire = el("button", { type: "button", id: "hex-fire", text: t("Fire at the Warden"), on: { click: () => this.fire() } });
    this.actions().replaceChildren(fire);
  }

  shipClicked(ship) {
    if (this.phase === "fire" && ship.id === "warden") this.fire();
  }

  async fire() {
    if (this.phase !== "fire") return;
    this.phase = "firing";
    const settled = await this.settle({ fire: "dart", at: "warden" });
    if (!settled) {
      this.phase = "fire";
      return;
    }
    this.phase = null;
    this.actions().replaceChildren();
    this.board.highlightTargets([]);
    const clubs = (settled.damage || []).filter((d) => !d.system).length;
    const hits = tn("{n} hit through the Warden's shields", "{n} hits through the Warden's shields", settled.hits);
    const damage = settled.hits ? tn(", so {n} damage card", ", so {n} damage cards", settled.hits) : "";
    const again = clubs ? tn(" (and {n} club drawn again)", " (and {n} clubs drawn again)", clubs) : "";
    this.done(t("{hits}{damage}{again}. Its gauges on the board have dropped.", { hits, damage, again }));
  }
}

/** The hex fleet lesson for the tutorial page's `api` (pages/tutorial.js; see the header). */
export function hexLesson(api) {
  let lesson = null;
  const get = () => {
    lesson ??= new HexLesson(api);
    return lesson;
  };
  return {
    pitch: t("fleets on a hex grid and a deck of playing cards"),
    steps: [
      {
        id: "hex-cup",
        name: t("Cup"),
        title: t("Hex fleet: the cup decides who acts"),
        text: [
          t("Fleets on a board of hexagons, and no fixed turns: each ship has a chit in a cup, with one <b>blank</b>. The ship whose chit comes out is <b>activated</b> and acts; the blank ends the turn."),
          t("You are <b class=\"red\">Red</b>, with the light ship <b>Dart</b>. <b>Draw chits</b> until the Dart is activated."),
        ],
        enter: () => get().startCup(),
      },
      {
        id: "hex-move",
        name: t("Move"),
        title: t("Move and turn: one hex each"),
        text: [
          t("The Dart has 16 propulsion cells: 16 hexes of movement. A step into the hex ahead costs 1; turning to the next side costs 1 too. The lit hexes are those it can reach."),
          t("A light ship fires only into the half of the board ahead of it, and Blue's Warden is behind the Dart. <b>Click a lit hex, or an arrow around the Dart to turn, until the Warden is ahead of it.</b>"),
        ],
        enter: () => get().startMove(),
      },
      {
        id: "hex-shields",
        name: t("Shields"),
        title: t("Raise shields: two cards"),
        text: [
          t("Ships start with their shields down. To raise them, turn two cards from the deck: the <b>same colour</b> or the <b>same rank</b> succeeds."),
          t("<b>Press Raise shields.</b> The lesson's deck is the same every time; the referee applies the rules to its cards."),
        ],
        enter: () => get().startShields(),
      },
      {
        id: "hex-fire",
        name: t("Fire"),
        title: t("Fire: cards through the shields"),
        text: [
          t("The Dart's light weapons turn <b>4 cards</b>. The Warden's shields are up but down to 6 of 16 points, so ♦ diamonds, ♥ hearts and ♠ spades get through: each is a <b>hit</b>. (With full shields, only spades would.)"),
          t("Each hit draws a <b>damage card</b>: ♦ a weapon system, ♥ a shield point, ♠ a propulsion cell; a ♣ club does nothing and another is drawn. <b>Click the Warden, or press Fire.</b>"),
        ],
        enter: () => get().startFire(),
      },
    ],
    finale: {
      id: "hex-ready",
      name: t("Play"),
      title: t("Your first hex fleet battle"),
      text: [
        t("That is a whole activation. In a battle the cup goes on drawing, each side's ships move and fire in turn, and a ship may also <b>jump</b> out while it keeps half its propulsion, to come back in a turn you choose."),
        t("Before you fire, the board shows the exact odds of the salvo; after it, the cards turn face up. The easy bot closes in and fires: a fair first opponent."),
      ],
      enter: () => {
        const play = api.firstMatch({ id: "play-hexfleet", body: { scenario: "duel" } });
        api.actions().replaceChildren(play, el("a", { class: "button secondary", href: "/rules#hexfleet", text: t("Read the hex fleet rules") }));
        api.done(t("You have the hex fleet basics."));
        play.focus({ preventScroll: true });
      },
    },
  };
}
