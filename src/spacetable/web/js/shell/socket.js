// The room's websocket: JSON messages both ways (docs/protocol.md), the seat token kept in
// localStorage per room (shell/seattokens.js), and automatic reconnection that takes the
// seat back (`rejoin`).
// `join` and `rejoin` name this tab, so that a second tab of the same player watches; the
// socket names it as it connects too (`?tab=`), so that the chat knows who speaks.
// The match state comes whole, then as patches (`state_patch`) that shell/statepatch.js
// applies: the pages get every `state` whole.
// Behind a balancer (docs/scaling.md) the page names the process that holds the room
// (`<html data-node>`), and the socket asks for it (`?node=`): it goes straight there.

import { StateKeeper } from "./statepatch.js";
import { storeToken, storedToken } from "./seattokens.js";

// A socket can die without a word (the server's machine gone, a phone that changed
// networks): after QUIET_MS without a message it pings, and one that does not answer
// within ANSWER_MS is dropped for a new one.
const QUIET_MS = 10_000;
const ANSWER_MS = 5_000;
const TAB_KEY = "spacetable.tab";

/** This tab's id: kept while the tab lives (a reload keeps it), another tab has its own. */
function tabId() {
  let id = null;
  try {
    id = sessionStorage.getItem(TAB_KEY);
    if (!id) {
      id = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, "0")).join("");
      sessionStorage.setItem(TAB_KEY, id);
    }
  } catch {
    id ??= "tab"; // no session storage: every tab counts as one
  }
  return id;
}

export class RoomSocket {
  /**
   * `onMessage(message)` gets every server message; `onStatus(status)` gets
   * "connecting", "open", "reconnecting" or "closed" (the room is gone).
   * @param {string} roomId
   * @param {{onMessage: (message: import("./protocol.js").ServerMessage) => void,
   *   onStatus?: (status: string) => void}} handlers
   */
  constructor(roomId, { onMessage, onStatus = () => {} }) {
    this.roomId = roomId;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.ws = null;
    this.retries = 0;
    // The room's process, by the balancer's name for it, until the room may have moved.
    this.node = document.documentElement.dataset.node || null;
    this.states = new StateKeeper(() => this.send({ type: "resync" }));
    this.heard = 0; // when the socket last had a message (performance.now())
    this.pinged = 0; // when it was pinged and has not answered yet, or 0
    this.watch = null;
  }

  get token() {
    return storedToken(this.roomId);
  }

  /** Keep (or with null, forget) the token that holds our seat. */
  set token(value) {
    // Marked with the logged-in player's name: logging out forgets it (shell/seattokens.js).
    storeToken(this.roomId, value, document.documentElement.dataset.account || null);
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const node = this.node ? `&node=${encodeURIComponent(this.node)}` : "";
    // The tab names us as we connect, so that the chat knows a watcher who reconnects.
    const tab = `&tab=${encodeURIComponent(tabId())}`;
    const url = `${scheme}://${location.host}/ws/rooms/${encodeURIComponent(this.roomId)}?patches=1${tab}${node}`;
    this.onStatus(this.retries ? "reconnecting" : "connecting");
    const ws = new WebSocket(url);
    this.ws = ws;
    this.states.reset();
    ws.addEventListener("open", () => {
      this.retries = 0;
      this.heard = performance.now();
      this.pinged = 0;
      this.watch ??= setInterval(() => this.checkAlive(), 1000);
      this.onStatus("open");
      // A fresh socket is a spectator; a stored token takes our seat back.
      if (this.token) this.send({ type: "rejoin", token: this.token });
    });
    ws.addEventListener("message", (event) => {
      this.heard = performance.now();
      this.pinged = 0;
      /** @type {import("./protocol.js").ServerMessage} */
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message.type === "pong") return; // checkAlive's answer: the socket lives
      if (message.type === "state" || message.type === "state_patch") {
        message = this.states.take(message);
        if (message === null) return; // a patch went missing: the whole state is on its way
      }
      this.onMessage(message);
    });
    ws.addEventListener("close", (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      // The room is gone (4404), or could not be brought back after a restart (4410):
      // nothing to reconnect to. Any other close, a server's crash included, reconnects.
      if (event.code === 4404 || event.code === 4410) {
        this.onStatus("closed");
        return;
      }
      // Closed by a process that stops or lost the room: it may be held elsewhere now, so
      // the balancer chooses (a relay reaches the room wherever it is).
      if (event.code !== 1006 && event.code !== 1000) this.node = null;
      this.reconnect();
    });
  }

  reconnect() {
    this.retries += 1;
    this.onStatus("reconnecting");
    setTimeout(() => this.connect(), Math.min(5000, 400 * 2 ** Math.min(this.retries, 4)));
  }

  /** Ping a quiet socket; drop one that did not answer, and open another. */
  checkAlive() {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    const now = performance.now();
    if (this.pinged && now - this.pinged > ANSWER_MS) {
      // Not waiting for its close: a dead peer never answers that either.
      this.ws = null;
      this.node = null; // its process may be gone: the balancer chooses
      ws.close(4000, "no answer");
      this.reconnect();
    } else if (!this.pinged && now - this.heard > QUIET_MS) {
      this.pinged = now;
      ws.send(JSON.stringify({ type: "ping" }));
    }
  }

  /**
   * Send a message; false (and nothing sent) while the socket is not open.
   * @param {import("./protocol.js").ClientMessage} message
   * @returns {boolean}
   */
  send(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    if (message.type === "join" || message.type === "rejoin") message = { ...message, tab: tabId() };
    this.ws.send(JSON.stringify(message));
    return true;
  }
}
