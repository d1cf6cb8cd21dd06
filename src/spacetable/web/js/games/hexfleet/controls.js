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
import { FACING_NAMES } from "./board.js";

/** A chance as a whole percentage, never 0% or 100% for a possible or uncertain event. */
export function percent(p) {
  if (p > 0 && p < 0.005) return "<1%";
  if (p >= 0.995 && p < 1) return ">99%";
  return `${Math.round(p * 100)}%`;
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
        ? `Which way should ${ship.name} face at ${placeAt.label}?`
        : `${ship.name} is back from its jump: click any free hex to place it.` }));
      if (placeAt) {
        body.append(el("div", { class: "facing-choice", role: "group", "aria-label": "facing" },
          FACING_NAMES.map((name, facing) => el("button", { type: "button", dataset: { facing },
            on: { click: () => this.send({ type: "return", ship: ship.id, q: placeAt.q, r: placeAt.r, facing }) } },
          el("span", { class: "facing-glyph", "aria-hidden": "true", text: "↑",
            style: `display: inline-block; transform: rotate(${facing * 60 + this.turned()}deg)` }), ` ${name}`))));
      }
      return;
    }
    const done = new Set(activation.done);
    const moved = done.has("moved");
    body.append(el("p", { class: "hint move-info", id: "move-info", text: activation.movement > 0
      ? `Movement: ${activation.movement} of ${ship.propulsion} hex${ship.propulsion === 1 ? "" : "es"} left. Click a lit hex to move there; click an arrow around the ship to turn (1 hex each).`
      : "No movement left this activation." }));
    // Turning in place, in finger-sized buttons (the arrows on the board do it too).
    const turn1 = (steps, label, title) => el("button", { type: "button", class: "secondary turn-button", id: `turn-${steps === "L" ? "left" : "right"}`,
      title, disabled: !reach.some((m) => m.steps === steps),
      on: { click: () => this.send({ type: "move", ship: ship.id, steps }) } }, label);
    body.append(el("div", { class: "turn-buttons", role: "group", "aria-label": "turn in place" },
      turn1("L", "⟲ Turn left", "turn 60° to the left: 1 hex of movement"),
      turn1("R", "Turn right ⟳", "turn 60° to the right: 1 hex of movement")));
    const entry = aim.find((a) => a.ship === target);
    const chance = aim.find((a) => a.raise_shields !== null && a.raise_shields !== undefined)?.raise_shields;
    const shieldsWhy = done.has("shields") ? "tried once this activation" : ship.shields_up ? "shields are up"
      : ship.shields <= 0 ? "no shield points left" : null;
    const fireWhy = done.has("fire") ? "fired once this activation" : ship.salvo <= 0 ? "no weapons left"
      : !aim.some((a) => !a.problem) ? "no enemy in range and arc" : null;
    const hailWhy = done.has("hail") ? "hailed once this activation" : !aim.length ? "no other ship on the table" : null;
    // A move is taken back until a card is turned or the activation ends (docs/rulings.md H14).
    const undoWhy = activation.undo > 0 ? null : moved ? "cards turned since the move" : "no move yet";
    const jumpWhy = moved ? "it has moved: a ship moves or jumps, not both"
      : !ship.can_jump ? "needs half its propulsion cells to jump" : null;
    const action = (id, label, why, extra, click) => el("div", { class: "action" },
      el("button", { type: "button", id, disabled: Boolean(why), "aria-describedby": `${id}-why`, on: { click } }, label),
      el("small", { id: `${id}-why`, class: why ? "why" : "extra", text: why || extra || "" }));
    body.append(el("div", { class: "action-bar", role: "group", "aria-label": `${ship.name}'s actions` },
      action("raise-shields", "Raise shields", shieldsWhy, chance !== undefined ? `${percent(chance)} chance` : "",
        () => this.send({ type: "shields", ship: ship.id })),
      action("fire", "Fire…", fireWhy, `${ship.salvo} card${ship.salvo === 1 ? "" : "s"}: click a lit enemy`,
        () => {
          this.onAim();
          this.message("Click a lit ship on the board to aim at it: the odds show before you fire. The red hexes are those it can fire at.");
        }),
      action("hail", "Hail…", hailWhy, "click a ship", () => this.message("Click a ship on the board, then Hail it.")),
      action("jump", "Jump…", jumpWhy, "leave now, come back later", () => this.openJump()),
      action("undo-move", "↶ Undo move", undoWhy, "Ctrl+Z", () => this.send({ type: "undo", ship: ship.id })),
      action("end-activation", "End activation", null, "draw the next chit", () => this.send({ type: "done", ship: ship.id }))));
    const enemies = aim.filter((a) => a.owner !== ship.owner);
    if (enemies.length) {
      // Every enemy ship, to aim at or hail without finding it on the board (a phone, the
      // keyboard); your own ships are never targets (a click on one on the board hails it).
      body.append(el("div", { class: "target-list", role: "group", "aria-label": "aim at" },
        el("span", { class: "target-list-label", text: "Aim at:" }),
        enemies.map((a) => el("button", { type: "button", class: `secondary target-button${a.problem ? " out" : ""}`,
          dataset: { ship: a.ship }, "aria-pressed": String(a.ship === target), title: a.problem || a.odds?.summary || "",
          on: { click: () => this.onTarget(a.ship) } }, `${a.name} · ${a.distance} hex${a.distance === 1 ? "" : "es"}`))));
    }
    if (entry) body.append(this.aimBox(ship, entry, done));
  }

  /** The chosen target: distance, range and arc, the odds in words, Fire and Hail. */
  aimBox(ship, entry, done) {
    const name = entry.name || entry.ship;
    const where = `${entry.distance} hex${entry.distance === 1 ? "" : "es"} away, ${entry.in_range ? "in range" : "out of range"}`
      + `${entry.in_arc ? "" : ", outside the forward arc"}`;
    const odds = entry.odds;
    const arc = ship.all_round === false ? `${ship.name} is a light ship: it fires only ahead (the red hexes on the board).`
      : `${ship.name} fires all round, up to the red hexes on the board.`;
    return el("section", { id: "aim-panel", class: "aim-panel", "aria-label": `aiming at ${name}` },
      el("h3", { text: `Target: ${name}` }),
      el("p", { class: "aim-where", text: where }),
      el("p", { class: "aim-arc", id: "aim-arc", text: arc }),
      odds ? el("p", { id: "odds-summary", class: "odds-summary", text: odds.summary })
        : el("p", { id: "odds-summary", class: "odds-summary why", text: `Cannot fire: ${entry.problem}` }),
      odds ? el("p", { class: "aim-detail", text: `${odds.salvo} cards turned; ${odds.hitting.split("").map(suitName).join(", ") || "no suit"} get through its shields.` }) : null,
      el("div", { class: "aim-buttons" },
        el("button", { type: "button", id: "confirm-fire", disabled: !odds || done.has("fire"),
          on: { click: () => this.send({ type: "fire", ship: ship.id, target: entry.ship }) } }, `Fire at ${name}`),
        el("button", { type: "button", id: "confirm-hail", class: "secondary", disabled: done.has("hail"),
          on: { click: () => this.send({ type: "hail", ship: ship.id, target: entry.ship }) } }, `Hail (${percent(entry.hail)})`),
        el("button", { type: "button", class: "secondary", id: "cancel-aim", on: { click: () => this.onCancelAim() } }, "Cancel")));
  }

  jumpDialog() {
    const turnInput = el("input", { id: "jump-turn", type: "number", min: 1, "aria-label": "turn to come back on" });
    const back = el("input", { type: "radio", name: "jump-kind", value: "back", id: "jump-back", checked: true });
    const leave = el("input", { type: "radio", name: "jump-kind", value: "leave", id: "jump-leave" });
    const why = el("p", { class: "why", role: "alert" });
    const dialog = el("dialog", { id: "jump-dialog", class: "jump-dialog", "aria-labelledby": "jump-title" },
      el("form", { method: "dialog", on: { submit: (e) => {
        e.preventDefault();
        const { ship, turn, turnLimit } = this.last;
        const returnsOn = leave.checked ? 0 : Number(turnInput.value);
        if (!leave.checked && !(returnsOn > turn && returnsOn <= turnLimit)) {
          why.textContent = `Come back on a turn from ${turn + 1} to ${turnLimit}.`;
          return;
        }
        dialog.close();
        this.send({ type: "jump", ship: ship.id, returns_on: returnsOn });
      } } },
      el("h2", { id: "jump-title", text: "Jump out of the battle" }),
      el("p", { id: "jump-about", text: "The ship leaves the board now (its activation ends). It comes back at the start of the turn you choose, placed on any free hex; or it leaves for good." }),
      el("label", { class: "check" }, back, " Come back on turn ", turnInput),
      el("label", { class: "check" }, leave, " Leave the battle for good"),
      why,
      el("div", { class: "dialog-buttons" },
        el("button", { type: "submit", id: "confirm-jump" }, "Jump"),
        el("button", { type: "button", class: "secondary", on: { click: () => dialog.close() } }, "Cancel"))));
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
    this.jumpWhy.textContent = turn >= turnLimit ? "This is the last turn: the ship can only leave for good." : "";
    this.dialog.querySelector("#jump-title").textContent = `Jump ${ship.name} out of the battle`;
    this.dialog.showModal();
  }
}

/** "♠ spades" for a suit letter. */
function suitName(suit) {
  return { S: "♠ spades", H: "♥ hearts", D: "♦ diamonds", C: "♣ clubs" }[suit] || suit;
}
