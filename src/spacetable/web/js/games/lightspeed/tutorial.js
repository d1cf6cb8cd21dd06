// The tutorial's Light Speed lesson (pages/tutorial.js runs the course): on a small table
// against one Blue ship, move the card in hand, turn it to aim, put it down, watch the
// battle the server resolves (POST /api/resolve, drawn by BattlePlayer) and read the score.
// Its finale is a first Light Speed match against the beginner bot.

import { t, tn } from "../../shell/i18n.js";
import { $, el, inBoardBox, postJSON, setPhase, showText, svg } from "../../shell/dom.js";
import { colourOf } from "../../shell/colours.js";
import { heading } from "../../shell/angles.js";
import { loadCatalog } from "../lasers/cards.js";
import { TableView } from "../lasers/table.js";
import { Hand, turnedWords } from "../lasers/hand.js";
import { BattlePlayer } from "../lasers/battle.js";
import { showScores } from "../lasers/scores.js";

/** The two sides, named in the page's language (the names are the table's owners). */
const [RED, BLUE] = [t("Red"), t("Blue")];
const PLAYERS = [RED, BLUE];
/** The tutorial's table (mm): small, so the cards are big on any screen. */
const TABLE = [520, 400];
/** Where the card in hand starts, and the cards already on the table. */
const HAND_START = { x: 150, y: -140, rotation: 0 };
const TARGET = { id: "blue-sidewinder", owner: BLUE, ship: "sidewinder", x: -150, y: 110, rotation: 180 };
/** The Moth's card id once it is down. */
const MOTH_ID = "red-moth";
const ASTEROID = { id: "asteroid", type: "asteroid", x: 150, y: 60, rotation: 0, rocks: 6 };
/** How far (mm) the card must travel before "move it" counts as done. */
const MOVE_ENOUGH_MM = 40;

const colourOfPlayer = (player) => colourOf(Math.max(0, PLAYERS.indexOf(player)));


/** The table's keys, for those who cannot see it. */
const TABLE_KEYS = t("With the table focused: arrow keys move your card (Shift for bigger steps), Q and E or [ and ] turn it, Enter or Space put it down.");

const ls = { ships: {}, cards: [TARGET, ASTEROID], placed: null, battle: null, result: null };
let api = null; // the tutorial page's (pages/tutorial.js)
let view = null;
let hand = null;

/** Build the lesson's table and panels (once). */
function show() {
  if (view) return;
  const table = svg("svg", { id: "table", role: "application", tabindex: 0, "aria-label": t("The tutorial table"),
    "aria-describedby": "table-keys" });
  const bar = el("div", { id: "hand-bar", class: "hand-bar", role: "toolbar", "aria-label": t("your card in hand"), hidden: true },
    el("button", { id: "turn-left", type: "button", class: "secondary", "aria-label": t("turn left 15°"), title: t("turn left 15° (Q)"),
      text: "⟲", on: { click: () => hand.rotateBy(15) } }),
    el("span", { id: "hand-info", class: "hand-info", "aria-live": "polite" }),
    el("button", { id: "turn-right", type: "button", class: "secondary", "aria-label": t("turn right 15°"), title: t("turn right 15° (E)"),
      text: "⟳", on: { click: () => hand.rotateBy(-15) } }),
    el("button", { id: "place-card", type: "button", text: t("Place"), on: { click: () => hand.place() } }));
  const tableParts = [inBoardBox(table), el("p", { id: "table-keys", class: "visually-hidden", text: TABLE_KEYS }), bar,
    el("div", { id: "battle-controls", class: "battle-controls", hidden: true })];
  const sideParts = [el("section", { id: "score-panel", class: "score-panel panel", hidden: true }),
    el("section", { id: "battle-log", class: "battle-log panel", "aria-label": t("battle log"), hidden: true })];
  api.table(...tableParts);
  api.side(...sideParts);
  view = new TableView(table);
  view.setTable(TABLE);
  view.enableGestures?.({ canPan: (e) => !hand.owns(e), wheelZooms: () => !hand.movable() });
  hand = new Hand(view, {
    onPose: () => {},
    onPlace: (pose) => tryPlace(pose),
    obstacles: () => ls.cards,
    onChange: () => handChanged(),
  });
  view.showCards(ls.cards, ls.ships, colourOfPlayer);
}

/** The course moves on to another game: stop the battle and let go of the card. */
function leave() {
  ls.battle?.destroy();
  ls.battle = null;
  if (!hand) return;
  hand.setCard(null); // a card still in hand (the steps skipped) stays behind
  $("#hand-bar").hidden = true;
}

function holdCard() {
  hand.setPose(HAND_START);
  hand.setCard("moth", ls.ships.moth, colourOfPlayer(RED));
  $("#hand-bar").hidden = false;
  handChanged();
}

/**
 * The first card the Moth's nose line meets, if it is the target: ray march along it. The
 * Moth itself (once down, it is on the table) never stops its own line.
 */
function aimedAtTarget(pose) {
  const [dx, dy] = heading(pose.rotation);
  const others = ls.cards.filter((card) => card.id !== MOTH_ID);
  for (let t = 44; t < 900; t += 2) {
    const point = { x: pose.x + dx * t, y: pose.y + dy * t };
    for (const card of others) {
      if (inside(point, card)) return card.id === TARGET.id;
    }
  }
  return false;
}

function inside(point, card) {
  const [c, s] = [Math.cos((card.rotation * Math.PI) / 180), Math.sin((card.rotation * Math.PI) / 180)];
  const dx = point.x - card.x;
  const dy = point.y - card.y;
  return Math.abs(c * dx + s * dy) <= 31.5 && Math.abs(-s * dx + c * dy) <= 44;
}

function drawAim(pose, aimed) {
  const layer = view.overlay;
  layer.querySelector(".tutorial-aim")?.remove();
  const step = api.stepId();
  if (!hand.ship || (step !== "turn" && step !== "place")) return;
  const [dx, dy] = heading(pose.rotation);
  const from = [pose.x + dx * 44, pose.y + dy * 44];
  const to = [pose.x + dx * 700, pose.y + dy * 700];
  const line = document.createElementNS("http://www.w3.org/2000/svg", "line");
  for (const [k, v] of Object.entries({ x1: from[0], y1: -from[1], x2: to[0], y2: -to[1] })) line.setAttribute(k, String(v));
  line.setAttribute("class", `tutorial-aim${aimed ? " aimed" : ""}`);
  layer.append(line);
}

function handChanged() {
  if (!hand?.ship) return;
  const pose = hand.pose;
  const aimed = aimedAtTarget(pose);
  drawAim(pose, aimed);
  const reason = hand.shown() ? hand.blockedBy() : null;
  const info = t("Moth · {turned}", { turned: turnedWords(pose.rotation) })
    + (reason ? t(" · can't place: {reason}", { reason }) : "") + (aimed ? t(" · aimed at the Sidewinder") : "");
  showText($("#hand-info"), info);
  $("#hand-info").classList.toggle("blocked", Boolean(reason));
  const step = api.stepId();
  if (step === "move" && !api.isDone()) {
    if (Math.hypot(pose.x - HAND_START.x, pose.y - HAND_START.y) >= MOVE_ENOUGH_MM) api.done(t("Good: the card goes where you go."));
  } else if (step === "turn") {
    if (aimed && !api.isDone()) api.done(t("On target: the dashed line meets the Sidewinder."));
    else if (!aimed && api.isDone()) api.undone(t("Not aimed any more: turn it back towards the Sidewinder."));
  }
}

function tryPlace(pose) {
  const step = api.stepId();
  if (step === "move") return api.say(t("Not yet: first move the card around a little."));
  if (step === "turn") return api.say(t("Not yet: first turn your Moth towards the Sidewinder."));
  if (step !== "place") return;
  const reason = hand.blockedBy();
  if (reason) return api.say(t("It can't go down here: {reason}. Move it a little.", { reason }));
  const aimed = aimedAtTarget(pose); // as it lies in hand, the check the turn step made
  const card = { id: MOTH_ID, owner: RED, ship: "moth", x: pose.x, y: pose.y, rotation: pose.rotation };
  ls.placed = card;
  ls.cards = [...ls.cards, card];
  hand.setCard(null);
  view.overlay.querySelector(".tutorial-aim")?.remove();
  $("#hand-bar").hidden = true;
  view.addCard(card, ls.ships, colourOfPlayer);
  api.done(aimed ? t("Down, and aimed at the Sidewinder.") : t("Down. It is not aimed at the Sidewinder any more: we will see what it hits."));
}

function tableFile() {
  return { ruleset: "lightspeed", players: PLAYERS, table: { width: TABLE[0], height: TABLE[1] },
    cards: ls.cards.map((c) => ({ ...c })) };
}

function showFireButton() {
  const fire = el("button", { type: "button", id: "fire", class: "fire", text: t("Fire!") });
  fire.addEventListener("click", async () => {
    fire.disabled = true;
    api.say(t("The referee is resolving the battle…"));
    let answer;
    try {
      answer = await postJSON("/api/resolve", tableFile());
    } catch (error) {
      fire.disabled = false;
      api.say(t("The battle could not be resolved: {error}. Try again.", { error: error.message }));
      return;
    }
    fire.remove();
    api.say("");
    playBattle(answer.table || tableFile(), answer.result);
  });
  api.actions().append(fire);
  fire.focus({ preventScroll: true });
}

function playBattle(table, result) {
  ls.result = { table, result };
  setPhase("battle");
  $("#battle-controls").hidden = false;
  ls.battle = new BattlePlayer(view, {
    table, result, ships: ls.ships, colourOf: colourOfPlayer, controls: $("#battle-controls"),
    log: $("#battle-log"),
    onDone: () => {
      if (api.stepId() !== "battle" || api.isDone()) return;
      setPhase("over");
      api.done(battleWords(result));
    },
  });
  ls.battle.start();
}

/** What the battle did, for a newcomer. */
function battleWords(result) {
  const killed = (result.kill_piles[RED] || []).includes(TARGET.id);
  const mothAlive = result.ships?.[MOTH_ID]?.alive !== false;
  const rocks = result.ships?.[MOTH_ID]?.rocks || 0;
  if (killed) return t("Your Moth fired first (speed 1) and destroyed the Sidewinder before it could fire back.");
  if (!mothAlive) return t("Your Moth missed, and Blue's Sidewinder (speed 2) destroyed it. Aim carefully in a real match!");
  if (rocks) return tn("Your Moth mined the asteroid: {n} rock is on it now.", "Your Moth mined the asteroid: {n} rocks are on it now.", rocks);
  return t("Your lasers hit nothing this time: in a real match, aim before you drop.");
}

function askScore() {
  const { table, result } = ls.result;
  // The panel shows what makes the score (kill piles, rocks), not the totals it asks for.
  const scores = (hidden) => showScores($("#score-panel"), { table, result, ships: ls.ships, colourOf: colourOfPlayer,
    hideTotals: hidden });
  scores(true);
  const right = result.scores[RED] ?? 0;
  const choices = [...new Set([right, right + 1, Math.max(0, right - 1), right + 2])].slice(0, 3).sort((a, b) => a - b);
  const actions = api.actions();
  actions.append(el("p", { class: "tutorial-question", text: t("How many points does Red score? The score panel shows the kill piles and rocks.") }));
  for (const value of choices) {
    actions.append(el("button", { type: "button", class: "secondary answer", dataset: { answer: value }, text: String(value),
      on: { click: (e) => {
        if (value === right) {
          for (const b of actions.querySelectorAll(".answer")) b.disabled = true;
          e.target.classList.add("on");
          scores(false);
          api.done(t("Right: {why}", { why: scoreWords(result) }));
        } else {
          api.say(t("Not {value}: add the health of the Blue ships in Red's kill pile and the rocks on Red's ships.", { value }));
        }
      } } }));
  }
}

function scoreWords(result) {
  const pile = (result.kill_piles[RED] || []).length;
  const rocks = Object.entries(result.ships || {}).filter(([id, s]) => id.startsWith("red-") && s.alive)
    .reduce((sum, [, s]) => sum + (s.rocks || 0), 0);
  const parts = [];
  if (pile) parts.push(t("the Sidewinder in your kill pile scores its health, 2"));
  if (rocks) parts.push(tn("{n} rock on your Moth scores {n}", "{n} rocks on your Moth score {n}", rocks));
  const end = result.winner === RED ? t("Red wins.") : result.winner ? t("{winner} wins.", { winner: result.winner }) : t("A draw.");
  return `${parts.join(t(", and ")) || t("nothing in your kill pile and no rocks")}. ${end}`;
}

function showFinish() {
  setPhase("over");
  const play = api.firstMatch({ id: "play-first" });
  api.actions().append(play, el("a", { class: "button secondary", href: "/rules#lightspeed", text: t("Read the rules") }));
  api.done(t("You have the Light Speed basics."));
  play.focus({ preventScroll: true });
}

/**
 * The Light Speed lesson for the tutorial page's `tutorialApi` (pages/tutorial.js): its
 * steps, its finale (a first match) and leave(). Loads the fleet first.
 */
export async function lightspeedLesson(tutorialApi) {
  api = tutorialApi;
  ls.ships = await loadCatalog("lightspeed");
  return {
    basics: true,
    steps: [
      {
        id: "move",
        name: "Move",
        title: t("Your card follows you"),
        text: [
          t("You play <b class=\"red\">Red</b>. This is Light Speed: everyone drops ships on the table at the same time, then the ships fight on their own."),
          t("The red card is your <b>Moth</b>, still in your hand. <b>Move it around the table</b>: it follows the mouse. On a touch screen, drag it with one finger; with the keyboard, focus the table and use the arrows."),
        ],
        enter: () => { show(); holdCard(); },
      },
      {
        id: "turn",
        name: "Turn",
        title: t("Turn it to aim"),
        text: [
          t("A ship fires from the stubs on its edges; the Moth's two lasers point out of its <b>nose</b>, the top of the card."),
          t("<b>Turn your Moth so its nose points at Blue's Sidewinder</b> (top left): the dashed line shows where it aims. Turn with the mouse wheel, <kbd>Q</kbd> / <kbd>E</kbd>, the ⟲ ⟳ buttons, or (on a touch screen) the yellow handle or two fingers."),
        ],
        enter: () => { show(); handChanged(); },
      },
      {
        id: "place",
        name: "Place",
        title: t("Put it down"),
        text: [
          t("<b>Click</b> (or press <b>Place</b>) to put the card down where it is. It must lie on the table and touch no other card. Once down, it stays: in a real match you would take your next card at once."),
        ],
        enter: () => { show(); handChanged(); },
      },
      {
        id: "battle",
        name: "Fire",
        title: t("See the lasers fire"),
        text: [
          t("When the cards are down, the battle plays itself: speed 1 ships fire first, then speed 2, and so on. Every laser stops at the first card it meets."),
          t("Your Moth has speed 1 (top left of the card); Blue's Sidewinder has speed 2. <b>Press Fire!</b> and watch who shoots first."),
        ],
        enter: () => { show(); showFireButton(); },
      },
      {
        id: "score",
        name: "Score",
        title: t("Read the score"),
        text: [
          t("A destroyed ship goes to its enemy's <b>kill pile</b> and scores its health (the red dots). Rocks mined from the asteroid and still on a surviving ship score one each."),
        ],
        enter: () => { show(); askScore(); },
      },
    ],
    finale: {
      id: "ready",
      name: "Play",
      title: t("Your first Light Speed match"),
      text: [
        t("That is all it takes to start. In a real Light Speed match you get ten cards and a few seconds for each; the first to drop his last card calls stop, and any card still in your hand must be dropped where it is or thrown away."),
        t("The beginner bot plays slowly, so you can get your whole fleet down."),
      ],
      enter: () => { show(); showFinish(); },
    },
    leave,
  };
}
