// The Faster Than Light room (games/ftl/index.js opens it in the room page): the seats,
// then turn after turn everyone plots in secret (who has plotted shows, never what), the
// turn plays out on the board with a log of its steps, and the end with a rematch and the
// replay. Everything arrives over the room's websocket (docs/protocol.md).

import "./sheet.js";
import { $, clear, el, reducedMotion, setPhase, showText } from "../../shell/dom.js";
import { countdownBox } from "../../shell/room.js";
import { TurnRoom } from "../../shell/turnroom.js";
import { yourTurn } from "../../shell/notify.js";
import { TICK_MS } from "../../shell/ticks.js";
import { BoardTurn, turnToBottom } from "../../shell/boardturn.js";
import { FtlBoard, HITS_TO_DESTROY } from "./board.js";
import { clearMarks } from "./animate.js";
import { TurnHistory, retell, tellLine } from "./history.js";
import { describeEvent, missilesWords, namesFor, outWords } from "./turns.js";
import { Plotter } from "./plotter.js";
import { pickPieces } from "./picking.js";
import { keepDraft, keptDraft } from "./drafts.js";
import { WhatIf } from "./whatif.js";
import { Ruler } from "./ruler.js";
import { playerName, t, tn } from "../../shell/i18n.js";

/** Animation speeds the log offers. */
const SPEEDS = () => [["1", t("normal")], ["2", t("fast")], ["4", t("faster")], ["8", t("fastest")]];

/** A draft goes to the server this long (ms) after the plot last changed (a drag sends one). */
const DRAFT_DELAY_MS = 150;

/**
 * The banner over the board while it shows a past turn (`turn` null: before `first`, the
 * first turn the page holds), of the `count` turns the match has played.
 */
const HISTORY_WORDS = {
  banner: (turn, count, first = 1) => (turn !== null ? t("Turn {turn} of {count} — history, read only", { turn, count })
    : first > 1 ? t("Before turn {turn} — history, read only", { turn: first })
      : t("The start, before turn 1 — history, read only")),
  back: () => t("Back to the present"),
  backTitle: () => t("show the table as it stands now, and plot"),
};

/** How to play, beside the table. */
const HELP = () => [
  t("Each turn everyone writes one order per piece in secret; then all orders play out at once."),
  t("Turn: drag the ring around your piece (15° steps; R+ is clockwise). Where a piece faces is told the same way: 0° up your screen, 90° right. Sprint: drag the arrow ahead of it (1 to 8 in, half inches)."),
  t("Launch (ships): a missile appears just ahead. Or type R+45, R–45, S2.5 or L."),
  t("A sprint's tape hits only pieces that turned or launched this turn: a missile spends itself for a hit; three hits sink a ship; two ships that meet are both lost."),
  t("With your piece selected, point at (or tap) another piece: its range and the turn that faces it. Measure: drag a tape on the table."),
  t("Last ship on the table wins. Off the table is out."),
];

export class FtlRoom extends TurnRoom {
  /** Play the room `roomId` (ctx {roomId, params}: the page's query). */
  constructor(ctx) {
    super(ctx);
    this.waiting = null; // a `state` that came while a turn plays out
    this.turns = Promise.resolve(); // turns play out one after the other
    this.animating = false; // a turn is playing out
    this.deadline = null; // performance.now() when the plot timer runs out
    this.past = false; // the board shows a past turn (the history): nothing can be plotted
    this.editable = false; // the state lets me plot (when the board shows the present)
    this.buildPage();
    this.connect();
    // A tab left hidden jumps to the present when it comes back: the turn it was playing
    // out ends at once, and the turns that came meanwhile go into the history unplayed.
    document.addEventListener("visibilitychange", () => {
      if (document.hidden && this.animating) this.history.stop();
    });
  }

  buildPage() {
    const fresh = this.buildFrame({ name: "Faster Than Light", bodyClass: "ftl-room", tableAttrs: { "aria-label": t("The table") }, help: HELP() });
    fresh.after(countdownBox(t("Plot")));
    this.board = new FtlBoard(fresh);
    // A click picks one of your pieces by its shape; again at the same spot, the next one there.
    pickPieces(this.board, { allowed: (p) => !this.past && this.plotter.mine().some((m) => m.id === p.id),
      onPick: (id) => this.plotter.select(id) });
    // The handles keep their size on screen as the view zooms and pans.
    fresh.addEventListener("viewchange", () => this.plotter?.render());
    const zoom = this.board.zoomControls({ mine: () => this.plotter.mine() });
    // Your side at the bottom: the board turns for a player whose ship starts elsewhere.
    this.boardTurn = new BoardTurn(this.board, `ftl.room.${this.roomId}`, { onChange: () => this.turned() });
    zoom.append(this.boardTurn.button);
    $("#table-wrap").append(zoom);
    this.historyBanner = el("div", { id: "history-banner", class: "history-banner", role: "status", hidden: true },
      el("span", { id: "history-banner-text" }),
      el("button", { type: "button", id: "back-to-present", title: HISTORY_WORDS.backTitle(),
        on: { click: () => this.history.go(this.history.turns.length) } }, HISTORY_WORDS.back()));
    $("#table-wrap").append(this.historyBanner);
    const panel = el("div", { id: "plot-pieces" });
    this.plotter = new Plotter(this.board, panel, { colourOf: (p) => this.colour(p),
      onChange: () => { this.renderPlotButtons(); this.whatIf?.update(); this.queueDraft(); this.keepDraft(); } });
    this.whatIf = new WhatIf({ board: this.board, plotter: this.plotter, colourOf: (p) => this.colour(p), wrap: $("#table-wrap") });
    this.plotPanel = el("section", { id: "plot-panel", class: "panel", hidden: true, dataset: { orders: "" } }, // the manners follow it (shell/manners.js)
      el("h2", { id: "plot-title", text: t("Your orders") }),
      el("p", { class: "plot-help", text: t("One order per piece: R+45 turns 45° clockwise, R–45 counter-clockwise, S2.5 sprints 2.5 in, L launches a missile.") }),
      panel,
      // Submit, with the plot's state: on a phone a bar along the bottom of the screen, in
      // reach with the board in sight (ftl.css), else in its place here.
      el("div", { id: "plot-bar", class: "plot-bar" },
        el("p", { id: "plot-count", class: "plot-count" }),
        el("div", { class: "plot-buttons" },
          this.plotter.launchButton(), // a phone's only: the ship's row is screens down (ftl.css)
          el("button", { type: "button", id: "submit-plot", on: { click: () => this.submit() } }, t("Submit plot")),
          el("button", { type: "button", id: "unplot", class: "secondary", hidden: true, on: { click: () => this.socket.send({ type: "unplot" }) } }, t("Undo: change my plot")))),
      el("div", { class: "plot-buttons" }, this.whatIf.toggle),
      el("p", { id: "plot-message", class: "plot-message", role: "alert" }));
    this.log = el("ol", { id: "turn-log", class: "turn-log" });
    this.speed = el("select", { id: "turn-speed", "aria-label": t("animation speed"),
      on: { change: () => localStorage.setItem("spacetable.ftl.speed", this.speed.value) } },
    SPEEDS().map(([v, words]) => el("option", { value: v, text: words })));
    this.speed.value = localStorage.getItem("spacetable.ftl.speed") || "1";
    this.logPanel = el("section", { id: "log-panel", class: "panel", hidden: true },
      el("header", { class: "log-header" }, el("h2", { id: "log-title", text: t("The turn") }), this.speed,
        el("button", { type: "button", id: "skip", class: "secondary", hidden: true, on: { click: () => this.history.stop() } }, t("Skip"))),
      this.log);
    const turns = el("div", { id: "turn-history" });
    this.historyPanel = el("section", { id: "history-panel", class: "panel", hidden: true }, el("h2", { text: t("Turns") }), turns);
    this.history = new TurnHistory(turns, this.board, { onStep: (text, event, names) => this.step(text, event, names),
      onStart: (turn) => this.startLog(turn), onShow: (position) => this.onHistory(position),
      onBrowse: (past, position) => this.browse(past, position) });
    // The ruler measures from the piece selected for plotting: never sent to the server.
    this.ruler = new Ruler(this.board, { selected: () => this.plotter.selected });
    zoom.append(this.ruler.button);
    fresh.addEventListener("viewchange", () => this.ruler.render()); // its marks keep their size on screen
    $("#table-wrap").append(this.ruler.readout);
    $("#players").after(this.endPanel, this.plotPanel, this.whatIf.panel, this.logPanel, this.historyPanel);
    this.dockPlotBar();
    this.newMatch();
  }

  /**
   * On a phone the plot's bar is fixed along the bottom of the screen, on the chat's bar:
   * tell the page its height (--plot-bar), which the page keeps free below its content as
   * it does the chat's (--chat-dock); 0 where it stands in the plot panel, or is hidden.
   */
  dockPlotBar() {
    const bar = $("#plot-bar");
    const measure = () => {
      const docked = getComputedStyle(bar).position === "fixed";
      document.documentElement.style.setProperty("--plot-bar", `${docked ? Math.ceil(bar.getBoundingClientRect().height) : 0}px`);
    };
    new ResizeObserver(measure).observe(bar);
    window.matchMedia("(max-width: 820px)").addEventListener("change", measure);
  }

  /** Player names in seat order. */
  players() {
    if (this.state) return Object.keys(this.state.players);
    return (this.room?.seats || []).map((s) => s.name || t("seat {seat}", { seat: s.seat + 1 }));
  }

  handlers() {
    return { ...super.handlers(), state: this.onState, turn: this.onTurn, result: this.onResult };
  }

  canShowState() {
    return !this.animating;
  }

  onRoom(message) {
    super.onRoom(message);
    // The room's table, as its options chose it (FtlRoom), from the lobby on: the match's
    // state says the same once it begins.
    const [w, h] = message.options?.table_size_in || [this.board.table.width, this.board.table.height];
    if (this.board.table.width !== w || this.board.table.height !== h) this.board.setTable({ width: w, height: h });
    if (message.phase === "lobby") {
      this.newMatch();
      this.logPanel.hidden = true;
      this.state = null;
      this.plotPanel.hidden = true;
      this.whatIf.setOn(false);
      this.stopTimer();
      setPhase("lobby");
      this.board.draw([]);
    }
    this.renderRoom();
  }

  // -- the match ----------------------------------------------------------------------------

  onState(message) {
    message.receivedAt = performance.now(); // its plot_seconds_left counts from now
    if (this.animating) this.waiting = message;
    else this.showState(message);
  }

  showState(state) {
    if (state.phase === "plot" && this.result) this.newMatch(); // a rematch began
    this.state = state;
    this.waiting = null;
    const [w, h] = state.table_size_in || [48, 48];
    if (this.board.table.width !== w || this.board.table.height !== h) this.board.setTable({ width: w, height: h });
    const players = this.players();
    if (!this.past) this.board.draw(state.pieces, { players }); // the history keeps the past turn on the board
    const me = this.me.role === "player" ? this.me.player : null;
    const mine = me ? state.players[me] : null;
    const myShip = me ? state.pieces.find((p) => p.kind === "ship" && p.owner === me) : null;
    if (myShip) this.boardTurn.suggest(turnToBottom(myShip.x, -myShip.y));
    const plotting = state.phase === "plot";
    const editable = Boolean(mine?.in_play && plotting && !mine.plotted);
    this.editable = editable;
    yourTurn(editable, t("Turn {turn}: plot your orders.", { turn: state.turn }));
    this.plotPanel.hidden = !(mine?.in_play && plotting);
    this.logPanel.hidden = false;
    const last = state.last_turn || [];
    if (!this.history.turns.length && last.length && this.log.querySelector(".muted")) {
      // We came in after that turn: its account, without the animation.
      this.startLog(last.find((e) => e.type === "turn")?.turn ?? state.turn - 1);
      const names = namesFor(state.pieces, last);
      for (const event of last.filter((e) => e.type !== "turn")) this.step(describeEvent(event, names, this.board.frame), event, names);
    }
    if (mine) this.plotter.show(state, me, editable && !this.past);
    if (editable) this.restoreDraft();
    this.whatIf.show(state, me, Boolean(mine?.in_play && plotting));
    $("#plot-title").textContent = t("Your orders for turn {turn}", { turn: state.turn });
    this.renderPlotButtons();
    if (plotting && state.plot_seconds_left !== null && state.plot_seconds_left !== undefined) this.startTimer(state.plot_seconds_left, state.receivedAt, state.plot_timer_s);
    else this.stopTimer();
    setPhase(plotting ? "plot" : "over");
    document.body.dataset.turn = state.turn;
    const waitingFor = players.filter((p) => state.players[p].in_play && !state.players[p].plotted);
    const turn = state.turn_limit ? t("Turn {turn} of {limit}", { turn: state.turn, limit: state.turn_limit })
      : t("Turn {turn}", { turn: state.turn });
    let status;
    if (!plotting) status = t("The match is over.");
    else if (editable) status = t("{turn}. Plot your orders: drag the ring to turn, drag the arrow to sprint, or type. Then Submit plot.", { turn });
    else if (mine?.plotted) {
      const players = waitingFor.map((p) => playerName(p)).join(", ");
      status = players ? t("{turn}: your plot is in. Waiting for {players}…", { turn, players })
        : t("{turn}: your plot is in. The turn is being played…", { turn });
    } else if (mine) status = t("Your ship is gone: you are watching the others.");
    else status = t("{turn}: the players are plotting in secret. Their orders show once the turn resolves.", { turn });
    $("#status").textContent = status;
    this.renderPlayers();
    this.ruler.render(); // the pieces may have moved
    if (!plotting && state.result) this.showEnd(state.result);
  }

  /** Forget the last match: its end, its turns and the marks of its last turn. */
  newMatch() {
    this.result = null;
    this.endPanel.hidden = true;
    clear(this.log).append(el("li", { class: "muted", text: t("Each turn plays out here, step by step, once every plot is in.") }));
    $("#log-title").textContent = t("The turns");
    this.historyPanel.hidden = true;
    this.history.reset();
    clearMarks(this.board);
  }

  renderPlotButtons() {
    const mine = this.state?.players[this.me.player];
    const submit = $("#submit-plot");
    const plotted = Boolean(mine?.plotted);
    const problem = this.plotter.problem();
    const count = this.plotter.plot().length;
    submit.hidden = plotted;
    submit.disabled = Boolean(problem) || this.past;
    $("#unplot").disabled = this.past;
    submit.textContent = count ? tn("Submit plot ({n} order)", "Submit plot ({n} orders)", count) : t("Submit plot: do nothing");
    // The bar's short word on the plot (a phone shows it beside Submit; the panel says more).
    $("#plot-count").textContent = plotted ? t("Plot sent.") : problem ? t("Cannot submit: fix the order in red.")
      : t("Pieces ordered: {count}/{n}", { count, n: this.plotter.mine().length });
    $("#plot-count").classList.toggle("problem", Boolean(problem) && !plotted);
    $("#unplot").hidden = !plotted;
    $("#plot-message").textContent = this.past ? t("You are looking at a past turn: press Back to the present to plot.")
      : problem ? t("Cannot submit: {problem}", { problem }) : plotted
      ? t("Plot sent. You can take it back until the last plot is in.")
      : this.editable && this.state?.plot_timer_s ? t("When the timer runs out, the orders above are sent as they stand.") : "";
    this.plotPanel.classList.toggle("sent", plotted);
  }

  /** The plot changed: send it as the draft soon (the server plots it if the timer runs out). */
  queueDraft() {
    clearTimeout(this.draftTimer);
    this.draftTimer = setTimeout(() => this.sendDraft(), DRAFT_DELAY_MS);
  }

  /** Send the plot as it stands as this turn's draft, unless it is not one or was sent. */
  sendDraft() {
    if (!this.editable || !this.state || this.plotter.problem()) return;
    const orders = this.plotter.plot();
    const key = JSON.stringify([this.state.turn, orders]);
    if (key === this.draftSent) return;
    this.draftSent = key;
    this.socket.send({ type: "draft", orders });
  }

  /** Where the plot being written belongs: this match, my seat's player, this turn. */
  draftPlace() {
    return { match: this.room?.match_id, player: this.me.player, turn: this.state?.turn };
  }

  /** Keep the plot as it stands in this tab, to survive a reload (drafts.js). */
  keepDraft() {
    if (this.editable && this.state) keepDraft(this.roomId, this.draftPlace(), this.plotter.plot());
  }

  /** Once a turn, the plot kept before a reload of the page comes back (not sent: Submit sends it). */
  restoreDraft() {
    const place = JSON.stringify(this.draftPlace());
    if (this.draftRestored === place) return;
    this.draftRestored = place;
    if (this.plotter.plot().length) return; // the server holds a plot: it comes first
    const kept = keptDraft(this.roomId, this.draftPlace());
    if (kept?.length) this.plotter.restore(kept);
  }

  submit() {
    if (this.plotter.problem() || this.past) return;
    this.socket.send({ type: "plot", orders: this.plotter.plot() });
  }

  renderPlayers() {
    const state = this.state;
    const plotting = Boolean(state && state.phase === "plot" && !this.animating);
    this.renderPlayerRows({
      isMe: (player) => player === this.me.player,
      rowOf: (player) => {
        const s = state?.players[player];
        return { toPlay: Boolean(s?.in_play && !s.plotted && plotting), dataset: { plotted: s ? String(s.plotted) : "" } };
      },
      badgesOf: (player) => {
        const s = state?.players[player];
        // The ship as the board shows it (a turn playing out, or one of the history's).
        const shown = this.board.last?.pieces?.length ? this.board.last.pieces : state?.pieces || [];
        const ship = shown.find((p) => p.id === s?.ship) || state?.pieces.find((p) => p.id === s?.ship);
        const out = () => el("span", { class: "plot-state out", text: outWords(this.history.turns, s.ship) });
        const bits = [];
        if (s && plotting) {
          bits.push(s.in_play ? el("span", { class: `plot-state ${s.plotted ? "plotted" : "plotting"}`, text: s.plotted ? t("plotted") : t("plotting…") })
            : out());
        } else if (s && !s.in_play) bits.push(out());
        if (ship && ship.on_table !== false) {
          bits.push(el("span", { class: "ship-hits", text: t("hits {hits}/{most}", { hits: ship.hits || 0, most: HITS_TO_DESTROY }) }),
            el("span", { class: "ship-missiles", text: missilesWords(ship.missiles ?? 0) }));
        }
        return bits;
      },
    });
  }

  // -- a turn plays out ---------------------------------------------------------------------

  onTurn(message) {
    if (document.hidden) message.missed = true; // nobody watches it play out
    this.queued = (this.queued || 0) + 1;
    this.turns = this.turns.then(() => this.playTurn(message)).finally(() => { this.queued -= 1; });
  }

  async playTurn(message) {
    this.animating = true;
    setPhase("resolving");
    this.stopTimer();
    this.plotPanel.hidden = true;
    this.whatIf.setOn(false); // what was posed goes with the turn
    this.logPanel.hidden = false;
    this.historyPanel.hidden = false;
    this.boardInView();
    $("#skip").hidden = false;
    $("#status").textContent = t("Turn {turn}: every plot is revealed and played out.", { turn: message.turn });
    this.history.players = this.players();
    // A watcher who fell behind catches up: the turns waiting behind this one play fast.
    this.history.speed = this.queued > 1 ? Math.max(8, Number(this.speed.value)) : Number(this.speed.value);
    this.renderPlayers();
    const unseen = message.missed || document.hidden;
    const turn = [message.turn, message.before, message.events];
    if (unseen) this.history.addTurn(...turn, { animate: false });
    if (unseen || !(await this.history.addTurn(...turn))) {
      // Skipped or missed: the whole account, and the board as the turn left it, at once.
      this.startLog(message.turn);
      const names = namesFor(message.before, message.events);
      for (const event of message.events.filter((e) => e.type !== "turn")) this.step(describeEvent(event, names, this.board.frame), event, names);
      this.history.go(this.history.turns.length);
    }
    this.animating = false;
    $("#skip").hidden = true;
    if (this.waiting) this.showState(this.waiting);
    if (this.result) this.showEnd(this.result.result);
  }

  /** A turn plays out on the board: bring it into view (on a phone, the plot panel is far under it). */
  boardInView() {
    const box = $("#table-wrap").getBoundingClientRect();
    if (box.top >= -1 && box.bottom <= innerHeight + 1) return;
    $("#table-wrap").scrollIntoView({ block: box.height <= innerHeight ? "nearest" : "start",
      behavior: reducedMotion() ? "auto" : "smooth" });
  }

  /** The log starts over for turn `turn`. */
  startLog(turn) {
    clear(this.log);
    $("#log-title").textContent = t("Turn {turn}, played out", { turn });
  }

  /** One line of the log: a step of the turn playing out (`names`: the pieces by id, to tell it again turned). */
  step(text, event, names = null) {
    tellLine(this.log, text, event, names, { class: `step step-${event.type}`, dataset: { type: event.type } });
    if (event.type === "launch" || event.type === "hit") this.renderPlayers(); // as the board counts them
    this.log.scrollTop = this.log.scrollHeight;
  }

  /** The board turned: the plot's handles and the log's positions follow the view. */
  turned() {
    this.plotter?.render();
    this.whatIf?.pose.render();
    this.whatIf?.update();
    if (this.log) retell(this.log, this.board.frame);
  }

  /**
   * The board shows the past (`past`: a turn of the history, after `position` turns) or the
   * present. The past is read only: the plot is neither drawn nor editable, and a banner
   * over the board says so, with the way back; the draft waits unchanged.
   */
  browse(past, position) {
    this.past = past;
    document.body.dataset.past = past ? "yes" : "";
    this.historyBanner.hidden = !past;
    if (past) {
      const turn = position > 0 ? this.history.turns[position - 1].turn : null;
      $("#history-banner-text").textContent = HISTORY_WORDS.banner(turn, this.history.lastTurn, this.history.firstTurn);
    }
    const me = this.me.role === "player" ? this.me.player : null;
    if (this.state && me && this.state.players[me]) this.plotter.show(this.state, me, this.editable && !past);
    this.renderPlotButtons();
  }

  /** The history shows the board after `position` turns: the present shows the table as it stands. */
  onHistory(position) {
    const past = position < this.history.turns.length;
    if (!past && this.state && !this.animating) this.board.draw(this.state.pieces, { players: this.players() });
    this.ruler.render();
    this.renderPlayers(); // the cards say what the board shows: missiles left, hits
  }

  // -- the end --------------------------------------------------------------------------------

  onResult(message) {
    this.result = message;
    this.turns = this.turns.then(() => this.showEnd(message.result));
  }

  /** The end card every room shows (shell/endcard.js), saying why in FTL's words. */
  showEnd(result) {
    if (this.animating) return;
    this.showWinner(result, { how: endReason(result) });
    this.plotPanel.hidden = true;
    this.renderPlayers();
  }

  showRefusal(text) {
    $("#plot-message").textContent = text;
  }

  // -- the plot timer --------------------------------------------------------------------------

  /**
   * Count down `secondsLeft` from `since` (performance.now() when the server said it: a
   * state that waited for a turn to play out is that much older). The server holds a
   * turn's timer back while the last one plays out, so the seconds left may exceed the
   * timer (`timer`): it shows the timer, standing still, until they come down to it.
   */
  startTimer(secondsLeft, since = performance.now(), timer = null) {
    this.deadline = since + secondsLeft * 1000;
    this.timerCap = timer ?? Infinity;
    $("#countdown").hidden = false;
    if (this.timerTick) return;
    const tick = () => {
      const left = Math.max(0, Math.min(this.timerCap, (this.deadline - performance.now()) / 1000));
      showText($("#countdown-seconds"), left.toFixed(0));
      $("#countdown").dataset.secondsLeft = left.toFixed(1);
      $("#countdown").classList.toggle("urgent", left <= 10);
      this.timerTick = left > 0 ? setTimeout(tick, TICK_MS) : null;
    };
    tick();
  }

  stopTimer() {
    clearTimeout(this.timerTick);
    this.timerTick = null;
    $("#countdown").hidden = true;
  }
}

/** Why a match ended, after how many turns: "blue has the last ship on the table, after 3 turns." */
function endReason(result) {
  const n = result.turns;
  const player = result.winner;
  if (result.reason === "last-ship" && player) {
    return tn("{player} has the last ship on the table, after {n} turn.", "{player} has the last ship on the table, after {n} turns.", n, { player });
  }
  if (result.reason === "turn-limit") {
    return player ? tn("{player} wins: the turn limit is reached, after {n} turn.", "{player} wins: the turn limit is reached, after {n} turns.", n, { player })
      : tn("The turn limit is reached, after {n} turn.", "The turn limit is reached, after {n} turns.", n);
  }
  if (result.reason === "no-ships") {
    return player ? tn("{player} wins: no ship is left on the table, after {n} turn.", "{player} wins: no ship is left on the table, after {n} turns.", n, { player })
      : tn("No ship is left on the table, after {n} turn.", "No ship is left on the table, after {n} turns.", n);
  }
  return player ? tn("{player} wins: {reason}, after {n} turn.", "{player} wins: {reason}, after {n} turns.", n, { player, reason: result.reason })
    : tn("{reason}, after {n} turn.", "{reason}, after {n} turns.", n, { reason: result.reason });
}
