// Hot seat in the hex fleet room (`?hotseat=Red,Blue`): the page holds the second seat
// through a socket of its own, whose token lives beside the first one's.

import { RoomSocket } from "../../shell/socket.js";

/** The second seat's socket in hot seat: its token lives beside the first one's. */
class SecondSeatSocket extends RoomSocket {
  get token() {
    return localStorage.getItem(`spacetable.token.${this.roomId}.second`);
  }

  set token(value) {
    if (value) localStorage.setItem(`spacetable.token.${this.roomId}.second`, value);
    else localStorage.removeItem(`spacetable.token.${this.roomId}.second`);
  }
}

/** Hot seat: a second socket of `room` takes the other seat under the second name, ready at once. */
export function openSecondSeat(room) {
  const second = { me: { role: "spectator" }, socket: null };
  room.second = second;
  second.socket = new SecondSeatSocket(room.socket.roomId, {
    onMessage: (m) => {
      if (m.type === "welcome") {
        second.me = { role: m.role, seat: m.seat, player: m.player };
        if (m.role === "player") {
          second.socket.token = m.token;
          if (!room.room?.seats[m.seat]?.ready) second.socket.send({ type: "ready", ready: true });
        }
      } else if (m.type === "room" && second.me.role !== "player" && !second.joined && m.phase === "lobby") {
        if (m.seats[1]?.kind === "empty" && !second.socket.token) {
          second.joined = true;
          second.socket.send({ type: "join", name: room.hotseat[1] || "Blue", seat: 1 });
        }
      } else if (m.type === "refused") room.onRefused(m);
      else if (m.type === "state" && room.state) room.refresh();
    },
  });
  second.socket.connect();
}
