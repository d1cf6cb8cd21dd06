// Your side at the bottom: the turn-based boards (FTL, the hex fleet) can be shown turned,
// so that each player sees his own side at the bottom, as he would sitting at his side of
// a real table: half a turn for the side that starts at the top, a quarter turn for a side
// on the left or right edge. This module holds what both games share: the "Turn board"
// button, the choice remembered per room in the browser, which turn puts a side at the
// bottom, and, for replays, the choice of whose side is at the bottom. Each board does the
// turning itself (its setTurned(degrees)); files, messages and logs keep the table's frame.

import { el } from "./dom.js";
import { savedName } from "./dom.js";
import { playerName, t } from "./i18n.js";

/** The words of the controls, in the page's language. */
const WORDS = {
  get turn() {
    return t("⟲ Turn board");
  },
  get turnTitle() {
    return t("Turn the board around: your side at the bottom, or the table as it is laid out");
  },
  get turned() {
    return t("turned");
  },
  get normal() {
    return t("as laid out");
  },
  get bottom() {
    return t("At the bottom:");
  },
  get bottomTitle() {
    return t("whose side is shown at the bottom of the board");
  },
};

/** Where the choice for `key` ("<game>.room.abc123") is kept in localStorage. */
const storageKey = (key) => `spacetable.turned.${key}`;

/** A turn in degrees clockwise on the screen, one of 0, 90, 180, 270. */
function quarter(degrees) {
  return ((Math.round(Number(degrees) / 90) % 4) + 4) % 4 * 90;
}

/**
 * The stored choice for `key`: {shown, side} (degrees: the turn shown, the turn that puts
 * the player's side at the bottom), or null (none yet).
 */
export function storedTurn(key) {
  try {
    const match = /^(\d+)\/(\d+)$/.exec(localStorage.getItem(storageKey(key)) || "");
    return match ? { shown: quarter(match[1]), side: quarter(match[2]) } : null;
  } catch {
    return null;
  }
}

function storeTurn(key, shown, side) {
  try {
    localStorage.setItem(storageKey(key), `${shown}/${side}`);
  } catch {
    // Private browsing with no storage: the choice lasts as long as the page.
  }
}

/**
 * The turn (degrees clockwise on the screen: 0, 90, 180 or 270) that puts a side standing
 * at (dx, dy) from the others (screen axes as the board is laid out: x right, y down) at
 * the bottom of the screen.
 */
export function turnToBottom(dx, dy) {
  if (Math.abs(dy) >= Math.abs(dx)) return dy >= 0 ? 0 : 180;
  return dx > 0 ? 90 : 270;
}

/**
 * The "Turn board" button for a board (anything with `setTurned(degrees)`), its choice kept
 * under `key`. `onChange(degrees)` is called after the board turned. Until a choice is
 * stored, `suggest(degrees)` (the turn that puts the player's side at the bottom) turns it
 * and stores that too, so a reload keeps the view even after the pieces moved. The button
 * goes between that turn and the board as laid out (half a turn when the two are the same).
 */
export class BoardTurn {
  constructor(board, key, { onChange = () => {} } = {}) {
    this.board = board;
    this.key = key;
    this.onChange = onChange;
    this.shown = 0;
    this.side = 180;
    this.button = el("button", { type: "button", class: "secondary board-turn", id: "turn-board", title: WORDS.turnTitle,
      "aria-pressed": "false", on: { click: () => this.toggle() } }, WORDS.turn);
    const stored = storedTurn(key);
    if (stored) {
      this.side = stored.side;
      this.apply(stored.shown);
    }
  }

  /** Whether a choice is already kept for this board. */
  decided() {
    return storedTurn(this.key) !== null;
  }

  /** The first suggestion: the turn that puts the player's side at the bottom; kept unless a choice is stored. */
  suggest(degrees) {
    if (this.decided()) return;
    this.side = quarter(degrees);
    this.set(this.side);
  }

  /** Between the player's side at the bottom and the table as laid out. */
  toggle() {
    this.set(this.shown !== 0 ? 0 : this.side || 180);
  }

  /** Turn the board `degrees` and remember it. */
  set(degrees) {
    storeTurn(this.key, quarter(degrees), this.side);
    this.apply(degrees);
  }

  apply(degrees) {
    this.shown = quarter(degrees);
    const turned = this.shown !== 0;
    this.button.setAttribute("aria-pressed", String(turned));
    this.button.dataset.turned = String(this.shown);
    this.button.title = t("{what} (now: {how})", { what: WORDS.turnTitle, how: turned ? WORDS.turned : WORDS.normal });
    this.board.setTurned(this.shown);
    this.onChange(this.shown);
  }
}

/**
 * The seat a replay's viewer played (by the name this browser remembers), else the first:
 * whose side a replay shows at the bottom at first. `seats`: [{player, name}], `players`:
 * the players' names in seat order.
 */
export function viewerSide(players, seats = []) {
  const name = savedName();
  const mine = name ? (seats || []).find((s) => s && s.name === name && s.kind !== "bot") : null;
  const player = mine?.player ?? (mine ? players[mine.seat] : null);
  return players.includes(player) ? player : players[0];
}

/**
 * For replays: a choice of whose side is at the bottom ("At the bottom: [red]"), kept per
 * match under `key`. `onChange(player)` is called with the chosen player, now and on each
 * change. Returns the control (a <label>).
 */
export function bottomSidePicker(players, key, { initial, onChange }) {
  let chosen = initial;
  try {
    const stored = localStorage.getItem(`spacetable.bottom.${key}`);
    if (players.includes(stored)) chosen = stored;
  } catch {
    // no storage: the initial choice
  }
  const select = el("select", { id: "bottom-side", "aria-label": WORDS.bottomTitle, title: WORDS.bottomTitle,
    on: { change: () => {
      try {
        localStorage.setItem(`spacetable.bottom.${key}`, select.value);
      } catch {
        // no storage
      }
      onChange(select.value);
    } } },
  players.map((p) => el("option", { value: p, text: playerName(p) })));
  select.value = chosen;
  onChange(chosen);
  return el("label", { class: "bottom-side" }, el("span", { text: `${WORDS.bottom} ` }), select);
}
