// The active ship's action bar in a hex fleet room: what it may still do this activation
// (movement left, take back a move, raise shields with the chance, fire or hail at a chosen target with the
// odds shown first, jump with the turn to come back, end the activation), each button
// disabled with the reason in words when the rules say no; the facing to choose for a ship coming back from a jump. It draws from
// what the room gives it and sends actions through `send`; the board is the room's.
//
// API:
//   const controls = new HexControls(container, { send, onCancelAim, onTarget, onAim })
//     onTarget(shipId): a target chosen from the list of enemy ships (as a click on the board).
//     onAim(): "Fire…" pressed: the room shows the firing arc while the player picks.
//   controls.show({ ship, activation, aim, reach, turn, turnLimit, target, placeAt, who })
//     ship: the active ship (ours), activation, aim and reach: the view's, target: the
//     chosen target's id or null, placeAt: the hex chosen to place a returning ship ({q, r, label}) or null,
//     who: "Blue: your Kal Pol" (whose move, in words).
//   controls.hide()
//   controls.message(text)   a refusal or a hint, where the player looks.

import "./sheet.js";
import { clear, el } from "../../shell/dom.js";
import { num, t, tn } from "../../shell/i18n.js";
import { said } from "../../shell/phrase.js";
import { FACING_NAMES, FACING_WORDS } from "./hexes.js";

/** A finger, not a mouse: the bar says "tap" (a phone, a tablet). */
const TOUCH = window.matchMedia("(pointer: coarse)");

/** A chance as a whole percentage, never 0% or 100% for a possible or uncertain event. */
export function percent(p) {
  const whole = (share) => num(share, { style: "percent" });
  if (p > 0 && p < 0.005) return `<${whole(0.01)}`;
  if (p >= 0.995 && p < 1) return `>${whole(0.99)}`;
  return whole(Math.round(p * 100) / 100);
}

export class HexControls {
  /** `turned()`: the board's turn on the screen in degrees (the facing choice's arrows follow the screen). */
  constructor(container, { send, onCancelAim = () => {}, onTarget = () => {}, onAim = () => {}, turned = () => 0 }) {
    this.onTarget = onTarget;
    this.onAim = onAim;
    this.turned = turned;
    this.container = container;
    this.send = send;
    this.onCancelAim = onCancelAim;
    this.body = el("div", { class: "hex-controls-body" });
    this.note = el("p", { id: "action-message", class: "action-message", role: "alert" });
    this.dialog = this.jumpDialog();
    container.append(this.body, this.note, this.dialog);
    container.hidden = true;
  }

  hide() {
    this.container.hidden = true;
    if (this.dialog.open) this.dialog.close();
  }

  /** Show a refusal or a hint under the buttons. */
  message(text) {
    this.note.textContent = text || "";
  }

  show({ ship, activation, aim, reach, turn, turnLimit, target, placeAt, who }) {
    this.last = { ship, activation, turn, turnLimit };
    this.container.hidden = false;
    const body = clear(this.body);
    body.append(el("h2", { id: "controls-title", text: who }));
    if (activation.placing) {
      body.append(el("p", { class: "hint", text: placeAt
        ? t("Which way should {ship} face at {hex}?", { ship: ship.name, hex: placeAt.label })
        : t("{ship} is back from its jump: click any free hex to place it.", { ship: ship.name }) }));
      if (placeAt) {
        body.append(el("div", { class: "facing-choice", role: "group", "aria-label": t("facing") },
          FACING_NAMES.map((name, facing) => el("button", { type: "button", dataset: { facing },
            on: { click: () => this.send({ type: "return", ship: ship.id, q: placeAt.q, r: placeAt.r, facing }) } },
          el("span", { class: "facing-glyph", "aria-hidden": "true", text: "↑",
            style: `display: inline-block; transform: rotate(${facing * 60 + this.turned()}deg)` }), ` ${FACING_WORDS()[facing] || name}`))));
      }
      return;
    }
    const done = new Set(activation.done);
    const moved = done.has("moved");
    body.append(el("p", { class: "hint move-info", id: "move-info", text: activation.movement > 0
      ? tn("Movement: {left} of {n} hex left. Click a lit hex to move there; click an arrow around the ship to turn (1 hex each).",
        "Movement: {left} of {n} hexes left. Click a lit hex to move there; click an arrow around the ship to turn (1 hex each).",
        ship.propulsion, { left: activation.movement })
      : t("No movement left this activation.") }));
    // Turning in place, in finger-sized buttons (the arrows on the board do it too).
    const turn1 = (steps, label, title) => el("button", { type: "button", class: "secondary turn-button", id: `turn-${steps === "L" ? "left" : "right"}`,
      title, disabled: !reach.some((m) => m.steps === steps),
      on: { click: () => this.send({ type: "move", ship: ship.id, steps }) } }, label);
    // The first row of the ship's buttons: on a phone the bar along the bottom of the
    // screen, where a thumb reaches them (the arrows on a phone's board are a few px).
    const turns = el("div", { class: "turn-buttons", role: "group", "aria-label": t("turn in place") },
      turn1("L", "⟲ " + t("Turn left"), t("turn 60° to the left: 1 hex of movement")),
      turn1("R", t("Turn right") + " ⟳", t("turn 60° to the right: 1 hex of movement")));
    const entry = aim.find((a) => a.ship === target);
    const chance = aim.find((a) => a.raise_shields !== null && a.raise_shields !== undefined)?.raise_shields;
    const shieldsWhy = done.has("shields") ? t("tried once this activation") : ship.shields_up ? t("shields are up")
      : ship.shields <= 0 ? t("no shield points left") : null;
    const fireWhy = done.has("fire") ? t("fired once this activation") : ship.salvo <= 0 ? t("no weapons left")
      : !aim.some((a) => !a.problem) ? t("no enemy in range and arc") : null;
    const hailWhy = done.has("hail") ? t("hailed once this activation") : !aim.length ? t("no other ship on the table") : null;
    // A move is taken back until a card is turned or the activation ends (docs/rulings.md H14).
    const undoWhy = activation.undo > 0 ? null : moved ? t("cards turned since the move") : t("no move yet");
    const jumpWhy = moved ? t("it has moved: a ship moves or jumps, not both")
      : !ship.can_jump ? t("needs half its propulsion cells to jump") : null;
    const action = (id, label, why, extra, click) => el("div", { class: "action" },
      el("button", { type: "button", id, disabled: Boolean(why), "aria-describedby": `${id}-why`, on: { click } }, label),
      el("small", { id: `${id}-why`, class: why ? "why" : "extra", text: why || extra || "" }));
    body.append(el("div", { class: "action-bar", role: "group", "aria-label": t("{ship}'s actions", { ship: ship.name }) },
      turns,
      action("raise-shields", t("Raise shields"), shieldsWhy, chance !== undefined ? t("{chance} chance", { chance: percent(chance) }) : "",
        () => this.send({ type: "shields", ship: ship.id })),
      action("fire", t("Fire…"), fireWhy, TOUCH.matches ? tn("{n} card: tap a lit enemy", "{n} cards: tap a lit enemy", ship.salvo)
        : tn("{n} card: click a lit enemy", "{n} cards: click a lit enemy", ship.salvo),
      () => {
        this.message(TOUCH.matches ? t("Tap a lit ship on the board to aim at it: the odds show before you fire. The red hexes are those it can fire at.")
          : t("Click a lit ship on the board to aim at it: the odds show before you fire. The red hexes are those it can fire at."));
        this.onAim();
      }),
      action("hail", t("Hail…"), hailWhy, TOUCH.matches ? t("tap a ship") : t("click a ship"),
        () => this.message(TOUCH.matches ? t("Tap a ship on the board, then Hail it.") : t("Click a ship on the board, then Hail it."))),
      action("jump", t("Jump…"), jumpWhy, t("leave now, come back later"), () => this.openJump()),
      action("undo-move", "↶ " + t("Undo move"), undoWhy, TOUCH.matches ? "" : "Ctrl+Z", () => this.send({ type: "undo", ship: ship.id })),
      action("end-activation", t("End activation"), null, t("draw the next chit"), () => this.send({ type: "done", ship: ship.id }))));
    const enemies = aim.filter((a) => a.owner !== ship.owner);
    if (enemies.length) {
      // Every enemy ship, to aim at or hail without finding it on the board (a phone, the
      // keyboard); your own ships are never targets (a click on one on the board hails it).
      body.append(el("div", { class: "target-list", role: "group", "aria-label": t("aim at") },
        el("span", { class: "target-list-label", text: t("Aim at:") }),
        enemies.map((a) => el("button", { type: "button", class: `secondary target-button${a.problem ? " out" : ""}`,
          dataset: { ship: a.ship }, "aria-pressed": String(a.ship === target), title: said(a.problem_says) || a.problem || said(a.odds?.summary_says) || a.odds?.summary || "",
          on: { click: () => this.onTarget(a.ship) } }, `${a.name} · ${tn("{n} hex", "{n} hexes", a.distance)}`))));
    }
    if (entry) body.append(this.aimBox(ship, entry, done));
  }

  /** The chosen target: distance, range and arc, the odds in words, Fire and Hail. */
  aimBox(ship, entry, done) {
    const name = entry.name || entry.ship;
    const where = tn("{n} hex away", "{n} hexes away", entry.distance) + ", " + (entry.in_range ? t("in range") : t("out of range"))
      + (entry.in_arc ? "" : ", " + t("outside the forward arc"));
    const odds = entry.odds;
    const arc = ship.all_round === false ? t("{ship} is a light ship: it fires only ahead (the red hexes on the board).", { ship: ship.name })
      : t("{ship} fires all round, up to the red hexes on the board.", { ship: ship.name });
    const problem = said(entry.problem_says) || entry.problem;
    const noSuit = t("no suit");
    const hitting = odds ? odds.hitting.split("").map(suitName).join(", ") || noSuit : "";
    return el("section", { id: "aim-panel", class: "aim-panel", "aria-label": t("aiming at {ship}", { ship: name }) },
      el("h3", { text: t("Target: {ship}", { ship: name }) }),
      el("p", { class: "aim-where", text: where }),
      el("p", { class: "aim-arc", id: "aim-arc", text: arc }),
      odds ? el("p", { id: "odds-summary", class: "odds-summary", text: said(odds.summary_says) || odds.summary })
        : el("p", { id: "odds-summary", class: "odds-summary why", text: t("Cannot fire: {problem}", { problem }) }),
      odds ? el("p", { class: "aim-detail", text: tn("{n} card turned; {suits} get through its shields.", "{n} cards turned; {suits} get through its shields.",
        odds.salvo, { suits: hitting }) }) : null,
      el("div", { class: "aim-buttons" },
        el("button", { type: "button", id: "confirm-fire", disabled: !odds || done.has("fire"),
          on: { click: () => this.send({ type: "fire", ship: ship.id, target: entry.ship }) } }, t("Fire at {ship}", { ship: name })),
        el("button", { type: "button", id: "confirm-hail", class: "secondary", disabled: done.has("hail"),
          on: { click: () => this.send({ type: "hail", ship: ship.id, target: entry.ship }) } }, t("Hail ({chance})", { chance: percent(entry.hail) })),
        el("button", { type: "button", class: "secondary", id: "cancel-aim", on: { click: () => this.onCancelAim() } }, t("Cancel"))));
  }

  jumpDialog() {
    const turnInput = el("input", { id: "jump-turn", type: "number", min: 1, "aria-label": t("turn to come back on") });
    const back = el("input", { type: "radio", name: "jump-kind", value: "back", id: "jump-back", checked: true });
    const leave = el("input", { type: "radio", name: "jump-kind", value: "leave", id: "jump-leave" });
    const why = el("p", { class: "why", role: "alert" });
    const dialog = el("dialog", { id: "jump-dialog", class: "jump-dialog", "aria-labelledby": "jump-title" },
      el("form", { method: "dialog", on: { submit: (e) => {
        e.preventDefault();
        const { ship, turn, turnLimit } = this.last;
        const returnsOn = leave.checked ? 0 : Number(turnInput.value);
        if (!leave.checked && !(returnsOn > turn && returnsOn <= turnLimit)) {
          why.textContent = t("Come back on a turn from {first} to {last}.", { first: turn + 1, last: turnLimit });
          return;
        }
        dialog.close();
        this.send({ type: "jump", ship: ship.id, returns_on: returnsOn });
      } } },
      el("h2", { id: "jump-title", text: t("Jump out of the battle") }),
      el("p", { id: "jump-about", text: t("The ship leaves the board now (its activation ends). It comes back at the start of the turn you choose, placed on any free hex; or it leaves for good.") }),
      el("label", { class: "check" }, back, " " + t("Come back on turn") + " ", turnInput),
      el("label", { class: "check" }, leave, " " + t("Leave the battle for good")),
      why,
      el("div", { class: "dialog-buttons" },
        el("button", { type: "submit", id: "confirm-jump" }, t("Jump")),
        el("button", { type: "button", class: "secondary", on: { click: () => dialog.close() } }, t("Cancel")))));
    turnInput.addEventListener("focus", () => { back.checked = true; });
    this.jumpTurn = turnInput;
    this.jumpWhy = why;
    return dialog;
  }

  openJump() {
    const { ship, turn, turnLimit } = this.last;
    this.jumpTurn.min = String(turn + 1);
    this.jumpTurn.max = String(turnLimit);
    this.jumpTurn.value = String(Math.min(turnLimit, turn + 2));
    this.jumpWhy.textContent = turn >= turnLimit ? t("This is the last turn: the ship can only leave for good.") : "";
    this.dialog.querySelector("#jump-title").textContent = t("Jump {ship} out of the battle", { ship: ship.name });
    this.dialog.showModal();
  }
}

/** "♠ spades" for a suit letter. */
function suitName(suit) {
  return { S: "♠ " + t("spades"), H: "♥ " + t("hearts"), D: "♦ " + t("diamonds"), C: "♣ " + t("clubs") }[suit] || suit;
}
