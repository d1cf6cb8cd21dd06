// The lobby socket (issue 69; docs/protocol.md, "The lobby socket"): one websocket a page,
// opened by the shell for every page (shell/account.js), that hears what concerns the
// player wherever he is: who is online, a pairing, a challenge, his session ended.
// It reconnects by itself with a growing wait (a server restart, a phone that changed
// networks), and a socket that stays silent is pinged and replaced if it does not answer.
//
//   import { lobbySocket } from "../shell/lobbysocket.js";
//   const off = lobbySocket().on("paired", (message) => { ... });  // off() to stop
//
// `online` comes only to a page that asked for it (`lobbySocket().watchOnline()`).

/** Waits before reconnecting: the first at once, then longer, at most the last (ms). */
const BACKOFF_MS = [250, 1000, 2000, 5000, 10000, 20000];
/** A socket silent this long is pinged; one that does not answer within ANSWER_MS is replaced. */
const QUIET_MS = 25_000;
const ANSWER_MS = 10_000;
/** Close codes after which the page does not reconnect: its session ended (4401). */
const FINAL = new Set([4401]);

class LobbySocket {
  constructor() {
    /** @type {Map<string, Set<(message: any) => void>>} */
    this.handlers = new Map();
    this.ws = null;
    this.retries = 0;
    this.watching = false;
    this.stopped = false;
    this.heard = 0;
    this.pinged = 0;
    this.connect();
    setInterval(() => this.checkAlive(), 5000);
  }

  /**
   * Call `handler(message)` with every message of `type` (`"online"`, `"paired"`,
   * `"challenge"`...; `"open"` and `"close"` too, when the socket opens or drops); returns
   * the function that stops it.
   * @param {string} type
   * @param {(message: any) => void} handler
   * @returns {() => void}
   */
  on(type, handler) {
    if (!this.handlers.has(type)) this.handlers.set(type, new Set());
    this.handlers.get(type).add(handler);
    return () => this.off(type, handler);
  }

  /** Stop calling `handler` for `type`. */
  off(type, handler) {
    this.handlers.get(type)?.delete(handler);
  }

  /** Ask for who is online: `online` now and at every change, across reconnections. */
  watchOnline() {
    this.watching = true;
    this.send({ type: "watch_online" });
  }

  /** Send a message if the socket is open (else nothing: the page does not depend on it). */
  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  emit(type, message) {
    for (const handler of [...(this.handlers.get(type) || [])]) {
      try {
        handler(message);
      } catch (error) {
        console.error(error);
      }
    }
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/lobby`);
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.retries = 0;
      this.heard = performance.now();
      this.pinged = 0;
      if (this.watching) this.send({ type: "watch_online" });
      this.emit("open", {});
    });
    ws.addEventListener("message", (event) => {
      this.heard = performance.now();
      this.pinged = 0;
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message && typeof message.type === "string") this.emit(message.type, message);
    });
    ws.addEventListener("close", (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.emit("close", { code: event.code });
      if (this.stopped || FINAL.has(event.code)) return;
      // Each page waits its own share of the step: a restarted server is not hit by every
      // page at the same instant.
      const wait = BACKOFF_MS[Math.min(this.retries, BACKOFF_MS.length - 1)] * (0.5 + Math.random() / 2);
      this.retries += 1;
      setTimeout(() => this.connect(), wait);
    });
  }

  /** Ping a quiet socket; replace one that did not answer. */
  checkAlive() {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    const now = performance.now();
    if (this.pinged && now - this.pinged > ANSWER_MS) {
      ws.close();
      return;
    }
    if (!this.pinged && now - this.heard > QUIET_MS) {
      this.pinged = now;
      this.send({ type: "ping" });
    }
  }
}

let socket = null;

/** The page's lobby socket (opened on the first call). */
export function lobbySocket() {
  socket ??= new LobbySocket();
  return socket;
}
