// The room page: seats in the lobby, Stellar Conflict's fleet builder, the fast round (or
// the deployment and its countdown) on a live table, "stop!" or "time!", the battle
// animation and the scores. Everything arrives over the room's websocket
// (docs/protocol.md); this module turns messages into what the player sees.

import { $, clear, el, fetchJSON, savedName, setPhase } from "../shell/dom.js";
import { loadCatalog } from "../games/lasers/cards.js";
import { colourOf } from "../shell/colours.js";
import { CARD_SIZE } from "../games/lasers/geometry.js";
import { TableView } from "../games/lasers/table.js";
import { Hand, OtherHands } from "../games/lasers/hand.js";
import { RoomSocket } from "../shell/socket.js";
import { BattlePlayer } from "../games/lasers/battle.js";
import { showScores } from "../games/lasers/scores.js";
import { GAME_NAMES, describeLevel, loadBots, renderSeats } from "../shell/seats.js";
import { FleetBuilder } from "../games/lasers/fleet.js";
import { Inspector, inspectorPanel } from "../games/lasers/inspector.js";
import { muteButton, sounds } from "../shell/sounds.js";
import { showConnectionBadge, toast } from "../shell/notices.js";
import { gameKeyOf, loadGame } from "../games/index.js";

const roomId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
// Where each seat's first card waits, near its own side of the table.
// As fractions of the table's width and height, by seat: the near side, the far side, the
// left, the right (the server puts a bot's card there too: HOME_FRACTIONS in _realtime.py).
const HOME_FRACTIONS = [[0, -0.35], [0, 0.35], [-0.4, 0], [0.4, 0]];
// The lobby's links: `?join=1` seats us (creating a room, "Play a bot"), then
// `&bots=1:beginner` seats those bots.
const WANTED = new URLSearchParams(location.search);

/** Where the card `seat` draws waits on a table of `size` ([w, h] mm). */
function homePose(seat, size) {
  const [w, h] = size || [1200, 800];
  const [fx, fy] = HOME_FRACTIONS[seat % HOME_FRACTIONS.length];
  return { x: fx * w, y: fy * h, rotation: 0 };
}
// On a touch screen the table zooms in until a card is about this wide on screen (px).
const TOUCH_CARD_PX = 64;
// The match phases in which cards in hand move and land.
const PLACING = new Set(["fast", "deployment"]);

const page = {
  ships: {}, // ship definitions by key
  me: { role: "spectator", seat: null, player: null },
  room: null, // the last `room` message
  match: null, // the last `state` message
  players: [], // player names in seat order
  rejoining: false,
  watching: new URLSearchParams(location.search).has("watch"), // came through a watch link
  battle: null, // the BattlePlayer of the battle on show
  battleId: null, // its match id
  stopTimer: null,
  stopHeld: null, // {ship, name} of our card when the cards froze
  discardAsked: false, // we pressed Discard ourselves
  countdownEnd: null, // performance.now() when the deployment countdown runs out
  countdownFrame: null,
  frozenHolders: null, // players who held a card when the cards froze
  races: {}, // Stellar Conflict races: {race: {name, ships}}
  refusedTimer: null,
  runupEnd: null, // performance.now() when the 3-2-1 before the round ends
  runupTimer: null,
  joining: false, // we sent the join a lobby link asked for
};

const view = new TableView($("#table"));
const others = new OtherHands(view);
const hand = new Hand(view, {
  onPose: (pose) => socket.send({ type: "pose", ...pose }),
  onPlace: (pose) => {
    if (runupLeft() > 0) { // the 3-2-1 runs: no card lands before it ends
      onRefused({ action: "place", reason: `The round starts in ${Math.ceil(runupLeft())} s: wait for the count.` });
      return;
    }
    if (socket.send({ type: "place", ...pose })) hand.busy = true;
  },
  obstacles: () => (page.match?.table || []).map((c) => ({ ...c, size: c.size || CARD_SIZE })),
  onChange: () => renderHandBar(),
});
view.enableGestures({ canPan: (e) => !hand.owns(e), wheelZooms: () => !hand.movable(), arrowsPan: () => !hand.movable() });
// Hover a card to see it large (a click keeps it), unless a card in hand is being placed.
new Inspector(view, inspectorPanel(), {
  cardOf: (id) => page.battle?.byId[id] ?? page.match?.table.find((c) => c.id === id),
  ships: () => page.ships, colourOf: colourOfPlayer, ruleset: () => page.room?.ruleset,
  enabled: () => !hand.ship,
});
$("#table-wrap").append(view.zoomControls());
const socket = new RoomSocket(roomId, { onMessage: receive, onStatus: showConnection });
const builder = new FleetBuilder($("#fleet-panel"), {
  races: () => page.races,
  onSend: (ships) => socket.send({ type: "fleet", ships }),
});

/** The team colour of a player (by seat order). */
function colourOfPlayer(player) {
  const index = page.players.indexOf(player);
  return colourOf(index < 0 ? 0 : index);
}

// A Faster Than Light room (secret plots) is run by its own page module: the first `room`
// message says which game the room plays; messages that come while that module loads wait.
let plotRoom = null;

function receive(message) {
  if (plotRoom) {
    plotRoom.push(message);
    return;
  }
  if (message.type === "room" && (message.ruleset === "ftl" || message.pacing === "plots" || message.pacing === "turns")) {
    // A room created in the lobby seats us; the FTL and hex fleet pages seat their own bots
    // (and us; in hot seat, both seats).
    page.room = message;
    if (!WANTED.has("bots") && !WANTED.has("hotseat")) joinIfWanted();
    handOver(message);
    return;
  }
  const handler = {
    welcome: onWelcome, room: onRoom, state: onState, poses: onPoses, placed: onPlaced,
    refused: onRefused, stop: onStop, battle: onBattle, error: onError,
  }[message.type];
  handler?.(message);
}

/** Hand the page to games/ftl/room.js (or games/hexfleet/room.js for a game played one
 * action at a time), from the `room` message `first` on. */
async function handOver(first) {
  plotRoom = [first];
  hand.setCard(null);
  // The card game's table controls and key help are not the plotting board's.
  for (const id of ["#hand-bar", "#table-keys"]) $(id)?.remove();
  $("#table-wrap > .zoom-controls")?.remove();
  $("#table").removeAttribute("aria-describedby");
  const game = await loadGame(await gameKeyOf(first.ruleset));
  const room = await game.room({ socket, me: page.me, watching: page.watching });
  socket.onMessage = (m) => room.receive(m);
  socket.onStatus = (status) => room.onStatus(status);
  room.rejoining = page.rejoining;
  for (const message of plotRoom) room.receive(message);
}

// -- who we are and the room ---------------------------------------------------------------

function onWelcome(message) {
  page.me = { role: message.role, seat: message.seat, player: message.player };
  document.body.dataset.role = message.role;
  document.body.dataset.player = message.player ?? "";
  if (message.role === "player") {
    page.rejoining = false;
    socket.token = message.token;
  } else if (message.elsewhere !== undefined && message.elsewhere !== null) {
    // Another tab of ours plays the seat: this one watches, and keeps the token.
    page.rejoining = false;
    page.elsewhere = true;
    toast("You play this seat in another tab: this tab watches.");
  } else if (!page.rejoining) {
    socket.token = null; // we left our seat (or never had one)
  }
  if (message.role === "player" && page.joining) seatWantedBots();
  const identity = $("#identity");
  identity.textContent = message.role === "player" ? `you are ${message.player}` : "watching";
  identity.style.setProperty("--team", message.role === "player" ? colourOf(message.seat) : "#8891a8");
  if (page.room) renderRoom();
  if (page.match) renderState();
}

function onRoom(message) {
  page.room = message;
  $("#game-name").textContent = GAME_NAMES[message.ruleset] || message.ruleset;
  view.unit = message.ruleset === "stellar" ? "cubes" : "rocks";
  if (!page.match || message.phase === "lobby") {
    page.players = message.seats.map((s) => s.name || `seat ${s.seat + 1}`);
  }
  if (message.phase === "lobby") {
    page.match = null;
    builder.reset();
    $("#fleet-panel").hidden = true;
    hideCountdown();
    endBattle();
    hand.setCard(null);
    others.clear();
    setPhase("lobby");
  }
  renderRoom();
  joinIfWanted();
}

function renderRoom() {
  const room = page.room;
  const panel = $("#seat-panel");
  panel.hidden = room.phase !== "lobby";
  if (room.phase === "lobby") {
    renderSeats(panel, room, page.me.seat, (m) => socket.send(m), {
      watching: page.watching,
      onPlay: () => {
        page.watching = false;
        renderRoom();
      },
    });
  }
  if (room.phase === "lobby") {
    $("#status").textContent = page.me.role === "player"
      ? "Waiting for every seat to fill and every player to be ready."
      : page.elsewhere ? "You play your seat in another tab: this tab watches." : "You are watching.";
  }
  renderPlayers();
}

/** The side list of players: cards left, card in hand, decision after stop. */
function renderPlayers() {
  const list = clear($("#players"));
  const statuses = page.match?.players || {};
  const seats = page.room?.seats || [];
  page.players.forEach((player, index) => {
    const s = statuses[player];
    const seat = seats[index];
    const bits = [];
    if (s) {
      if (s.race) bits.push(el("span", { class: "race", text: page.races[s.race]?.name || s.race }));
      if (page.match.phase === "preparation") {
        bits.push(el("span", { class: "fleet-state", text: s.fleet_chosen ? "fleet chosen" : "choosing a fleet…" }));
      } else {
        bits.push(el("span", { class: "cards-left", text: `${s.cards_left} in deck` }));
      }
      if (s.holding) bits.push(el("span", { class: "holding", text: `holding ${page.ships[s.holding]?.name || s.holding}` }));
      if (s.discarded) bits.push(el("span", { class: "discarded", text: `discarded ${page.ships[s.discarded]?.name || s.discarded}` }));
      else if (page.match.phase === "stop" && s.decided && page.frozenHolders?.has(player)) bits.push(el("span", { class: "decided", text: "dropped" }));
    }
    if (seat?.kind === "bot") {
      bits.push(el("span", { class: "bot", text: `${seat.level} bot`, title: describeLevel(page.room.ruleset, seat.level) }));
    }
    if (seat && seat.kind === "human" && !seat.connected) bits.push(el("span", { class: "away", text: "disconnected" }));
    list.append(el("li", {
      class: `player${player === page.me.player ? " me" : ""}`,
      dataset: { player, cardsLeft: s?.cards_left ?? "", holding: s?.holding ? "yes" : "no",
        fleet: s?.fleet_chosen === undefined ? "" : s.fleet_chosen ? "chosen" : "choosing" },
      style: `--team: ${colourOf(index)}`,
    }, el("span", { class: "swatch" }), el("span", { class: "player-name", text: player }), ...bits));
  });
}

// -- the fast round -------------------------------------------------------------------------

function onState(message) {
  const wasPlacing = PLACING.has(page.match?.phase);
  page.match = message;
  page.players = Object.keys(message.players);
  if (message.phase !== "over" && page.battle) endBattle();
  if (PLACING.has(message.phase) && !wasPlacing) {
    const { x, y } = homePose(page.me.seat ?? 0, message.table_size_mm);
    hand.setPose({ x, y, rotation: 0 });
    page.stopHeld = null;
    page.discardAsked = false;
    $("#stop-note").hidden = true;
    if (hand.touchy && page.me.role === "player") zoomForTouch(x, y);
  }
  if (message.phase === "stop" && !page.frozenHolders) {
    page.frozenHolders = new Set(page.players.filter((p) => message.players[p].holding || message.players[p].discarded));
  } else if (message.phase !== "stop" && message.phase !== "over") {
    page.frozenHolders = null;
  }
  showRunup(message.runup);
  if (message.countdown) startCountdown(message.countdown.seconds_left, message.runup?.seconds_left ?? 0);
  else hideCountdown();
  renderState();
}

function renderState() {
  const match = page.match;
  const size = match.table_size_mm || null;
  if (!view.tableSize || !size || view.tableSize[0] !== size[0] || view.tableSize[1] !== size[1]) {
    view.setTable(size);
  }
  if (!page.battle) view.showCards(match.table, page.ships, colourOfPlayer);
  const mine = page.me.role === "player" ? match.hand : null;
  if (mine !== hand.ship) hand.busy = false; // a new card came to hand
  if (match.phase === "over") {
    hand.setCard(null);
  } else {
    hand.setCard(mine, page.ships[mine], colourOf(page.me.seat ?? 0));
  }
  // Hands that are now empty (placed or discarded) disappear; after stop the others'
  // cards stay frozen where they were.
  others.keep(page.players.filter((p) => match.players[p]?.holding && p !== page.me.player && match.phase !== "over"));
  showDrawnHands(match);
  const panel = $("#fleet-panel");
  panel.hidden = match.phase !== "preparation";
  if (match.phase === "preparation") {
    setPhase("preparation");
    hideStop();
    builder.render(match, { ships: page.ships, colour: colourOf(page.me.seat ?? 0), matchId: page.room?.match_id });
    const waiting = page.players.filter((p) => !match.players[p].fleet_chosen);
    $("#status").textContent = page.me.role === "player" && !match.fleet
      ? `Choose your fleet: up to ${match.credits} credits.`
      : `Waiting for ${waiting.join(", ")} to choose a fleet.`;
  } else if (PLACING.has(match.phase)) {
    setPhase(match.phase);
    hand.freeze(false);
    hideStop();
    const word = match.phase === "fast" ? "the fast round" : "the deployment";
    $("#status").textContent = mine
      ? hand.touchy
        ? `Place your ${page.ships[mine]?.name || mine}: drag it, turn it (handle or two fingers), then press Place.`
        : `Place your ${page.ships[mine]?.name || mine}: move it, turn it, then click to put it down.`
      : page.me.role === "player" ? "All your cards are on the table." : `Watching ${word}.`;
  } else if (match.phase === "stop") {
    setPhase("stop");
    hand.freeze(true);
    noteHeldAtStop();
    showStop(match.stop?.by ?? match.stopped_by, match.stop?.seconds_left ?? match.stop?.seconds ?? 0);
  } else {
    hideStop();
    $("#status").textContent = "The cards are down: the battle begins.";
  }
  tellDiscard(match.players?.[page.me.player]?.discarded ?? null);
  renderPlayers();
  renderHandBar();
}

/** On a touch screen: zoom in on (x, y) until a card is a finger's size. */
function zoomForTouch(x, y) {
  view.fit();
  const fitted = view.scale() / view.zoomLevel();
  const level = TOUCH_CARD_PX / CARD_SIZE[0] / fitted;
  if (level > 1.2) view.zoomTo(level, x, y);
}

/** The bar under the table while a card is in hand: turn it, what stops it, Place. */
function renderHandBar() {
  const bar = $("#hand-bar");
  if (!bar) return;
  const holding = page.me.role === "player" && Boolean(hand.ship) && PLACING.has(page.match?.phase);
  bar.hidden = !holding;
  if (!holding) return;
  const name = page.ships[hand.ship]?.name || hand.ship;
  const reason = hand.shown() ? hand.blockedBy() : null;
  const info = $("#hand-info");
  const text = `turned ${Math.round(hand.pose.rotation)}° · ${name}`;
  const why = reason ? `can't place: ${reason}` : "";
  if (info.dataset.text !== text + why) {
    info.dataset.text = text + why;
    info.replaceChildren(el("span", { text }), why ? el("span", { class: "why", text: why }) : "");
  }
  info.classList.toggle("blocked", Boolean(reason));
  $("#place-card").disabled = hand.busy;
}

// -- the run-up, and the others' hands ------------------------------------------------------

/** Seconds left of the 3-2-1 before the round (0 once it is over). */
function runupLeft() {
  return page.runupEnd === null ? 0 : Math.max(0, (page.runupEnd - performance.now()) / 1000);
}

/** The 3-2-1 before the round, big over the table (`runup`: the state's, or null). */
function showRunup(runup) {
  if (!runup || runup.seconds_left <= 0) return;
  page.runupEnd = performance.now() + runup.seconds_left * 1000;
  let box = $("#runup");
  if (!box) {
    box = el("div", { id: "runup", class: "runup", role: "timer", "aria-live": "assertive" },
      el("span", { class: "runup-count" }), el("span", { class: "runup-text" }));
    $("#table-wrap").append(box);
  }
  box.hidden = false;
  clearInterval(page.runupTimer);
  const word = page.match?.phase === "deployment" ? "The deployment" : "The round";
  const tick = () => {
    const left = runupLeft();
    const count = Math.ceil(left);
    if (box.dataset.count !== String(count)) sounds.tick(count <= 0); // 3, 2, 1 and a higher Go!
    box.dataset.count = String(count);
    box.querySelector(".runup-count").textContent = count > 0 ? String(count) : "Go!";
    box.querySelector(".runup-text").textContent = count > 0 ? `${word} starts in…` : "Place your cards!";
    if (count <= 0) {
      clearInterval(page.runupTimer);
      page.runupTimer = null;
      page.runupEnd = null;
      setTimeout(() => { if (page.runupEnd === null) box.hidden = true; }, 700);
    }
  };
  tick();
  page.runupTimer = setInterval(tick, 100);
}

/**
 * The others' cards in hand are seen from the moment they are drawn: until their first
 * pose comes, each waits on its player's side of the table.
 */
function showDrawnHands(match) {
  if (!PLACING.has(match.phase)) return;
  page.players.forEach((player, seat) => {
    const ship = match.players[player]?.holding;
    if (!ship || player === page.me.player || others.groups.get(player)?.dataset.ship === ship) return;
    const def = page.ships[ship] || { name: ship, speed: "?", health: 0, lasers: [], shields: [] };
    others.show(player, { ...homePose(seat, match.table_size_mm), ship }, def, colourOfPlayer(player));
  });
}

// -- the lobby's links: seat us, and the bots asked for --------------------------------------

/** `?join=1`: take a seat under our saved name, once, unless a token holds one already. */
function joinIfWanted() {
  if (!WANTED.has("join") || page.joining || page.room?.phase !== "lobby") return;
  if (page.me.role === "player" || page.rejoining || socket.token || linkUsed()) return;
  page.joining = true;
  socket.send({ type: "join", name: savedName() || "player", seat: null });
}

/** Seated by the link: seat the bots it names (`bots=1:beginner,2:easy`), once per tab. */
function seatWantedBots() {
  page.joining = false;
  for (const wanted of (WANTED.get("bots") || "").split(",").filter(Boolean)) {
    const [seat, level] = wanted.split(":");
    socket.send({ type: "bot", seat: Number(seat), level: level || null });
  }
  try {
    sessionStorage.setItem(`spacetable.joined.${roomId}`, "1"); // a reload does not join again
  } catch {
    // No session storage: the seat token alone keeps a reload from joining twice.
  }
}

/** Whether this tab already took the seat the link asked for. */
function linkUsed() {
  try {
    return sessionStorage.getItem(`spacetable.joined.${roomId}`) === "1";
  } catch {
    return false;
  }
}

// -- the deployment countdown (Stellar Conflict) ----------------------------------------------

/**
 * Count down from `secondsLeft`, smoothly, until the next state says otherwise; it stands
 * still for `holdSeconds` first (the run-up).
 */
function startCountdown(secondsLeft, holdSeconds = 0) {
  page.countdownEnd = performance.now() + (secondsLeft + holdSeconds) * 1000;
  page.countdownFull = secondsLeft;
  $("#countdown").hidden = false;
  if (page.countdownFrame) return;
  const tick = () => {
    const left = Math.min(page.countdownFull, Math.max(0, (page.countdownEnd - performance.now()) / 1000));
    const box = $("#countdown");
    if (left > 0 && left <= 5 && Math.ceil(left) !== page.countdownTick) sounds.tick(left <= 1);
    page.countdownTick = Math.ceil(left);
    $("#countdown-seconds").textContent = left.toFixed(1);
    box.dataset.secondsLeft = left.toFixed(1);
    box.classList.toggle("urgent", left <= 5);
    page.countdownFrame = left > 0 ? requestAnimationFrame(tick) : null;
  };
  tick();
}

function hideCountdown() {
  if (page.countdownFrame) cancelAnimationFrame(page.countdownFrame);
  page.countdownFrame = null;
  page.countdownEnd = null;
  $("#countdown").hidden = true;
}

function onPoses(message) {
  for (const [player, pose] of Object.entries(message.poses)) {
    if (player === page.me.player) continue;
    const def = page.ships[pose.ship] || { name: pose.ship, speed: "?", health: 0, lasers: [], shields: [] };
    others.show(player, pose, def, colourOfPlayer(player));
  }
}

function onPlaced(message) {
  others.hide(message.player);
  if (page.match && !page.match.table.some((c) => c.id === message.card.id)) {
    page.match.table.push(message.card);
  }
  if (!page.battle) view.addCard(message.card, page.ships, colourOfPlayer);
  sounds.place();
  if (message.player === page.me.player) {
    hand.landed();
    hideRefused();
  }
  if (message.players && page.match) {
    // A card down mid-round: the players' statuses come with it instead of a new state.
    page.match.players = message.players;
    page.match.hand = page.me.role === "player" ? message.players[page.me.player]?.holding ?? null : null;
    renderState();
  }
}

function onRefused(message) {
  hand.busy = false;
  if (message.action === "fleet") {
    builder.refused(message.reason);
    return;
  }
  const box = $("#refused");
  box.textContent = message.reason;
  box.dataset.action = message.action;
  box.hidden = false;
  // The toast sits just above the card in hand.
  const wrap = $("#table-wrap").getBoundingClientRect();
  const p = view.toClient(hand.pose.x, hand.pose.y + 60);
  box.style.left = `${Math.max(8, Math.min(wrap.width - 8, p.x - wrap.left))}px`;
  box.style.top = `${Math.max(8, p.y - wrap.top)}px`;
  box.classList.remove("shake");
  void box.offsetWidth; // restart the animation
  box.classList.add("shake");
  clearTimeout(page.refusedTimer);
  page.refusedTimer = setTimeout(hideRefused, 5000);
}

function hideRefused() {
  $("#refused").hidden = true;
}

function onError(message) {
  hand.busy = false;
  if (page.rejoining) {
    // The only error a rejoin gets: that seat is no longer ours.
    page.rejoining = false;
    socket.token = null;
  }
  toast(message.message);
}

// -- stop! ----------------------------------------------------------------------------------

function onStop(message) {
  setPhase("stop");
  hand.freeze(true);
  hideCountdown();
  noteHeldAtStop();
  showStop(message.by, message.seconds, true);
  renderHandBar();
  // A keyboard player at the table goes straight to the choice the banner offers.
  const focus = document.activeElement;
  if (!$("#stop-actions").hidden && (focus === $("#table") || focus?.closest?.("#hand-bar"))) $("#drop-here").focus();
}

/** Remember the card we hold as the cards freeze, to say what became of it. */
function noteHeldAtStop() {
  if (page.stopHeld || page.me.role !== "player" || !hand.ship) return;
  page.stopHeld = { ship: hand.ship, name: page.ships[hand.ship]?.name || hand.ship };
}

/**
 * The freeze: `by` called stop, or (null) the countdown ran out; `seconds` are left to
 * drop or discard. The banner sits above the table, never on it.
 */
function showStop(by, seconds, restart = false) {
  const banner = $("#stop-banner");
  const you = by === page.me.player;
  $("#stop-title").textContent = by ? "STOP!" : "TIME!";
  $("#stop-text").textContent = !by ? "The countdown ran out: every card in hand froze."
    : you ? "You placed your last card: the others' cards froze." : `${by} placed their last card: every card in hand froze.`;
  banner.dataset.by = by ?? "";
  banner.dataset.timer = by ? "no" : "yes";
  banner.hidden = false;
  const holding = page.me.role === "player" && Boolean(page.match ? page.match.hand : hand.ship) && !you;
  banner.dataset.holding = holding ? "yes" : "no";
  $("#stop-actions").hidden = !holding;
  const call = by ? "Stop!" : "Time!";
  $("#status").textContent = holding
    ? `${call} Drop your ${hand.group.dataset.name || "card"} where it is, or discard it.`
    : `${call} Waiting for the others to drop or discard.`;
  renderStopChoice();
  if (restart || !page.stopTimer) {
    clearInterval(page.stopTimer);
    const deadline = performance.now() + seconds * 1000;
    const tick = () => {
      const left = Math.max(0, (deadline - performance.now()) / 1000);
      const whole = Math.ceil(left);
      if (whole > 0 && whole <= 5 && $("#stop-countdown").textContent !== String(whole)) sounds.tick(whole <= 1);
      $("#stop-countdown").textContent = String(whole);
      banner.dataset.secondsLeft = left.toFixed(1);
      $("#stop-bar-fill").style.width = `${seconds > 0 ? (100 * left) / seconds : 0}%`;
      banner.classList.toggle("urgent", left <= 3);
      renderStopChoice(whole);
      if (left <= 0) clearInterval(page.stopTimer);
    };
    tick();
    page.stopTimer = setInterval(tick, 100);
  }
}

/** What happens if we do nothing, and whether the card may drop where it froze. */
function renderStopChoice(secondsLeft = Number($("#stop-countdown").textContent)) {
  const banner = $("#stop-banner");
  const what = $("#stop-what");
  const name = hand.group.dataset.name || "card";
  const reason = hand.ship ? hand.blockedBy() : null;
  let text;
  if (banner.dataset.holding !== "yes") {
    text = `The battle starts when everyone has decided, at most ${secondsLeft} s from now.`;
  } else if (reason) {
    text = `Your ${name} cannot drop where it froze (${reason}): discard it, or it is discarded in ${secondsLeft} s.`;
  } else {
    text = `Do nothing and your ${name} is discarded in ${secondsLeft} s.`;
  }
  if (what.textContent !== text) what.textContent = text;
  // Drop stays on offer: the server has the last word on where a card may lie.
  $("#drop-here").title = reason ? `can't drop here: ${reason}` : "";
}

function hideStop() {
  clearInterval(page.stopTimer);
  page.stopTimer = null;
  $("#stop-banner").hidden = true;
}

/** Say, beside the table, that our frozen card was discarded (`discarded`: its ship key). */
function tellDiscard(discarded) {
  const held = page.stopHeld;
  if (!held || !discarded || discarded !== held.ship) return;
  const note = $("#stop-note");
  const text = page.discardAsked ? `You discarded your ${held.name}.`
    : `Time ran out: your ${held.name} was discarded.`;
  if (note.textContent === text && !note.hidden) return;
  note.textContent = text;
  note.dataset.timedOut = page.discardAsked ? "no" : "yes";
  note.hidden = false;
}

// -- the battle -----------------------------------------------------------------------------

function onBattle(message) {
  if (page.battle && page.battleId === message.match_id) return; // already on show
  endBattle();
  hideStop();
  hideCountdown();
  hideRefused();
  $("#fleet-panel").hidden = true;
  hand.setCard(null);
  others.clear();
  setPhase("battle");
  const table = message.table;
  if (page.stopHeld && !table.cards.some((c) => c.id === `${page.me.player}-${page.stopHeld.ship}`)) {
    tellDiscard(page.stopHeld.ship);
  }
  page.players = table.players;
  const size = table.table ? [table.table.width, table.table.height] : null;
  view.setTable(size, size ? [] : table.cards);
  view.fit(); // the battle crosses the whole table
  view.showCards(table.cards, { ...page.ships, ...(table.ships || {}) }, colourOfPlayer, table.card_size || CARD_SIZE);
  $("#status").textContent = table.ruleset === "stellar"
    ? "The battle: ships fire by initiative, lowest first."
    : "The battle: ships fire by speed, lowest first.";
  $("#score-panel").hidden = true;
  page.battleId = message.match_id;
  page.battle = new BattlePlayer(view, {
    table, result: message.result, ships: page.ships, colourOf: colourOfPlayer,
    controls: $("#battle-controls"),
    log: $("#battle-log"),
    onDone: () => showResult(message),
  });
  $("#battle-controls").hidden = false;
  page.battle.start();
}

function showResult(message) {
  const panel = $("#score-panel");
  showScores(panel, { table: message.table, result: message.result, ships: page.ships,
    colourOf: colourOfPlayer, matchId: message.match_id, me: page.me.role === "player" ? page.me.player : null });
  if (page.me.role === "player") {
    panel.append(el("button", { type: "button", id: "rematch", on: { click: askRematch } }, "Play again"));
  }
  panel.hidden = false;
  setPhase("over");
  $("#status").textContent = message.result.winner ? `${message.result.winner} wins the battle.` : "The battle is a draw.";
}

function askRematch() {
  if (!socket.send({ type: "rematch" })) return;
  const button = $("#rematch");
  button.disabled = true;
  button.textContent = "Waiting for the other players…";
}

function endBattle() {
  page.battle?.destroy();
  page.battle = null;
  page.battleId = null;
  $("#battle-controls").hidden = true;
  $("#score-panel").hidden = true;
}

// -- connection and page chrome -------------------------------------------------------------

function showConnection(status) {
  showConnectionBadge(status);
  if (status === "open") page.rejoining = Boolean(socket.token);
}

function setupShare() {
  const link = `${location.origin}/rooms/${encodeURIComponent(roomId)}`;
  $("#room-id").textContent = roomId;
  const input = $("#share-link");
  input.value = link;
  $("#copy-link").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(link);
    } catch {
      input.select();
      document.execCommand("copy"); // plain http pages have no clipboard API
    }
    $("#copy-link").textContent = "Copied!";
    setTimeout(() => { $("#copy-link").textContent = "Copy link"; }, 1500);
  });
}

async function main() {
  setPhase("lobby");
  setupShare();
  loadBots().then(() => { if (page.room) renderRoom(); });
  $("#connection").before(muteButton());
  $("#stop-banner").hidden = true;
  $("#drop-here").addEventListener("click", () => socket.send({ type: "drop", ...hand.pose }));
  $("#discard").addEventListener("click", () => {
    if (socket.send({ type: "discard" })) page.discardAsked = true;
  });
  $("#turn-left").addEventListener("click", () => hand.rotateBy(15));
  $("#turn-right").addEventListener("click", () => hand.rotateBy(-15));
  $("#place-card").addEventListener("click", () => {
    if (!hand.shown()) hand.moveBy(0, 0); // the next card shows where the last one was
    else hand.place();
  });
  window.addEventListener("resize", () => hideRefused());
  try {
    // Both games' ships (their keys never clash) and the Stellar Conflict races.
    const [lightspeed, stellar, races] = await Promise.all([
      loadCatalog("lightspeed"), loadCatalog("stellar"), fetchJSON("/api/games/stellar/races"),
    ]);
    page.ships = { ...lightspeed, ...stellar };
    page.races = races;
  } catch (error) {
    toast(`cannot load the ship catalog: ${error.message}`);
  }
  socket.connect();
}

main();
