// The turns of a Faster Than Light match as a control: a stepper (first, back, play / pause,
// next, last, replay this turn) over a list of the turns, each with the orders every player
// revealed and how it ended. It draws on an FtlBoard: stepping forward or picking a turn
// animates it; stepping back shows where the pieces stood. Used by the room and the replay.

import "./sheet.js";
import { clear, el } from "../../shell/dom.js";
import { seatColour } from "./board.js";
import { animateTurn, clearMarks } from "./animate.js";
import { applyTurn, describeEvent, endOf, endText, revealedOrders, shownId } from "./turns.js";
import { playerName, t, tn } from "../../shell/i18n.js";

/** The event and names each line of an account tells (tellLine), to tell it again (retell). */
const told = new WeakMap();

/**
 * Append to `list` (an account's <ol>) the line `text` that tells `event` (`names`: the
 * pieces by id, as animateTurn gives them), as an <li> with `attrs`; returns it.
 */
export function tellLine(list, text, event = null, names = null, attrs = {}) {
  const line = el("li", { ...attrs, text });
  if (event && names) told.set(line, { event, names });
  list.append(line);
  return line;
}

/** Tell every line of `list` again in `frame` (the view turned: positions and headings change). */
export function retell(list, frame) {
  for (const line of list.children) {
    const entry = told.get(line);
    if (entry) line.textContent = describeEvent(entry.event, entry.names, frame);
  }
}

/** The pause between turns while playing on (ms). */
const BETWEEN_TURNS_MS = 900;

export class TurnHistory {
  /**
   * Build the control inside `container` (emptied) for `board`. `players`: seat order (for
   * colours). `onStep(text, event, names)`: each line the animation tells; `onShow(position,
   * pieces)`: the board now shows `pieces` after `position` turns (0: the start);
   * `onStart(turn)`: a turn's animation begins; `onBrowse(past, position)`: whether the
   * board now shows the past (a turn stepped back to or played again from the list, not
   * the present a live turn leaves), told as soon as it changes, before any animation.
   */
  constructor(container, board, { players = [], speed = 1, onStep = () => {}, onShow = () => {}, onStart = () => {},
    onBrowse = () => {} } = {}) {
    this.board = board;
    this.players = players;
    this.speed = speed;
    this.callbacks = { onStep, onShow, onStart, onBrowse };
    this.turns = []; // [{turn, before, events}]
    this.position = 0; // turns applied to what the board shows
    this.playing = false;
    this.controller = null;
    this.start = [];
    const button = (id, text, title, handler) => el("button", { type: "button", class: "secondary", dataset: { step: id },
      title, "aria-label": title, on: { click: handler } }, text);
    this.root = clear(container);
    this.root.classList.add("ftl-history");
    this.label = el("output", { class: "ftl-position", "aria-live": "polite" });
    this.playButton = el("button", { type: "button", dataset: { step: "play" }, on: { click: () => (this.playing ? this.pause() : this.play()) } }, t("▶ Play"));
    this.buttons = {
      first: button("first", "|◀", t("the start of turn 1"), () => this.go(0)),
      back: button("back", t("◀ Back"), t("one turn back"), () => this.go(this.position - 1)),
      next: button("next", t("Next ▶"), t("the next turn, animated"), () => this.animate(this.position + 1)),
      last: button("last", "▶|", t("after the last turn"), () => this.go(this.turns.length)),
      replay: button("replay", t("↻ Replay turn"), t("play this turn's animation again"), () => this.animate(Math.max(1, this.position))),
    };
    this.list = el("ol", { class: "ftl-turns" });
    this.root.append(
      el("div", { class: "ftl-stepper", role: "toolbar", "aria-label": t("turns") }, this.buttons.first, this.buttons.back,
        this.playButton, this.buttons.next, this.buttons.last, this.label),
      el("div", { class: "tool-row" }, this.buttons.replay),
      this.list,
    );
    this.update();
  }

  /** Show a stored match: `start` (the pieces before turn 1) and its turns ({turn, events} from splitTurns). */
  setMatch(start, turns) {
    this.stop();
    this.start = start;
    this.turns = [];
    let before = start;
    for (const played of turns) {
      this.turns.push({ turn: played.turn, before, events: played.events });
      before = applyTurn(before, played.events);
    }
    this.renderList();
    this.go(0);
  }

  /** Add a turn as it resolves (`before`: the pieces as it began); with `animate`, play it. */
  addTurn(turn, before, events, { animate = true } = {}) {
    if (!this.turns.length) this.start = before;
    this.turns.push({ turn, before, events });
    this.renderList();
    if (animate) return this.animate(this.turns.length, { live: true });
    this.go(this.turns.length);
    return Promise.resolve(true);
  }

  /** Forget the last turn (taken back to be resolved again). */
  dropLast() {
    this.stop();
    this.turns.pop();
    this.position = Math.min(this.position, this.turns.length);
    this.renderList();
  }

  /** Forget every turn. */
  reset() {
    this.stop();
    this.turns = [];
    this.position = 0;
    this.renderList();
  }

  /**
   * The match's turns played so far: the number of the last turn this history holds. A
   * page that came in during the match holds only the turns it saw (a correspondence
   * player back at turn 3 holds turn 3 on): it counts the match's, not its own.
   */
  get lastTurn() {
    return this.turns.at(-1)?.turn ?? 0;
  }

  /** The number of the first turn this history holds (1 unless the page came in later). */
  get firstTurn() {
    return this.turns[0]?.turn ?? 1;
  }

  /** The pieces after `position` turns. */
  piecesAt(position) {
    if (position <= 0) return this.turns[0]?.before ?? this.start;
    const played = this.turns[position - 1];
    return applyTurn(played.before, played.events);
  }

  /** Show the board after `position` turns, at once: that turn's tapes and contacts stay drawn. */
  go(position) {
    this.stop();
    this.position = Math.max(0, Math.min(position, this.turns.length));
    this.callbacks.onBrowse(this.position < this.turns.length, this.position);
    clearMarks(this.board);
    if (this.position === 0) {
      this.board.draw(this.piecesAt(0), { players: this.players });
    } else {
      const played = this.turns[this.position - 1];
      this.controller = new AbortController();
      animateTurn(this.board, played.before, played.events, { players: this.players, instant: true, signal: this.controller.signal });
    }
    this.update();
    this.callbacks.onShow(this.position, this.piecesAt(this.position));
  }

  /**
   * Animate turn `position` (from 1) from where it began. Resolves false if interrupted.
   * `live`: the turn that just resolved, playing out for the first time (the present);
   * any other is the past played again.
   */
  async animate(position, { live = false } = {}) {
    if (position < 1 || position > this.turns.length) return false;
    this.stop(false);
    const controller = new AbortController();
    this.controller = controller;
    this.position = position;
    this.callbacks.onBrowse(!live, position);
    this.update();
    const played = this.turns[position - 1];
    this.callbacks.onStart(played.turn);
    const after = await animateTurn(this.board, played.before, played.events, { players: this.players, speed: this.speed,
      signal: controller.signal, onStep: this.callbacks.onStep });
    if (this.controller === controller) this.controller = null;
    if (after && this.position === this.turns.length) this.callbacks.onBrowse(false, position);
    if (after) this.callbacks.onShow(position, after);
    return Boolean(after);
  }

  /** Play on from here to the last turn, turn after turn. */
  async play() {
    if (!this.turns.length) return;
    if (this.position >= this.turns.length) this.go(0);
    this.playing = true;
    this.update();
    while (this.playing && this.position < this.turns.length) {
      if (!(await this.animate(this.position + 1))) break;
      if (this.position < this.turns.length) await new Promise((resolve) => setTimeout(resolve, BETWEEN_TURNS_MS / this.speed));
    }
    this.playing = false;
    this.update();
  }

  /** Stop playing on (the turn on the board finishes at once). */
  pause() {
    this.playing = false;
    this.update();
  }

  /** Stop any animation (and, with `all`, playing on). */
  stop(all = true) {
    this.controller?.abort();
    this.controller = null;
    if (all) this.playing = false;
  }

  update() {
    const n = this.turns.length;
    const p = this.position;
    const first = this.firstTurn;
    this.label.textContent = !n ? t("No turn played yet")
      : p === 0 ? (first > 1 ? t("Before turn {turn}", { turn: first }) : tn("Start · {n} turn", "Start · {n} turns", n))
        : t("Turn {turn} of {count}", { turn: this.turns[p - 1].turn, count: this.lastTurn });
    this.buttons.first.title = first > 1 ? t("before turn {turn}", { turn: first }) : t("the start of turn 1");
    this.buttons.first.setAttribute("aria-label", this.buttons.first.title);
    this.buttons.first.disabled = p === 0;
    this.buttons.back.disabled = p === 0;
    this.buttons.next.disabled = p >= n;
    this.buttons.last.disabled = p >= n;
    this.buttons.replay.disabled = p === 0;
    this.playButton.disabled = !n;
    this.playButton.textContent = this.playing ? t("‖ Pause") : t("▶ Play");
    for (const item of this.list.children) item.classList.toggle("current", Number(item.dataset.position) === p);
    // Keep the current turn in sight inside the list, never scrolling the page away from the board.
    const item = this.list.querySelector(".current");
    const list = this.list;
    if (item && list.scrollHeight > list.clientHeight) {
      if (item.offsetTop < list.scrollTop) list.scrollTop = item.offsetTop;
      else if (item.offsetTop + item.offsetHeight > list.scrollTop + list.clientHeight) {
        list.scrollTop = item.offsetTop + item.offsetHeight - list.clientHeight;
      }
    }
  }

  renderList() {
    clear(this.list);
    this.turns.forEach((played, i) => {
      const orders = revealedOrders(played.events);
      const end = endOf(played.events);
      this.list.append(el("li", { dataset: { position: i + 1, turn: played.turn } },
        el("button", { type: "button", class: "link turn-link", title: t("play turn {turn}", { turn: played.turn }),
          on: { click: () => this.animate(i + 1) } }, t("Turn {turn}", { turn: played.turn })),
        el("ul", { class: "ftl-orders" }, orders.length ? orders.map((o) => el("li", { style: `--team: ${seatColour(this.players.indexOf(o.player))}` },
          el("span", { class: "swatch" }), el("b", { text: playerName(o.player) }),
          o.orders.length ? o.orders.map((x) => el("code", { text: x.piece === o.player ? x.order : `${shownId(x.piece, o.player)} ${x.order}` }))
            : el("i", { text: t("no orders") })))
          : el("li", { class: "muted", text: t("orders not recorded") })),
        end ? el("p", { class: "ftl-outcome", text: endText(end, true) }) : null));
    });
    this.update();
  }
}
