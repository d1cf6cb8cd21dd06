// The room of the laser games (Light Speed, Stellar Conflict): Stellar Conflict's fleet
// builder, the fast round (or the deployment and its countdown) on a live table, "stop!"
// or "time!", the battle animation and the scores. Everything arrives over the room's
// websocket (docs/protocol.md); this module turns messages into what the player sees. The
// seats, the lobby link and the connection are the shell's (shell/room.js).

import { absence } from "../../shell/absence.js";
import { playerName, t } from "../../shell/i18n.js";
import { botBadge } from "../../shell/botseats.js";
import "./sheet.js";
import { $, clear, el, fetchJSON, setPhase } from "../../shell/dom.js";
import { colourOf } from "../../shell/colours.js";
import { toast } from "../../shell/notices.js";
import { RoomClient } from "../../shell/room.js";
import { describeLevel } from "../../shell/seats.js";
import { showMatchEnd } from "../../shell/endcard.js";
import { sounds } from "../../shell/sounds.js";
import { loadCatalog } from "./cards.js";
import { CARD_SIZE } from "./geometry.js";
import { TableView } from "./table.js";
import { Hand, OtherHands, turnedWords } from "./hand.js";
import { BattlePlayer } from "./battle.js";
import { showScores } from "./scores.js";
import { FleetBuilder } from "./fleet.js";
import { Inspector, inspectorPanel } from "./inspector.js";
import { buildRoomLayout } from "./room_layout.js";
import { TableClocks } from "./room_clocks.js";

// Where each seat's first card waits, near its own side of the table.
// As fractions of the table's width and height, by seat: the near side, the far side, the
// left, the right (the server puts a bot's card there too: HOME_FRACTIONS in _realtime.py).
const HOME_FRACTIONS = [[0, -0.35], [0, 0.35], [-0.4, 0], [0.4, 0]];

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
  match: null, // the last `state` message
  players: [], // player names in seat order
  battle: null, // the BattlePlayer of the battle on show
  battleId: null, // its match id
  battleMessage: null, // the `battle` message it plays
  stopTimer: null,
  stopHeld: null, // {ship, name} of our card when the cards froze
  discardAsked: false, // we pressed Discard ourselves
  countdownEnd: null, // performance.now() when the deployment countdown runs out
  countdownTimer: null,
  frozenHolders: null, // players who held a card when the cards froze
  races: {}, // Stellar Conflict races: {race: {name, ships}}
  refusedTimer: null,
  runupEnd: null, // performance.now() when the 3-2-1 before the round ends
  runupTimer: null,
};
/** The team colour of a player (by seat order). */
function colourOfPlayer(player) {
  const index = page.players.indexOf(player);
  return colourOf(index < 0 ? 0 : index);
}
// -- who we are and the room ---------------------------------------------------------------

function onRoom(message) {
  $("#game-name").textContent = room.title;
  view.unit = room.unit;
  if (!page.match || message.phase === "lobby") {
    page.players = message.seats.map((s) => s.name || t("seat {seat}", { seat: s.seat + 1 }));
  }
  if (message.phase === "lobby") {
    page.match = null;
    builder.reset();
    $("#fleet-panel").hidden = true;
    clocks.hideCountdown();
    endBattle();
    hand.setCard(null);
    others.clear();
    setPhase("lobby");
  }
  room.renderRoom();
}

/** The side list of players: cards left, card in hand, decision after stop. */
function renderPlayers() {
  const list = clear($("#players"));
  const statuses = page.match?.players || {};
  const seats = room.room?.seats || [];
  page.players.forEach((player, index) => {
    const s = statuses[player];
    const seat = seats[index];
    const bits = [];
    if (s) {
      if (s.race) bits.push(el("span", { class: "race", text: page.races[s.race]?.name || s.race }));
      if (page.match.phase === "preparation") {
        bits.push(el("span", { class: "fleet-state", text: s.fleet_chosen ? t("fleet chosen") : t("choosing a fleet…") }));
      } else if (s.cards_left !== null && s.cards_left !== undefined) { // none before a deck is dealt
        bits.push(el("span", { class: "cards-left", text: t("{n} in deck", { n: s.cards_left }) }));
      }
      if (s.holding) bits.push(el("span", { class: "holding", text: t("holding {ship}", { ship: page.ships[s.holding]?.name || s.holding }) }));
      if (s.discarded) bits.push(el("span", { class: "discarded", text: t("discarded {ship}", { ship: page.ships[s.discarded]?.name || s.discarded }) }));
      else if (page.match.phase === "stop" && s.decided && page.frozenHolders?.has(player)) bits.push(el("span", { class: "decided", text: t("dropped") }));
    }
    const level = botBadge(seat, player);
    if (level) bits.push(el("span", { class: "bot", text: level, title: describeLevel(room.room.ruleset, seat.level) }));
    if (seat && seat.kind === "human" && !seat.connected) bits.push(absence(false));
    list.append(el("li", {
      class: `player${player === room.me.player ? " me" : ""}`,
      dataset: { player, cardsLeft: s?.cards_left ?? "", holding: s?.holding ? "yes" : "no",
        fleet: s?.fleet_chosen === undefined ? "" : s.fleet_chosen ? "chosen" : "choosing" },
      style: `--team: ${colourOf(index)}`,
    }, el("span", { class: "swatch" }), el("span", { class: "player-name", text: playerName(player) }), ...bits));
  });
}

/**
 * Stellar Conflict's lobby: a seated player picks his own race there (the room's creator
 * only made the first choice); the races other seats play are not offered.
 */
function renderRacePicker() {
  const panel = $("#seat-panel");
  const info = room.room;
  panel.querySelector("#race-picker")?.remove();
  if (info?.ruleset !== "stellar" || info.phase !== "lobby" || room.me.seat === null || !Object.keys(page.races).length) return;
  const order = Object.keys(page.races);
  const races = info.options.races || order.slice(0, info.options.seats);
  const mine = races[room.me.seat];
  const select = el("select", { id: "my-race", "aria-label": t("your race"),
    on: { change: (e) => room.socket.send({ type: "race", race: e.target.value }) } },
  ...order.map((race) => {
    const seat = races.indexOf(race);
    const taken = seat >= 0 && seat !== room.me.seat;
    return el("option", { value: race, selected: race === mine, disabled: taken,
      text: taken ? t("{race} (seat {seat})", { race: page.races[race].name, seat: seat + 1 }) : page.races[race].name });
  }));
  panel.append(el("p", { id: "race-picker", class: "race-picker" },
    el("label", { for: "my-race", text: t("Your race: ") }), select,
    el("span", { class: "muted", text: t(" each race's fleet is its own; every seat plays a different one") })));
}

// -- the fast round -------------------------------------------------------------------------

function onState(message) {
  const wasPlacing = PLACING.has(page.match?.phase);
  const wasChoosing = page.match?.phase === "preparation";
  page.match = message;
  page.players = Object.keys(message.players);
  if (message.phase !== "over" && page.battle) endBattle();
  const begins = PLACING.has(message.phase) && !wasPlacing;
  if (begins) {
    const { x, y } = homePose(room.me.seat ?? 0, message.table_size_mm);
    hand.setPose({ x, y, rotation: 0 });
    page.stopHeld = null;
    page.discardAsked = false;
    $("#stop-note").hidden = true;
  }
  if (message.phase === "stop" && !page.frozenHolders) {
    page.frozenHolders = new Set(page.players.filter((p) => message.players[p].holding || message.players[p].discarded));
  } else if (message.phase !== "stop" && message.phase !== "over") {
    page.frozenHolders = null;
  }
  clocks.showRunup(message.runup);
  if (message.countdown) clocks.startCountdown(message.countdown.seconds_left, message.runup?.seconds_left ?? 0);
  else clocks.hideCountdown();
  renderState();
  // The fleet taken from far down a phone's builder: the page goes back up to the table.
  if (begins && wasChoosing) window.scrollTo(0, 0);
  // Zoomed once the table is laid out for the round: after a fleet builder (Stellar
  // Conflict), the table had no size on screen until renderState showed it.
  if (begins && hand.touchy && room.me.role === "player") zoomForTouch(hand.pose.x, hand.pose.y);
}

function renderState() {
  const match = page.match;
  const size = match.table_size_mm || null;
  if (!view.tableSize || !size || view.tableSize[0] !== size[0] || view.tableSize[1] !== size[1]) {
    view.setTable(size);
  }
  if (!page.battle) view.showCards(match.table, page.ships, colourOfPlayer);
  const mine = room.me.role === "player" ? match.hand : null;
  if (mine !== hand.ship) hand.busy = false; // a new card came to hand
  if (match.phase === "over") {
    hand.setCard(null);
  } else {
    hand.setCard(mine, page.ships[mine], colourOf(room.me.seat ?? 0));
  }
  // Hands that are now empty (placed or discarded) disappear; after stop the others'
  // cards stay frozen where they were.
  others.keep(page.players.filter((p) => match.players[p]?.holding && p !== room.me.player && match.phase !== "over"));
  showDrawnHands(match);
  const panel = $("#fleet-panel");
  panel.hidden = match.phase !== "preparation";
  if (match.phase === "preparation") {
    setPhase("preparation");
    clocks.hideStop();
    builder.render(match, { ships: page.ships, colour: colourOf(room.me.seat ?? 0), matchId: room.room?.match_id });
    const waiting = page.players.filter((p) => !match.players[p].fleet_chosen);
    $("#status").textContent = room.me.role === "player" && !match.fleet
      ? t("Choose your fleet: up to {credits} credits.", { credits: match.credits })
      : t("Waiting for {names} to choose a fleet.", { names: waiting.join(", ") });
  } else if (PLACING.has(match.phase)) {
    setPhase(match.phase);
    hand.freeze(false);
    clocks.hideStop();
    const word = match.phase === "fast" ? t("the fast round") : t("the deployment");
    $("#status").textContent = mine
      ? hand.touchy
        ? t("Place your {ship}: tap the table where it goes (or drag it), turn it (handle or a second finger), then tap it again.", { ship: page.ships[mine]?.name || mine })
        : t("Place your {ship}: move it, turn it, then click to put it down.", { ship: page.ships[mine]?.name || mine })
      : room.me.role === "player" ? t("All your cards are on the table.") : t("Watching {what}.", { what: word });
  } else if (match.phase === "stop") {
    setPhase("stop");
    hand.freeze(true);
    clocks.noteHeldAtStop();
    clocks.showStop(match.stop?.by ?? match.stopped_by, match.stop?.seconds_left ?? match.stop?.seconds ?? 0);
  } else {
    clocks.hideStop();
    $("#status").textContent = t("The cards are down: the battle begins.");
  }
  clocks.tellDiscard(match.players?.[room.me.player]?.discarded ?? null);
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
  const holding = room.me.role === "player" && Boolean(hand.ship) && PLACING.has(page.match?.phase);
  bar.hidden = !holding;
  if (!holding) return;
  const name = page.ships[hand.ship]?.name || hand.ship;
  const reason = hand.shown() ? hand.blockedBy() : null;
  const info = $("#hand-info");
  const turned = turnedWords(hand.pose.rotation);
  const why = reason ? t("can't place: {reason}", { reason }) : "";
  // The ship and its turn on two lines (on one, a phone cut them: "turned 30° right…"); on
  // one when why it cannot be placed takes the lines under them.
  const lines = why ? [`${turned} · ${name}`] : [name, turned];
  if (info.dataset.text !== lines.join("\n") + why) {
    info.dataset.text = lines.join("\n") + why;
    info.replaceChildren(...lines.map((text, i) => el("span", { class: i ? "turned" : "", text })), why ? el("span", { class: "why", text: why }) : "");
  }
  info.classList.toggle("blocked", Boolean(reason));
  $("#place-card").disabled = hand.busy;
}
/**
 * The others' cards in hand are seen from the moment they are drawn: until their first
 * pose comes, each waits on its player's side of the table.
 */
function showDrawnHands(match) {
  if (!PLACING.has(match.phase)) return;
  page.players.forEach((player, seat) => {
    const ship = match.players[player]?.holding;
    if (!ship || player === room.me.player || others.groups.get(player)?.dataset.ship === ship) return;
    const def = page.ships[ship] || { name: ship, speed: "?", health: 0, lasers: [], shields: [] };
    others.show(player, { ...homePose(seat, match.table_size_mm), ship }, def, colourOfPlayer(player));
  });
}
function onPoses(message) {
  hand?.beat(message.next);
  for (const [player, pose] of Object.entries(message.poses)) {
    if (player === room.me.player) continue;
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
  if (message.player === room.me.player) {
    hand.landed();
    hideRefused();
  }
  if (message.players && page.match) {
    // A card down mid-round: the players' statuses come with it instead of a new state.
    page.match.players = message.players;
    page.match.hand = room.me.role === "player" ? message.players[room.me.player]?.holding ?? null : null;
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
  // The toast sits just above the card in hand; in the 3-2-1, above the count's figure, off
  // the words under it (a phone's card lies under the count's touch hint).
  const wrap = $("#table-wrap").getBoundingClientRect();
  const count = $("#runup:not([hidden]) .runup-count")?.getBoundingClientRect();
  const p = count ? { x: count.left + count.width / 2, y: count.top } : view.toClient(hand.pose.x, hand.pose.y + 60);
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


// -- stop! ----------------------------------------------------------------------------------

function onStop(message) {
  setPhase("stop");
  hand.freeze(true);
  clocks.hideCountdown();
  clocks.noteHeldAtStop();
  clocks.showStop(message.by, message.seconds, true);
  renderHandBar();
  // A keyboard player at the table goes straight to the choice the banner offers.
  const focus = document.activeElement;
  if (!$("#stop-actions").hidden && (focus === $("#table") || focus?.closest?.("#hand-bar"))) $("#drop-here").focus();
}
// -- the battle -----------------------------------------------------------------------------

function onBattle(message) {
  if (page.battle && page.battleId === message.match_id) return; // already on show
  endBattle();
  clocks.hideStop();
  clocks.hideCountdown();
  hideRefused();
  $("#fleet-panel").hidden = true;
  hand.setCard(null);
  others.clear();
  setPhase("battle");
  const table = message.table;
  if (page.stopHeld && !table.cards.some((c) => c.id === `${room.me.player}-${page.stopHeld.ship}`)) {
    clocks.tellDiscard(page.stopHeld.ship);
  }
  page.players = table.players;
  const size = table.table ? [table.table.width, table.table.height] : null;
  view.setTable(size, size ? [] : table.cards);
  view.fit(); // the battle crosses the whole table
  view.showCards(table.cards, { ...page.ships, ...(table.ships || {}) }, colourOfPlayer, table.card_size || CARD_SIZE);
  $("#status").textContent = table.ruleset === "stellar"
    ? t("The battle: ships fire by initiative, lowest first.")
    : t("The battle: ships fire by speed, lowest first.");
  $("#score-panel").hidden = true;
  page.battleId = message.match_id;
  page.battleMessage = message;
  page.battle = new BattlePlayer(view, {
    table, result: message.result, ships: page.ships, colourOf: colourOfPlayer,
    controls: $("#battle-controls"),
    log: $("#battle-log"),
    onDone: () => {
      sawBattle(message.match_id);
      showResult(message);
    },
  });
  $("#battle-controls").hidden = false;
  page.battle.start();
  // This tab saw the battle to its end already (watched, or jumped over with End): after a
  // reload or a change of language it shows where the battle ended, not the fight again.
  if (battleSeen(message.match_id)) page.battle.skip();
}

/** The key under which a tab keeps the last battle it saw to the end in this room. */
function seenKey() {
  return `spacetable.battle-seen.${room.roomId}`;
}

function sawBattle(matchId) {
  try { sessionStorage.setItem(seenKey(), matchId); } catch { /* storage off: it plays again */ }
}

function battleSeen(matchId) {
  try { return sessionStorage.getItem(seenKey()) === matchId; } catch { return false; }
}

function showResult(message) {
  // The scores are this game's part of the end card every room shows (shell/endcard.js);
  // the battle's controls go with the battle.
  const scores = showScores(el("div"), { table: message.table, result: message.result, ships: page.ships,
    colourOf: colourOfPlayer, me: room.me.role === "player" ? room.me.player : null, ending: false });
  $("#battle-controls").hidden = true;
  showMatchEnd(room, $("#score-panel"), { result: message.result, matchId: message.match_id,
    how: message.result.winner ? t("The battle was fought to the end: the highest score wins.")
      : t("The battle was fought to the end: the scores are tied."),
    details: [...scores.childNodes] });
}

function endBattle() {
  page.battle?.destroy();
  page.battle = null;
  page.battleId = null;
  page.battleMessage = null;
  $("#battle-controls").hidden = true;
  $("#score-panel").hidden = true;
}
// -- the room ---------------------------------------------------------------------------------

class LaserRoom extends RoomClient {
  /** ctx: {roomId, params, game, unit} (game: its GET /api/games entry); `fleets`: whether
   * each player buys a fleet before the deployment (Stellar Conflict). */
  constructor(ctx, { fleets = false } = {}) {
    super(ctx);
    this.title = ctx.game.title;
    this.unit = ctx.unit;
    this.fleets = fleets;
  }

  readyStarts() {
    return this.fleets ? t("everyone picks a fleet in secret, then a 3-2-1 and everyone deploys at once") : null;
  }

  handlers() {
    return { ...super.handlers(), state: onState, poses: onPoses, placed: onPlaced, stop: onStop, battle: onBattle };
  }

  onWelcome(message) {
    super.onWelcome(message);
    if (this.room) this.renderRoom();
    if (page.match) renderState();
    // A page loaded after the battle shows its end at once, before the seat is taken back:
    // the end card again, now with what a seated player has (Rematch).
    if (page.battle?.finished && page.battleMessage) showResult(page.battleMessage);
  }

  onRoom(message) {
    super.onRoom(message);
    onRoom(message);
  }

  renderRoom() {
    super.renderRoom();
    renderRacePicker();
    renderPlayers();
  }

  onRefused(message) {
    onRefused(message);
  }

  colour(player) {
    return colourOfPlayer(player);
  }

  /** Where the match's end shows, whether the battle or the players ended it. */
  get endPanel() {
    return $("#score-panel");
  }

  onError(message) {
    hand.busy = false;
    super.onError(message);
  }
}

// The page's parts, made when the room starts (startLaserRoom).
let room = null;
let view = null;
let others = null;
let hand = null;
let builder = null;
let clocks = null;

/**
 * Play the laser-game room `ctx.roomId`. ctx {roomId, params, game, unit}: the page's
 * query, the game's GET /api/games entry (its key names its ship catalog), what its
 * asteroids hold ("rocks", "cubes"); `races`: whether the game has races to fetch.
 */
export async function startLaserRoom(ctx, { races = false } = {}) {
  buildRoomLayout();
  setPhase("lobby");
  room = new LaserRoom(ctx, { fleets: races });
  view = new TableView($("#table"));
  others = new OtherHands(view);
  hand = new Hand(view, {
    onPose: (pose) => room.socket.send({ type: "pose", ...pose }),
    onPlace: (pose) => {
      if (clocks.runupLeft() > 0) { // the 3-2-1 runs: no card lands before it ends
        onRefused({ action: "place", reason: t("{what} starts in {n} s: wait for the count.",
          { what: clocks.runupWord(), n: Math.ceil(clocks.runupLeft()) }) });
        return;
      }
      if (room.socket.send({ type: "place", ...pose })) hand.busy = true;
    },
    obstacles: () => (page.match?.table || []).map((c) => ({ ...c, size: c.size || CARD_SIZE })),
    onChange: () => renderHandBar(),
  });
  clocks = new TableClocks(page, hand, () => room.me);
  view.enableGestures({ canPan: (e) => !hand.owns(e), wheelZooms: () => !hand.movable(), arrowsPan: () => !hand.movable() });
  // Hover a card to see it large (a click keeps it), unless a card in hand is being placed.
  new Inspector(view, inspectorPanel(), {
    cardOf: (id) => page.battle?.byId[id] ?? page.match?.table.find((c) => c.id === id),
    ships: () => page.ships, colourOf: colourOfPlayer, ruleset: () => room.room?.ruleset,
    enabled: () => !hand.ship,
  });
  $("#table-wrap").append(view.zoomControls());
  builder = new FleetBuilder($("#fleet-panel"), {
    races: () => page.races,
    onSend: (ships) => room.socket.send({ type: "fleet", ships }),
  });
  $("#stop-banner").hidden = true;
  $("#drop-here").addEventListener("click", () => room.socket.send({ type: "drop", ...hand.pose }));
  $("#discard").addEventListener("click", () => {
    if (room.socket.send({ type: "discard" })) page.discardAsked = true;
  });
  hand.dragFrom($("#hand-info")); // a finger drags the card from the bar onto the table
  $("#turn-left").addEventListener("click", () => hand.rotateBy(15));
  $("#turn-right").addEventListener("click", () => hand.rotateBy(-15));
  $("#place-card").addEventListener("click", () => {
    if (!hand.shown()) hand.moveBy(0, 0); // the next card shows where the last one was
    else hand.place();
  });
  window.addEventListener("resize", () => hideRefused());
  try {
    [page.ships, page.races] = await Promise.all([
      loadCatalog(ctx.game.key), races ? fetchJSON(`/api/games/${ctx.game.key}/races`) : {},
    ]);
  } catch (error) {
    toast(t("cannot load the ship catalog: {error}", { error: error.message }));
  }
  room.connect();
  return room;
}
