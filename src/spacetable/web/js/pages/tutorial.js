// The tutorial: a newcomer learns by doing, one short step at a time. Light Speed first, on
// a small table against one Blue ship: move the card in hand, turn it to aim, put it down,
// watch the battle the server resolves (POST /api/resolve, drawn by BattlePlayer), read the
// score. Then Faster Than Light (games/ftl/tutorial.js): turn a missile with the ring,
// sprint it with the arrow and watch its tape. Each step says what to do, notices when it is
// done and only then offers Next; "ready" opens a first match against a bot, or Next goes on
// to hex fleet (games/hexfleet/tutorial.js): the chit cup, a move and its cost, shields and a
// salvo by the cards, and a hex fleet battle against the easy bot.
//
// `/tutorial?game=ftl` starts at the Faster Than Light steps, `?game=hexfleet` at hex fleet's.
//
// The page's state for tests: body[data-step] is the current step's id, body[data-done] is
// "yes" once the step is done.

import { $, clear, el, postJSON, setPhase } from "../shell/dom.js";
import { loadCatalog } from "../games/lasers/cards.js";
import { colourOf } from "../shell/colours.js";
import { heading } from "../shell/angles.js";
import { TableView } from "../games/lasers/table.js";
import { Hand } from "../games/lasers/hand.js";
import { BattlePlayer } from "../games/lasers/battle.js";
import { showScores } from "../games/lasers/scores.js";
import { FtlLesson } from "../games/ftl/tutorial.js";
import { hexSteps } from "../games/hexfleet/tutorial.js";

const PLAYERS = ["Red", "Blue"];
/** The tutorial's table (mm): small, so the cards are big on any screen. */
const TABLE = [520, 400];
/** Where the card in hand starts, and the cards already on the table. */
const HAND_START = { x: 150, y: -140, rotation: 0 };
const TARGET = { id: "blue-sidewinder", owner: "Blue", ship: "sidewinder", x: -150, y: 110, rotation: 180 };
const ASTEROID = { id: "asteroid", type: "asteroid", x: 150, y: 60, rotation: 0, rocks: 6 };
/** The bot of a newcomer's first match: it leaves time to put the whole fleet down. */
const FIRST_BOT = "beginner";
/** How far (mm) the card must travel before "move it" counts as done. */
const MOVE_ENOUGH_MM = 40;

const colourOfPlayer = (player) => colourOf(Math.max(0, PLAYERS.indexOf(player)));

const lesson = {
  ships: {},
  cards: [TARGET, ASTEROID],
  placed: null,
  battle: null,
  result: null,
  ftl: null,
  started: false, // the page is wired: the hand's changes may be followed
};

const view = new TableView($("#table"));
view.setTable(TABLE);
view.enableGestures?.({ canPan: (e) => !hand.owns(e), wheelZooms: () => !hand.movable() });
const hand = new Hand(view, {
  onPose: () => {},
  onPlace: (pose) => tryPlace(pose),
  obstacles: () => lesson.cards,
  onChange: () => handChanged(),
});

// -- the steps --------------------------------------------------------------------------------

const STEPS = [
  {
    id: "move",
    name: "Move",
    title: "Your card follows you",
    text: [
      "You play <b class=\"red\">Red</b>. This is Light Speed: everyone drops ships on the table at the same time, then the ships fight on their own.",
      "The red card is your <b>Moth</b>, still in your hand. <b>Move it around the table</b>: it follows the mouse. On a touch screen, drag it with one finger; with the keyboard, focus the table and use the arrows.",
    ],
    enter: () => holdCard(),
  },
  {
    id: "turn",
    name: "Turn",
    title: "Turn it to aim",
    text: [
      "A ship fires from the stubs on its edges; the Moth's two lasers point out of its <b>nose</b>, the top of the card.",
      "<b>Turn your Moth so its nose points at Blue's Sidewinder</b> (top left): the dashed line shows where it aims. Turn with the mouse wheel, <kbd>Q</kbd> / <kbd>E</kbd>, the ⟲ ⟳ buttons, or (on a touch screen) the yellow handle or two fingers.",
    ],
    enter: () => handChanged(),
  },
  {
    id: "place",
    name: "Place",
    title: "Put it down",
    text: [
      "<b>Click</b> (or press <b>Place</b>) to put the card down where it is. It must lie on the table and touch no other card. Once down, it stays: in a real match you would take your next card at once.",
    ],
    enter: () => handChanged(),
  },
  {
    id: "battle",
    name: "Fire",
    title: "See the lasers fire",
    text: [
      "When the cards are down, the battle plays itself: speed 1 ships fire first, then speed 2, and so on. Every laser stops at the first card it meets.",
      "Your Moth has speed 1 (top left of the card); Blue's Sidewinder has speed 2. <b>Press Fire!</b> and watch who shoots first.",
    ],
    enter: () => showFireButton(),
  },
  {
    id: "score",
    name: "Score",
    title: "Read the score",
    text: [
      "A destroyed ship goes to its enemy's <b>kill pile</b> and scores its health (the red dots). Rocks mined from the asteroid and still on a surviving ship score one each.",
    ],
    enter: () => askScore(),
  },
  {
    id: "ftl-turn",
    name: "Turn",
    title: "Faster Than Light: turn with the ring",
    text: [
      "A different game: a duel of secret orders on a table measured in inches. Each turn you give each of your pieces one order, the other player does the same, and then all the orders happen at once.",
      "Your red missile (<b>red-m1</b>) must reach Blue's ship. <b>Drag the ring around your missile</b> until it faces Blue's ship (15° at a time), then press <b>Play the turn</b>. A ghost shows where it will point.",
    ],
    enter: () => startFtl("turn"),
  },
  {
    id: "ftl-sprint",
    name: "Sprint",
    title: "Sprint with the arrow, see the tape",
    text: [
      "Now <b>drag the arrow ahead of your missile</b> to sprint: the yellow tape is its path, 1 to 8 inches. Make it reach Blue's ship.",
      "A tape only strikes a piece that launched or turned this turn. Blue is turning this turn, so it can be hit. Then press <b>Play the turn</b>.",
    ],
    enter: () => lesson.ftl.plotSprint(),
  },
  {
    id: "ready",
    name: "Play",
    title: "You are ready",
    text: [
      "That is the heart of both games. In a real Light Speed match you get ten cards and a few seconds for each; the first to drop his last card calls stop, and any card still in your hand must be dropped where it is or thrown away.",
      "The beginner bot plays slowly, so you can get your whole fleet down.",
      "Or press <b>Next</b> for a third game, hex fleet: fleets on a hex grid and a deck of playing cards.",
    ],
    enter: () => showFinish(),
  },
  // Next from "ready" goes on to a third game.
  ...hexSteps({ say, done, actions: () => $("#step-actions") }),
];

let index = 0;

function showStep(i) {
  index = i;
  const step = STEPS[i];
  document.body.dataset.step = step.id;
  document.body.dataset.done = "no";
  const progress = clear($("#progress"));
  STEPS.forEach((s, k) => {
    progress.append(el("li", { class: k < i ? "done" : k === i ? "current" : "", "aria-current": k === i ? "step" : null,
      title: s.title }, el("span", { class: "visually-hidden", text: `${s.title}${k < i ? " (done)" : ""}` })));
  });
  const game = step.id.startsWith("ftl") ? " · Faster Than Light" : step.id.startsWith("hex") ? " · Hex fleet" : i < 5 ? " · Light Speed" : "";
  $("#step-count").textContent = `Step ${i + 1} of ${STEPS.length}${game}`;
  $("#step-title").textContent = step.title;
  const text = clear($("#step-text"));
  for (const paragraph of step.text) {
    const p = el("p");
    p.innerHTML = paragraph; // our own fixed strings
    text.append(p);
  }
  say("");
  clear($("#step-actions"));
  const next = $("#next");
  next.disabled = true;
  next.hidden = i === STEPS.length - 1;
  step.enter();
  // On a narrow screen the step sits above the table: bring it back into view.
  if (i > 0 && matchMedia("(max-width: 820px)").matches) $(".tutorial-step").scrollIntoView({ block: "start" });
}

/** The step is done: say so and offer Next. */
function done(message) {
  document.body.dataset.done = "yes";
  say(message, "done");
  const next = $("#next");
  next.disabled = false;
  if (!next.hidden) next.focus({ preventScroll: true });
}

/** A line under the step: what just happened, a hint, or (kind "done") the step done. */
function say(message, kind = "") {
  const status = $("#step-status");
  status.textContent = message;
  status.className = `tutorial-status ${kind}`;
}

// -- Light Speed: the card in hand --------------------------------------------------------------

function holdCard() {
  hand.setPose(HAND_START);
  hand.setCard("moth", lesson.ships.moth, colourOfPlayer("Red"));
  $("#hand-bar").hidden = false;
  handChanged();
}

/** The first card the Moth's nose line meets, if it is the target: ray march along it. */
function aimedAtTarget(pose) {
  const [dx, dy] = heading(pose.rotation);
  for (let t = 44; t < 900; t += 2) {
    const point = { x: pose.x + dx * t, y: pose.y + dy * t };
    for (const card of lesson.cards) {
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
  const step = STEPS[index].id;
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
  if (!lesson.started || !hand.ship) return;
  const pose = hand.pose;
  const aimed = aimedAtTarget(pose);
  drawAim(pose, aimed);
  const reason = hand.shown() ? hand.blockedBy() : null;
  const info = `Moth · turned ${Math.round(pose.rotation)}°${reason ? ` · can't place: ${reason}` : ""}${aimed ? " · aimed at the Sidewinder" : ""}`;
  if ($("#hand-info").textContent !== info) $("#hand-info").textContent = info;
  $("#hand-info").classList.toggle("blocked", Boolean(reason));
  const step = STEPS[index]?.id;
  if (step === "move" && document.body.dataset.done !== "yes") {
    if (Math.hypot(pose.x - HAND_START.x, pose.y - HAND_START.y) >= MOVE_ENOUGH_MM) done("Good: the card goes where you go.");
  } else if (step === "turn") {
    if (aimed && document.body.dataset.done !== "yes") done("On target: the dashed line meets the Sidewinder.");
    else if (!aimed && document.body.dataset.done === "yes") {
      document.body.dataset.done = "no";
      $("#next").disabled = true;
      say("Not aimed any more: turn it back towards the Sidewinder.");
    }
  }
}

function tryPlace(pose) {
  const step = STEPS[index].id;
  if (step === "move") return say("Not yet: first move the card around a little.");
  if (step === "turn") return say("Not yet: first turn your Moth towards the Sidewinder.");
  if (step !== "place") return;
  const reason = hand.blockedBy();
  if (reason) return say(`It can't go down here: it ${reason === "off the table" ? "is off the table" : reason}. Move it a little.`);
  const card = { id: "red-moth", owner: "Red", ship: "moth", x: pose.x, y: pose.y, rotation: pose.rotation };
  lesson.placed = card;
  lesson.cards = [...lesson.cards, card];
  hand.setCard(null);
  view.overlay.querySelector(".tutorial-aim")?.remove();
  $("#hand-bar").hidden = true;
  view.addCard(card, lesson.ships, colourOfPlayer);
  done(aimedAtTarget(pose) ? "Down, and aimed at the Sidewinder." : "Down. It is not aimed at the Sidewinder any more: we will see what it hits.");
}

// -- Light Speed: the battle and the score ----------------------------------------------------

function tableFile() {
  return { ruleset: "lightspeed", players: PLAYERS, table: { width: TABLE[0], height: TABLE[1] },
    cards: lesson.cards.map((c) => ({ ...c })) };
}

function showFireButton() {
  const fire = el("button", { type: "button", id: "fire", class: "fire", text: "Fire!" });
  fire.addEventListener("click", async () => {
    fire.disabled = true;
    say("The referee is resolving the battle…");
    let answer;
    try {
      answer = await postJSON("/api/resolve", tableFile());
    } catch (error) {
      fire.disabled = false;
      say(`The battle could not be resolved: ${error.message}. Try again.`);
      return;
    }
    fire.remove();
    say("");
    playBattle(answer.table || tableFile(), answer.result);
  });
  $("#step-actions").append(fire);
  fire.focus({ preventScroll: true });
}

function playBattle(table, result) {
  lesson.result = { table, result };
  setPhase("battle");
  $("#battle-controls").hidden = false;
  lesson.battle = new BattlePlayer(view, {
    table, result, ships: lesson.ships, colourOf: colourOfPlayer, controls: $("#battle-controls"),
    log: $("#battle-log"),
    onDone: () => {
      if (STEPS[index].id !== "battle" || document.body.dataset.done === "yes") return;
      setPhase("over");
      done(battleWords(result));
    },
  });
  lesson.battle.start();
}

/** What the battle did, for a newcomer. */
function battleWords(result) {
  const killed = (result.kill_piles.Red || []).includes(TARGET.id);
  const mothAlive = result.ships?.["red-moth"]?.alive !== false;
  const rocks = result.ships?.["red-moth"]?.rocks || 0;
  if (killed) return "Your Moth fired first (speed 1) and destroyed the Sidewinder before it could fire back.";
  if (!mothAlive) return "Your Moth missed, and Blue's Sidewinder (speed 2) destroyed it. Aim carefully in a real match!";
  if (rocks) return `Your Moth mined the asteroid: ${rocks} rocks are on it now.`;
  return "Your lasers hit nothing this time: in a real match, aim before you drop.";
}

function askScore() {
  const { table, result } = lesson.result;
  showScores($("#score-panel"), { table, result, ships: lesson.ships, colourOf: colourOfPlayer });
  const right = result.scores.Red ?? 0;
  const choices = [...new Set([right, right + 1, Math.max(0, right - 1), right + 2])].slice(0, 3).sort((a, b) => a - b);
  const actions = $("#step-actions");
  actions.append(el("p", { class: "tutorial-question", text: "How many points does Red score? The score panel shows the kill piles and rocks." }));
  for (const value of choices) {
    actions.append(el("button", { type: "button", class: "secondary answer", dataset: { answer: value }, text: String(value),
      on: { click: (e) => {
        if (value === right) {
          for (const b of actions.querySelectorAll(".answer")) b.disabled = true;
          e.target.classList.add("on");
          done(`Right: ${scoreWords(result)}`);
        } else {
          say(`Not ${value}: add the health of the Blue ships in Red's kill pile and the rocks on Red's ships.`);
        }
      } } }));
  }
}

function scoreWords(result) {
  const pile = (result.kill_piles.Red || []).length;
  const rocks = Object.entries(result.ships || {}).filter(([id, s]) => id.startsWith("red-") && s.alive)
    .reduce((sum, [, s]) => sum + (s.rocks || 0), 0);
  const parts = [];
  if (pile) parts.push("the Sidewinder in your kill pile scores its health, 2");
  if (rocks) parts.push(`${rocks} rock${rocks === 1 ? "" : "s"} on your Moth score ${rocks}`);
  return `${parts.join(", and ") || "nothing in your kill pile and no rocks"}. ${result.winner === "Red" ? "Red wins." : result.winner ? `${result.winner} wins.` : "A draw."}`;
}

// -- Faster Than Light --------------------------------------------------------------------------

function startFtl() {
  lesson.battle?.destroy();
  lesson.battle = null;
  hand.setCard(null); // a card still in hand (the Light Speed steps skipped) stays behind
  $("#skip-ftl").hidden = true;
  document.body.classList.add("ftl-lesson");
  // toggleAttribute: an <svg> has no `hidden` property.
  for (const node of document.querySelectorAll(".lesson-ls")) node.toggleAttribute("hidden", true);
  for (const id of ["#score-panel", "#battle-log"]) $(id).hidden = true;
  $("#ftl-board").toggleAttribute("hidden", false);
  $("#plot-panel").hidden = false;
  setPhase("plot");
  lesson.ftl = new FtlLesson({
    board: $("#ftl-board"),
    panel: $("#plot-panel"),
    log: $("#turn-log"),
    logPanel: $("#turn-log-panel"),
    actions: () => $("#step-actions"),
    say,
    done,
  });
  lesson.ftl.plotTurn();
}

// -- the end ----------------------------------------------------------------------------------

function showFinish() {
  setPhase("over");
  $("#plot-panel").hidden = true;
  const actions = $("#step-actions");
  const play = el("button", { type: "button", class: "play-first", id: "play-first", text: "Play your first match",
    on: { click: () => playFirstMatch(play) } });
  actions.append(play, el("a", { class: "button secondary", href: "/rules", text: "Read the rules" }));
  done("Tutorial complete.");
  $("#play-first").focus({ preventScroll: true });
}

/** Open a Light Speed room for two, with us in one seat and the beginner bot in the other. */
async function playFirstMatch(button) {
  button.disabled = true;
  try {
    const room = await postJSON("/api/rooms", { ruleset: "lightspeed", seats: 2 });
    // As the lobby's "Play a bot": the room page seats us, then the bot.
    location.href = `/rooms/${encodeURIComponent(room.id)}?join=1&bots=1:${FIRST_BOT}`;
  } catch (error) {
    button.disabled = false;
    say(`The room could not be created: ${error.message}`);
  }
}

// -- wiring -------------------------------------------------------------------------------------

async function main() {
  try {
    lesson.ships = await loadCatalog("lightspeed");
  } catch (error) {
    say(`The ships could not be loaded: ${error.message}. Reload the page.`);
    return;
  }
  view.showCards(lesson.cards, lesson.ships, colourOfPlayer);
  $("#turn-left").addEventListener("click", () => hand.rotateBy(15));
  $("#turn-right").addEventListener("click", () => hand.rotateBy(-15));
  $("#place-card").addEventListener("click", () => hand.place());
  $("#next").addEventListener("click", () => {
    if (index < STEPS.length - 1) showStep(index + 1);
  });
  $("#skip-ftl").addEventListener("click", () => showStep(STEPS.findIndex((s) => s.id === "ftl-turn")));
  lesson.started = true;
  // `?game=ftl` or `?game=hexfleet` (as on the referee page) starts at that game's steps.
  const first = { ftl: "ftl-turn", hexfleet: "hex-cup" }[new URLSearchParams(location.search).get("game")];
  showStep(first ? STEPS.findIndex((s) => s.id === first) : 0);
}

main();
