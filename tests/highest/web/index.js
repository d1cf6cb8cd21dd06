// Highest number in the browser: a throw-away test game's module, served from the tests'
// folder (its Game.web_dir) and loaded by games/index.js like any game's.

import { $, el } from "/static/js/shell/dom.js";
import { RoomClient } from "/static/js/shell/room.js";
import { showMatchEnd } from "/static/js/shell/endcard.js";

class HighestRoom extends RoomClient {
  constructor(ctx) {
    super({ ...ctx, defaultName: "picker" });
    this.title = ctx.game.title;
    this.state = null;
    const box = el("section", { id: "highest", class: "panel" },
      el("h2", { text: "Pick a number" }),
      el("label", { for: "pick" }, "Your number "),
      el("input", { id: "pick", type: "number", min: 1, value: 1 }),
      el("button", { id: "send-pick", type: "button", on: { click: () => this.pick() } }, "Pick"),
      el("p", { id: "picked", role: "status" }),
      el("div", { id: "end" }));
    box.hidden = true;
    $("#table-wrap").append(box);
    this.connect();
  }

  handlers() {
    return { ...super.handlers(), state: this.onState, result: this.onResult };
  }

  onRoom(message) {
    super.onRoom(message);
    this.renderRoom();
    $("#highest").hidden = message.phase === "lobby";
  }

  pick() {
    this.socket.send({ type: "plot", orders: [String($("#pick").value)] });
  }

  onState(message) {
    this.state = message;
    $("#pick").max = message.top;
    const waiting = Object.entries(message.players).filter(([, p]) => !p.plotted).map(([name]) => name);
    $("#game-name").textContent = this.title;
    if (message.picks) {
      $("#picked").textContent = `${Object.entries(message.picks).map(([p, n]) => `${p} picked ${n}`).join(", ")}.`;
    } else $("#picked").textContent = message.plot ? `You picked ${message.plot[0]}. Waiting for: ${waiting.join(", ") || "nobody"}.`
      : `Pick a number from 1 to ${message.top}.`;
    $("#status").textContent = message.phase === "over" ? "The match is over." : "Both players pick in secret.";
  }

  onResult(message) {
    const { winner } = message.result;
    showMatchEnd(this, $("#end"), { result: message.result, matchId: message.match_id,
      how: winner ? `${winner} picked the highest number.` : "Both picked the same number." });
  }
}

/** Play in the room page. */
export function room(ctx) {
  return new HighestRoom(ctx);
}

/** Show a stored match on the replay page: the picks and the winner. */
export function replay(ctx, match) {
  const picks = match.events.find((e) => e.type === "revealed")?.picks || [];
  $("#table-wrap").replaceChildren(el("section", { id: "highest-replay", class: "panel" },
    el("h2", { text: "Highest number" }),
    el("p", { id: "replay-picks", text: match.options.players.map((p, i) => `${p} picked ${picks[i]}`).join("; ") }),
    el("p", { id: "replay-winner", text: match.result.winner ? `${match.result.winner} won.` : "A draw." })));
  $("#match-title").textContent = "· Highest number";
}
