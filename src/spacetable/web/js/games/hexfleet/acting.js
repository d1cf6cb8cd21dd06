// The hex fleet room's acting: what the player does on the board and the keys becomes the
// room's actions — a hex clicked moves the active ship there (on a phone, shown first and
// then confirmed), an arrow around it turns it, another ship is aimed at, the arrow keys step
// and turn, Ctrl+Z takes back a move — sent through the socket of the side whose ship is
// activated (hot seat holds two). HexRoom (room.js) is built on it: the methods read the
// room's state, board and controls.

import { $ } from "../../shell/dom.js";
import { t, tn } from "../../shell/i18n.js";
import { TurnRoom } from "../../shell/turnroom.js";
import { hexLabel } from "./hexes.js";

/** Narrow screens (a phone): tap to see a move, confirm to make it; the board zooms in. */
export const PHONE = window.matchMedia("(max-width: 820px)");

/** The turn room with the hex fleet's acting: HexRoom (room.js) extends it. */
export class HexActing extends TurnRoom {
  /** Send one action through the socket of the side whose ship is activated. */
  act(action) {
    const ship = this.activeShip();
    const socket = ship && this.second?.me?.player === ship.owner ? this.second.socket : this.socket;
    this.controls.message("");
    this.lastAction = action.type;
    if (!socket.send({ type: "act", action })) this.controls.message(t("Not connected: try again in a moment."));
    this.pending = null;
    this.placeAt = null;
    if (action.type === "fire" || action.type === "hail") {
      this.target = null;
      this.aiming = false;
    }
  }

  myActive() {
    const ship = this.activeShip();
    return this.isMine(ship) && this.state.phase !== "over" ? ship : null;
  }

  clickHex({ q, r, label, pointerType }) {
    const ship = this.myActive();
    if (!ship) return;
    const key = `${q},${r}`;
    if (this.state.activation.placing) {
      this.placeAt = { q, r, label };
      this.refresh();
      return;
    }
    const move = this.board.moveTo(key);
    if (!move) {
      this.controls.message(t("{ship} cannot reach hex {hex} this activation: the lit hexes are within its movement.", { ship: ship.name, hex: label }));
      return;
    }
    const touch = pointerType === "touch" || pointerType === "pen" || PHONE.matches;
    if (touch && this.pending?.key !== key) {
      this.pending = { key, label, steps: move.steps, cost: move.cost };
      this.refresh();
      return;
    }
    this.act({ type: "move", ship: ship.id, steps: move.steps });
  }

  /** A ship clicked: our active ship aims at it; otherwise its log shows. */
  clickShip(target) {
    const ship = this.myActive();
    if (!ship || this.state.activation.placing) {
      this.shipLogs.select(target.id);
      return;
    }
    if (target.id === ship.id) {
      this.controls.message(t("Click a lit hex to move, an arrow around the ship to turn it, or another ship to aim."));
      return;
    }
    this.pickTarget(target.id);
  }

  /** A target picked (on the board or in the list): its panel in sight, with Fire and Hail
   * (on a phone it was under the fold), and the hint that said to pick one gone. */
  pickTarget(id) {
    this.target = id;
    this.pending = null;
    this.controls.message("");
    this.refresh();
    $("#aim-panel")?.scrollIntoView({ block: "nearest" });
  }

  turnTo(facing) {
    const ship = this.myActive();
    const move = this.board.turnTo(facing);
    if (ship && move) this.act({ type: "move", ship: ship.id, steps: move.steps });
  }

  hover(hex) {
    const ship = this.myActive();
    if (!ship || this.state.activation.placing || this.pending) return;
    const move = hex && this.board.moveTo(`${hex.q},${hex.r}`);
    this.board.showPath(move ? move.steps : null, move?.cost, this.state.activation.movement);
    const info = $("#move-info");
    if (info && move) {
      info.textContent = tn("Move to {hex}: {cost} of {n} hex (click to move).", "Move to {hex}: {cost} of {n} hexes (click to move).",
        this.state.activation.movement, { hex: hexLabel(hex.q, hex.r), cost: move.cost });
    }
  }

  /** Take back the active ship's last move (Ctrl+Z): the server keeps it until a card is turned. */
  undo(e) {
    const ship = this.myActive();
    if (!ship) return;
    e.preventDefault();
    if (this.state.activation.undo > 0) this.act({ type: "undo", ship: ship.id });
    else {
      this.controls.message(this.state.activation.done.includes("moved") ? t("Nothing to undo: {ship} has turned cards since its move.", { ship: ship.name })
        : t("Nothing to undo: {ship} has not moved yet.", { ship: ship.name }));
    }
  }

  /** Arrow keys on the focused board: up steps ahead, left and right turn. */
  key(e) {
    const ship = this.myActive();
    const step = { ArrowUp: "F", ArrowLeft: "L", ArrowRight: "R" }[e.key];
    if (!ship || !step || this.state.activation.placing) return;
    e.preventDefault();
    if (this.state.reach.some((m) => m.steps === step)) this.act({ type: "move", ship: ship.id, steps: step });
    else {
      this.controls.message(step === "F" ? t("{ship} cannot move ahead: no movement left or the way is blocked.", { ship: ship.name })
        : t("{ship} cannot turn: no movement left or the way is blocked.", { ship: ship.name }));
    }
  }
}
