// The hex fleet room (games/hexfleet/index.js opens it in the room page):
// the seats, then the battle chit by chit — the board with the active ship's moves and
// targets, the cup and the chit just drawn, whose move it is, the action bar, the cards
// turned, the battle in words, the ships off the board — and the end with a rematch and
// the replay. Online, each player acts for his own ships; in hot seat (`?hotseat=Red,Blue`)
// this page holds both seats through two sockets and acts for whichever side's ship is
// activated. Everything arrives over the room's websocket (docs/protocol.md).

import "./sheet.js";
import { $, clear, el, fetchJSON, setPhase } from "../../shell/dom.js";
import { colourOf } from "../../shell/colours.js";
import { playerName, t, tn } from "../../shell/i18n.js";
import { said } from "../../shell/phrase.js";
import { yourTurn } from "../../shell/notify.js";
import { botBadge } from "../../shell/botseats.js";
import { endTitle } from "../../shell/endcard.js";
import { BoardTurn } from "../../shell/boardturn.js";
import { sounds } from "../../shell/sounds.js";
import { HexBoard } from "./board.js";
import { HexControls } from "./controls.js";
import { CardTray } from "./reveal.js";
import { ShipLogs } from "./shiplog.js";
import { blankFirstText, latestBlankRun } from "./blankfirst.js";
import { openSecondSeat } from "./hotseat.js";
import { HELP, deckWords, endReason, percentText } from "./room_words.js";
import { HexActing, PHONE } from "./acting.js";
import { dockActionBar, legendPanel, offBoardPanel, showMoveToConfirm } from "./panels.js";

/** The smallest hex (screen px across) a phone frames the battle at: a fingertip's width. */
const FINGER_HEX_PX = 40;

export class HexRoom extends HexActing {
  /** Play the room `roomId` (ctx {roomId, params}: the page's query; `hotseat=Red,Blue`
   * holds both seats at this screen). */
  constructor(ctx) {
    super(ctx);
    this.target = null; // the ship aimed at
    this.pending = null; // a move shown, waiting for its confirm (touch)
    this.placeAt = null; // where a returning ship goes, waiting for its facing
    this.logShown = 0; // log lines shown
    this.cardsShown = Promise.resolve(); // the latest action's cards, face up
    const hotseat = this.params.get("hotseat");
    this.hotseat = hotseat ? hotseat.split(",").map((n) => n.trim()).filter(Boolean).slice(0, 2) : null;
    this.second = null; // hot seat: the second seat's socket and who it is
    this.scenarios = null; // the ready scenarios' fleets, to say in the lobby who flies what
    this.buildPage();
    fetchJSON("/api/games/hexfleet/scenarios").then((found) => {
      this.scenarios = found.scenarios;
      if (this.room && !this.state) this.sizeBoard(this.room.options);
      if (this.room?.phase === "lobby") this.renderRoom();
    }).catch(() => {});
    this.connect();
  }

  buildPage() {
    this.banner = el("div", { id: "hex-turn", class: "hex-turn", "aria-live": "polite" });
    // A turn the blank ended before anyone acted: said, and kept until the activation after next.
    this.blankNote = el("p", { id: "hex-blank-first", class: "hex-blank-first", role: "status", hidden: true });
    const fresh = this.buildFrame({ name: t("Hex fleet"), bodyClass: "hex-room", help: HELP(), helpOpen: !PHONE.matches,
      tableAttrs: { "aria-label": t("The hex board"), "aria-describedby": "hex-keys" }, statusClass: "hex-status", before: [this.banner, this.blankNote] });
    // The zoom buttons sit over the board's bottom edge, where your own fleet is: room for them.
    // A wide screen's whole board keeps a strip under the map, which leaves the band on its
    // right wide enough for a salvo's cards (reveal.js); a phone's map takes its whole box
    // (its zoom row is under the box, its cards under the board).
    this.board = new HexBoard(fresh, { width: 18, height: 12, colourOf: (owner) => this.colour(owner),
      bottomRoomPx: PHONE.matches ? 0 : 56 });
    this.board.onHex((hex) => this.clickHex(hex));
    this.board.onShip((ship) => this.clickShip(ship));
    this.board.onFacing((facing) => this.turnTo(facing));
    this.board.onHover((hex) => this.hover(hex));
    fresh.addEventListener("keydown", (e) => this.key(e));
    // Ctrl+Z (Cmd+Z) anywhere on the page but a text field takes back the last move.
    document.addEventListener("keydown", (e) => {
      if ((e.ctrlKey || e.metaKey) && !e.shiftKey && e.key.toLowerCase() === "z" && !e.target.closest?.("input, textarea, select")) this.undo(e);
    });
    // Your side at the bottom: the board turns for a player whose fleet starts elsewhere.
    this.boardTurn = new BoardTurn(this.board, `hexfleet.room.${this.roomId}`, { onChange: () => this.refresh() });
    const zoom = this.board.zoomControls();
    zoom.append(this.boardTurn.button);
    $("#table-wrap").append(zoom,
      el("p", { id: "hex-keys", class: "visually-hidden", text: t("With the board focused and your ship activated: the up arrow moves it one hex ahead, the left and right arrows turn it.") }));
    this.cupPanel = el("section", { id: "cup-panel", class: "panel cup-panel", hidden: true, "aria-label": t("the cup") });
    this.controls = new HexControls(el("section", { id: "hex-controls", class: "panel hex-controls", dataset: { orders: "" } }), { // the manners follow it (shell/manners.js)
      send: (action) => this.act(action),
      turned: () => this.board.turnDeg,
      onCancelAim: () => { this.target = null; this.aiming = false; this.refresh(); },
      onAim: () => {
        this.aiming = true;
        this.pending = null;
        this.refresh();
        // On a phone the board is above the action bar: the next tap is on a ship there.
        if (PHONE.matches) $("#table-wrap").scrollIntoView({ block: "nearest" });
        // On a laptop the targets are listed under the buttons in the side column: in sight
        // there, with the hint under them (they were below the fold at 1366 x 800).
        else for (const part of ["#hex-controls .target-list", "#action-message"]) $(part)?.scrollIntoView({ block: "nearest" });
      },
      onTarget: (id) => this.pickTarget(id),
    });
    // A tapped hex's move waits here, over the board, for its confirm (a finger cannot hover).
    this.moveBar = el("div", { class: "pending-move", role: "group", "aria-label": t("the move to confirm"), hidden: true });
    $("#table-wrap").append(this.moveBar);
    this.offBoard = offBoardPanel();
    // The cards an action turns show large at the board's bottom edge, with the salvo drawn
    // on the board (reveal.js, as the replay shows them): where the player looks.
    this.tray = new CardTray($("#table-wrap"), this.board, { cardsId: "hex-cards", beside: true });
    this.tray.hide();
    new ResizeObserver(() => { if (this.followCards) this.cardsToView(); }).observe(this.tray.section);
    this.legend = legendPanel();
    this.logPanel = el("div", { id: "log-panel", hidden: true });
    this.shipLogs = new ShipLogs(this.logPanel);
    $("#players").after(this.endPanel, this.controls.container, this.cupPanel, this.offBoard, this.legend, this.logPanel);
    dockActionBar(this.controls.container);
  }

  /** The players this page acts for: ours, and in hot seat the second seat's. */
  mine() {
    const names = [];
    if (this.me.role === "player") names.push(this.me.player);
    if (this.second?.me?.role === "player") names.push(this.second.me.player);
    return names;
  }

  handlers() {
    return { ...super.handlers(), state: this.onState, acted: this.onActed, result: this.onResult };
  }

  onWelcome(message) {
    super.onWelcome(message);
    if (message.role === "player" && this.hotseat && !this.second) openSecondSeat(this);
  }

  identityName() {
    return this.hotseat ? t("{first} and {second}", { first: this.me.player, second: this.hotseat[1] }) : playerName(this.me.player);
  }

  wantsSeat() {
    return super.wantsSeat() || Boolean(this.hotseat);
  }

  wantedSeat() {
    return this.hotseat ? { name: this.hotseat[0], seat: 0 } : super.wantedSeat();
  }

  /** The board of the room's options before any state says it: its own size, or its
   * scenario's (the waiting room and a finished room show the board the battle is on). */
  sizeBoard(options) {
    const size = options?.board || (this.scenarios?.[options?.scenario]?.board
      && [this.scenarios[options.scenario].board.width, this.scenarios[options.scenario].board.height]);
    if (size && (size[0] !== this.board.width || size[1] !== this.board.height)) this.board.setSize(size[0], size[1]);
  }

  onRoom(message) {
    const seated = this.players().join("\n"); // the seats colour the ships
    super.onRoom(message);
    if (!this.state) this.sizeBoard(message.options);
    if (message.phase === "lobby") {
      this.state = null;
      if (this.ended) this.newBattle();
      this.controls.hide();
      for (const panel of [this.cupPanel, this.offBoard, this.logPanel]) panel.hidden = true;
      this.tray.hide();
      setPhase("lobby");
      this.board.render({ ships: [] });
      this.board.highlightMoves([]);
      this.banner.textContent = "";
    } else if (this.state && this.players().join("\n") !== seated) this.refresh(); // (another device's state came first)
    this.renderRoom();
  }

  /**
   * The seat panel says each seat's ships, under the seats: the list comes once the
   * scenarios are loaded, and pushes nothing the player may be about to press ("Ready").
   */
  decorateSeats(drawn) {
    drawn.querySelector("ul.seats")?.after(this.fleetsList(this.room));
  }

  waitingText() {
    return this.hotseat ? t("Waiting for every seat to fill and every player to be ready ({first} and {second} play at this screen).",
      { first: this.hotseat[0], second: this.hotseat[1] ?? "" }) : super.waitingText();
  }

  /** Each seat's ships, in words: "Seat 1: Benellyn (heavy)". */
  fleetsList(room) {
    const { scenario, fleets, seats } = room.options;
    const sides = scenario === "custom" ? fleets : this.scenarios?.[scenario]?.sides;
    const list = el("ul", { class: "hex-sides", id: "hex-fleets" });
    if (!sides?.length) {
      // The scenarios are not read yet: a line a seat already, so that the panel (centred
      // over the board) keeps its height, and "Ready" its place, when they come.
      for (let seat = 0; seat < seats; seat += 1) {
        list.append(el("li", { style: `--team: ${colourOf(seat)}` }, el("b", { text: t("Seat {seat}:", { seat: seat + 1 }) + " " }), "…"));
      }
      return list;
    }
    const classes = { light: t("light"), medium: t("medium"), heavy: t("heavy") };
    const weapons = { light: t("light weapons"), heavy: t("heavy weapons") };
    const words = (s) => `${s.name || classes[s.class] || s.class} (${classes[s.class] || s.class}${s.class === "medium" ? `, ${weapons[s.weapons || "heavy"] || s.weapons}` : ""})`;
    for (let seat = 0; seat < seats; seat += 1) {
      const side = sides[seat] || sides[0].map((s) => ({ ...s, name: `${s.name} ${seat + 1}` }));
      list.append(el("li", { style: `--team: ${colourOf(seat)}` }, el("b", { text: t("Seat {seat}:", { seat: seat + 1 }) + " " }), side.map(words).join(", ")));
    }
    return list;
  }

  // -- the battle ---------------------------------------------------------------------------

  onState(message) {
    if (this.ended && message.phase !== "over") this.newBattle(); // a rematch began
    const activeBefore = this.state?.activation?.ship;
    this.state = message;
    if (message.activation?.ship !== activeBefore) {
      this.target = null;
      this.aiming = false;
      this.pending = null;
      this.placeAt = null;
      this.controls.message("");
    }
    this.showState(message);
  }

  /** Forget the last battle's end, log and cards. */
  newBattle() {
    this.ended = false;
    this.framedFor = null;
    this.result = null;
    this.endPanel.hidden = true;
    this.tray.reset(); // the last battle's cards stop turning
    this.cardsShown = Promise.resolve();
    this.logShown = 0;
    this.blankNote.hidden = true;
    this.shipLogs.reset([]);
  }

  showState(state) {
    const { width, height } = state.board;
    if (width !== this.board.width || height !== this.board.height) this.board.setSize(width, height);
    const over = state.phase === "over";
    setPhase(over ? "over" : "activation");
    document.body.dataset.turn = state.turn;
    document.body.dataset.active = state.activation?.ship ?? "";
    document.body.dataset.logLines = (state.log || []).length;
    document.body.dataset.version = state.version; // the actions applied: tests wait on it
    $("#seat-panel").hidden = true;
    // Your side at the bottom (in hot seat, the board stays as laid out: both sides are at this screen).
    if (this.me.role === "player" && !this.hotseat) this.boardTurn.suggest(this.board.turnFor(this.me.player, state.ships));
    const activeShip = this.activeShip();
    yourTurn(!over && this.isMine(activeShip), t("{ship}: your activation.", { ship: activeShip?.name }));
    // A phone frames both fleets when the battle opens, whatever their size, and then at each
    // of our activations (once an activation: the player may pan away) with the hexes our
    // ship can reach, never so far out that a finger cannot tell one hex from the next (our
    // ship in the middle then).
    const activation = `${state.turn}:${activeShip?.id}`;
    if (PHONE.matches && activation !== this.framedFor && (!this.framedFor || this.isMine(activeShip))) {
      const opening = !this.framedFor;
      this.framedFor = activation;
      const placed = state.ships.filter((s) => s.at && s.status === "table").map((s) => s.at);
      const reach = this.isMine(activeShip) ? (state.reach || []).map((m) => m.at) : [];
      this.board.frameHexes([...placed, ...reach], { focus: activeShip?.at, minHexPx: opening ? 0 : FINGER_HEX_PX });
    }
    this.refresh();
    if (this.glide) this.board.animateMove(this.glide.ship, this.glide.from, this.glide.path);
    this.glide = null;
    this.renderLog(state.log || []);
    if (over && state.result) this.showEnd(state.result);
  }

  activeShip() {
    return this.state?.ships.find((s) => s.id === this.state.activation?.ship) || null;
  }

  isMine(ship) {
    return Boolean(ship) && this.mine().includes(ship.owner);
  }

  /** Redraw the board, the highlights, the action bar and every panel from the state. */
  refresh() {
    const state = this.state;
    if (!state) return;
    const ship = this.activeShip();
    const mine = this.isMine(ship) && state.phase !== "over";
    this.board.render({ ships: state.ships, activation: state.activation });
    this.board.highlightMoves(mine && !state.activation.placing ? state.reach : []);
    this.board.highlightTargets(mine ? state.aim : []);
    this.board.select(this.placeAt ? `${this.placeAt.q},${this.placeAt.r}` : this.target
      ? this.state.ships.find((s) => s.id === this.target)?.at?.join(",") ?? null : null);
    this.board.showPath(this.pending ? this.pending.steps : null, this.pending?.cost, state.activation?.movement);
    const aiming = mine && !state.activation.placing && (this.target || this.aiming) && !state.activation.done.includes("fire");
    this.board.showArc(aiming ? state.range : null);
    this.svg().classList.toggle("placing", Boolean(mine && state.activation?.placing));
    const who = this.whoseMove(ship, mine);
    this.banner.textContent = who.banner;
    this.banner.style.setProperty("--team", ship ? this.colour(ship.owner) : "#8891a8");
    $("#status").textContent = who.status;
    if (mine) {
      const ships = Object.fromEntries(state.ships.map((s) => [s.id, s]));
      this.controls.show({ ship, activation: state.activation, aim: state.aim.map((a) => ({ ...a, name: ships[a.ship]?.name, owner: ships[a.ship]?.owner })), reach: state.reach,
        turn: state.turn, turnLimit: state.turn_limit, target: this.target, placeAt: this.placeAt, who: who.banner });
    } else this.controls.hide();
    this.renderMoveBar(mine ? ship : null);
    this.renderCup();
    this.renderOffBoard();
    this.renderPlayers();
  }

  svg() {
    return this.board.svg;
  }

  /** Whose move it is, in words, for the banner and the status line. */
  whoseMove(ship, mine) {
    const state = this.state;
    if (state.phase === "over") return { banner: t("The battle is over"), status: "" };
    if (!ship) return { banner: t("Turn {turn}", { turn: state.turn }), status: t("Drawing the next chit…") };
    const owner = ship.owner;
    const seat = this.room?.seats.find((s) => s.name === owner);
    const placing = state.activation.placing;
    if (mine) {
      const banner = this.hotseat ? t("{player}: your {ship}", { player: owner, ship: ship.name }) : t("Your move: {ship}", { ship: ship.name });
      return { banner, status: placing
        ? t("Place {ship} on any free hex, then choose its facing.", { ship: ship.name })
        : t("Turn {turn} of {limit}. {ship} is activated: move, raise shields, fire or hail, then End activation.",
          { turn: state.turn, limit: state.turn_limit, ship: ship.name }) };
    }
    const bot = botBadge(seat, owner); // "easy bot" plays as "easy bot": said once
    const who = seat?.kind !== "bot" ? t("waiting for {player}", { player: owner })
      : bot ? t("{player} ({bot}) is thinking", { player: owner, bot }) : t("{player} is thinking", { player: owner });
    return { banner: t("{player}'s {ship}", { player: owner, ship: ship.name }),
      status: t("Turn {turn} of {limit}: {ship} is activated — {who}.", { turn: state.turn, limit: state.turn_limit, ship: ship.name, who }) };
  }

  /** The tapped move over the board: where, its cost, Confirm move and Cancel. */
  renderMoveBar(ship) {
    const pending = ship && this.pending;
    showMoveToConfirm(this.moveBar, this.board, pending && { ...pending, movement: this.state.activation.movement }, {
      confirm: () => this.act({ type: "move", ship: ship.id, steps: pending.steps }),
      cancel: () => { this.pending = null; this.refresh(); },
    });
  }

  /** The cup: the chit just drawn, big, and the chits still in it. */
  renderCup() {
    const state = this.state;
    const ship = this.activeShip();
    const names = Object.fromEntries(state.ships.map((s) => [s.id, s]));
    const chit = ship ? (this.isMine(ship) ? t("{ship} (yours)", { ship: ship.name }) : t("{ship} ({owner})", { ship: ship.name, owner: ship.owner })) : "—";
    clear(this.cupPanel).append(
      el("p", { id: "chit-drawn", class: "chit-drawn", style: ship ? `--team: ${this.colour(ship.owner)}` : null },
        t("Turn {turn} — chit:", { turn: state.turn }) + " ", el("b", { text: chit })),
      el("p", { class: "cup-left", text: tn("In the cup: {n} chit", "In the cup: {n} chits", state.cup.length) }),
      el("ul", { id: "cup-chits", class: "cup-chits" }, state.cup.map((id) => id === "blank"
        ? el("li", { class: "chit blank", title: t("the blank chit ends the turn"), text: t("blank (ends the turn)") })
        : el("li", { class: "chit", style: `--team: ${this.colour(names[id]?.owner)}`, text: names[id]?.name || id }))),
      el("p", { class: "deck-left", text: deckWords(state.deck) }));
    this.cupPanel.hidden = state.phase === "over";
  }

  /** Jumped, gone and wrecked ships, in words. */
  renderOffBoard() {
    const gone = this.state.ships.filter((s) => s.status !== "table");
    const list = clear(this.offBoard.querySelector("ul"));
    for (const ship of gone) {
      const what = ship.status === "jumped" ? t("jumped out — back on turn {turn}", { turn: ship.returns_on })
        : ship.status === "gone" ? t("left the battle") : t("wreck");
      list.append(el("li", { class: `off-ship status-${ship.status}`, style: `--team: ${this.colour(ship.owner)}`, dataset: { ship: ship.id } },
        el("span", { class: "swatch" }), el("b", { text: ship.name }), " " + t("({owner}): {what}", { owner: ship.owner, what })));
    }
    this.offBoard.hidden = !gone.length;
  }

  renderPlayers() {
    const state = this.state;
    const active = this.activeShip();
    this.renderPlayerRows({
      isMe: (player) => this.mine().includes(player),
      you: !this.hotseat,
      rowOf: (player) => {
        const toPlay = active?.owner === player && state?.phase !== "over";
        return { toPlay, mark: toPlay ? el("span", { class: "to-play-mark", text: t("to play") }) : null };
      },
      badgesOf: (player) => {
        if (!state) return [];
        const fleet = state.ships.filter((s) => s.owner === player);
        const fighting = fleet.filter((s) => s.status === "table" || s.status === "jumped").length;
        return [el("span", { class: "fleet-state", text: tn("{fighting}/{n} ship", "{fighting}/{n} ships", fleet.length, { fighting }) }),
          el("span", { class: "strength", text: t("strength left {percent}", { percent: percentText(state.strength?.[player] ?? 1) }) })];
      },
    });
  }

  /**
   * Say the turns that the blank ended before anyone acted, among the log's `fresh` lines (a
   * run up to the turn just before the one on now, or this one when the battle ended); the note
   * stays through the next activation, so a player sees it however fast the bots play.
   */
  noteBlankFirst(fresh) {
    const state = this.state;
    const key = `${state.turn}:${state.activation?.ship ?? ""}`;
    const turns = latestBlankRun(fresh, state.turn - 1);
    if (turns.length) {
      this.blankNote.textContent = blankFirstText(turns);
      this.blankNote.hidden = false;
      this.blankNoteFor = key;
    } else if (!this.blankNote.hidden && key !== this.blankNoteFor) {
      this.blankNote.hidden = true;
    }
  }

  /** The battle in words (every ship's log): the lines not yet shown. */
  renderLog(lines) {
    this.noteBlankFirst(lines.length < this.logShown ? lines : lines.slice(this.logShown));
    this.logPanel.hidden = false;
    this.shipLogs.ships(this.state.ships.map(({ id, name, owner }) => ({ id, name, owner })));
    if (lines.length < this.logShown) this.shipLogs.reset(lines);
    else this.shipLogs.add(lines.slice(this.logShown));
    this.logShown = lines.length;
  }

  /** The cards an action turned flip face up (salvo.js plays their sounds); a wreck blows up.
   * A newer action's cards take over at once (showCards stops the older ones): the cards on
   * screen never fall behind the board; the older ones are in the log. */
  onActed(message) {
    const moved = message.events.find((e) => e.type === "move" && e.path?.length);
    const before = moved && this.state?.ships.find((s) => s.id === moved.ship);
    this.glide = before?.at ? { ship: moved.ship, from: before.at, path: moved.path } : null;
    const turned = message.events.some((e) => ["fire", "shields", "hail"].includes(e.type));
    if (turned) {
      this.cardsShown = this.tray.show(message).catch((e) => console.error(e));
      // On a phone the board may be scrolled away: bring the board and its cards into view,
      // the cards whole above the action bar and the chat's (the page's scroll padding).
      const box = this.tray.wrap.getBoundingClientRect();
      if (box.top < 0 || box.bottom > window.innerHeight) this.tray.wrap.scrollIntoView({ block: "nearest" });
      // The tray grows as the damage cards show: it is followed while they turn.
      const shown = this.cardsShown;
      this.followCards = shown;
      this.cardsToView();
      shown.then(() => { if (this.followCards === shown) this.followCards = null; });
    } else if (moved) this.tray.hide(); // a ship moves on: the last cards make way
    if (message.events.some((e) => e.type === "wrecked")) this.cardsShown.then(() => sounds.explosion());
  }

  /** On a phone, the tray's cards whole above the action bar and the chat's (the page's scroll
   * padding keeps them clear of both). */
  cardsToView() {
    if (PHONE.matches && !this.tray.section.hidden) this.tray.section.scrollIntoView({ block: "nearest" });
  }

  // -- the end --------------------------------------------------------------------------------

  onResult(message) {
    this.result = message;
    this.showEnd(message.result);
    if (!this.state && message.match_id) this.showStoredEnd(message.match_id);
  }

  /** A finished room opened after its end (the room keeps no state then): the battle's
   * last frame from the stored match, the ships as they ended. */
  async showStoredEnd(matchId) {
    let match;
    try {
      match = await fetchJSON(`/api/matches/${encodeURIComponent(matchId)}`);
    } catch {
      return; // not stored (nobody played it): the scenario's board stays
    }
    const last = match.events?.[match.events.length - 1];
    if (this.state || !last?.ships) return;
    this.sizeBoard(match.options);
    this.board.render({ ships: last.ships });
    this.shipLogs.ships(last.ships.map(({ id, name, owner }) => ({ id, name, owner })));
    this.shipLogs.reset(match.events.flatMap((f) => f.log || []));
    this.logPanel.hidden = false;
  }

  /** The end card every room shows (shell/endcard.js): why in the hex fleet's words, and
   * the strength left. */
  showEnd(result) {
    this.ended = true;
    const why = endReason(result.reason, result.winner);
    const strength = Object.entries(result.strength || {}).map(([p, v]) => `${playerName(p)} ${percentText(v)}`).join(", ");
    this.showWinner(result, { how: tn("{why}, after {n} turn.", "{why}, after {n} turns.", result.turns, { why }),
      onRematch: () => this.second?.socket.send({ type: "rematch" }),
      details: [strength ? el("p", { class: "end-strength", text: t("Strength left: {strength}.", { strength }) }) : null] });
    this.controls.hide();
    this.banner.textContent = endTitle(this, result);
    this.moveBar.hidden = true;
  }

  /** Hot seat plays both seats at this screen: the end names the winner. */
  isMyWin(winner) {
    return !this.hotseat && this.mine().includes(winner);
  }

  showRefusal(text) {
    this.controls.message(text);
  }

  /** A refusal in the reader's language: the server says it as a phrase (`says`) too. */
  onRefused(message) {
    super.onRefused(message.says ? { ...message, reason: said(message.says) } : message);
  }
}
