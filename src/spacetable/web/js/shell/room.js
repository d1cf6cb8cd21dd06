// What every room shares, whatever its game: the socket and the seat it holds (welcome,
// token, rejoin after a reconnection, another tab that plays our seat), the lobby link's
// wishes (`?join=1` seats us, `&bots=1:easy` then seats those bots, `?watch` came to
// watch), the seat panel, the identity and connection badges, the share link, the mute
// button, refusals and errors as notices, and the end's Rematch button and replay link.
// A game's room extends RoomClient and draws the match (docs/protocol.md).

import { t, tParts } from "./i18n.js";
import { $, el, savedName, svg } from "./dom.js";
import { ChatPanel } from "./chat.js";
import { colourOf, WATCHER_COLOUR } from "./colours.js";
import { showConnectionBadge, toast } from "./notices.js";
import { loadBots, renderSeats } from "./seats.js";
import { Manners } from "./manners.js";
import { RoomSocket } from "./socket.js";
import { account } from "./account.js";
import { muteButton } from "./sounds.js";
import { askName, rematchOffer } from "./invite.js";
import { notifyButton } from "./notify.js";
import { rematchLabel } from "./endcard.js";
import { forgetRatingChanges, showRatingChanges } from "./ratings.js";

/** The room id of a room page's address (/rooms/{id}). */
export function roomIdOf(location) {
  return decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
}

/** The room's table, an SVG a game draws on (`attrs`: its label, what describes it). */
export function tableSvg(attrs) {
  return svg("svg", { id: "table", role: "application", tabindex: 0, ...attrs });
}

/** The countdown over the table (`label`: what runs out), hidden until it runs. */
export function countdownBox(label) {
  return el("div", { id: "countdown", class: "countdown", role: "timer", "aria-live": "off", hidden: true },
    el("span", { class: "countdown-label", text: label }), " ",
    el("span", { id: "countdown-seconds", class: "countdown-seconds", text: "0.0" }), " s");
}

/** The bots a lobby link asks for: `bots=1:hard,2:easy` -> [{seat: 1, level: "hard"}, ...]. */
function botsWanted(params) {
  return (params.get("bots") || "").split(",").filter(Boolean)
    .map((entry) => entry.split(":")).map(([seat, level]) => ({ seat: Number(seat), level: level || null }));
}

/**
 * The room's header on the screen, for the page's layout: its height (--header-height: a
 * phone's table fills the screen under it) and how much of it shows (--header-shown: a
 * question fixed at the top of a phone's screen, a draw offered or a player gone, sits under
 * it, never over the title and the name).
 */
function measureHeader() {
  const header = $(".topbar");
  if (!header) return;
  const root = document.documentElement.style;
  let shown = null;
  const measure = () => {
    const box = header.getBoundingClientRect();
    const now = Math.max(0, Math.ceil(box.bottom));
    if (now !== shown) root.setProperty("--header-shown", `${now}px`);
    shown = now;
    root.setProperty("--header-height", `${Math.ceil(box.height)}px`);
  };
  window.addEventListener("scroll", measure, { passive: true });
  new ResizeObserver(measure).observe(header);
  measure();
}

export class RoomClient {
  /**
   * The room `roomId`, with the page's query `params`. `describe(options)` tells the room's
   * options in words (its game module's). Call `connect()` once the game's page is built.
   */
  constructor({ roomId, params, describe }) {
    this.roomId = roomId;
    this.params = params;
    this.describe = describe;
    this.socket = new RoomSocket(roomId, { onMessage: (m) => this.receive(m), onStatus: (s) => this.onStatus(s) });
    this.me = { role: "spectator", seat: null, player: null };
    this.room = null; // the last `room` message
    this.rejoining = false; // a stored token is taking our seat back
    this.elsewhere = false; // another tab of ours plays the seat
    this.watching = params.has("watch"); // came through a watch link
    this.botsWanted = botsWanted(params);
    this.joining = false; // we sent the join the link asked for
    setupShare(roomId);
    this.rematchOffer = rematchOffer($(".side"), (m) => this.socket.send(m));
    // Why a visitor only watches a match: every seat is taken (the seat panel says it before).
    this.watchNote = el("p", { id: "watch-note", class: "watch-note", role: "status", hidden: true,
      text: t("You are watching: every seat is taken.") });
    $("#status").after(this.watchNote);
    this.manners = new Manners(this); // resign, draws, absences (shell/manners.js)
    measureHeader();
    $("#connection").before(muteButton());
    loadBots().then(() => { if (this.room) this.renderRoom(); });
    this.chat = new ChatPanel({ roomId, send: (m) => this.socket.send(m) });
    $(".side").append(this.chat.element);
  }

  connect() {
    this.socket.connect();
  }

  /** The message handlers by type; a game adds its own. */
  handlers() {
    return {
      welcome: this.onWelcome, room: this.onRoom, error: this.onError, refused: this.onRefused,
      chat: (m) => this.chat.onChat(m), chat_history: (m) => this.chat.onHistory(m),
      rematch_declined: this.onRematchDeclined,
      // News of the match store (down, back): the table waits for it, then goes on.
      notice: (m) => toast(m.message, 8, { kind: "info" }),
      // A moderator closed the room: it stays said (the socket closes: nothing to reconnect to).
      room_closed: (m) => toast(m.message, 3600, { kind: "alert" }),
    };
  }

  /** @param {import("./protocol.js").ServerMessage} message */
  receive(message) {
    if (this.manners.receive(message)) return; // the manners' own, or a match its players stopped
    this.handlers()[message.type]?.call(this, message);
  }

  // -- who we are ------------------------------------------------------------------------

  onWelcome(message) {
    this.me = { role: message.role, seat: message.seat, player: message.player, speaker: message.speaker };
    this.chat.setMe(this.me);
    document.body.dataset.role = message.role;
    document.body.dataset.player = message.player ?? "";
    if (message.role === "player") {
      this.rejoining = false;
      this.elsewhere = false;
      this.socket.token = message.token;
    } else if (message.elsewhere !== undefined && message.elsewhere !== null) {
      // Another tab of ours plays the seat: this one watches, and keeps the token.
      this.rejoining = false;
      this.elsewhere = true;
      toast(t("You play this seat in another tab or on another device: here you watch."));
    } else if (!this.rejoining) {
      this.socket.token = null; // we left our seat (or never had one)
    }
    if (message.role === "player" && this.joining) this.seatWantedBots();
    const identity = $("#identity");
    if (message.role === "player") {
      // The words apart from the name, so that a phone's crowded top bar may keep only the name.
      const name = el("span", { class: "identity-name", text: this.identityName() });
      identity.replaceChildren(...tParts("you are {name}", { name })
        .map((part) => (typeof part === "string" ? el("span", { class: "identity-words", text: part }) : part)));
    } else {
      identity.textContent = t("watching");
    }
    identity.title = identity.textContent;
    identity.style.setProperty("--team", message.role === "player" ? colourOf(message.seat) : WATCHER_COLOUR);
  }

  /** How the identity badge names us ("ann"; in hot seat, both players). */
  identityName() {
    return this.me.player;
  }

  /** Player names in seat order. */
  players() {
    return (this.room?.seats || []).map((s) => s.name || t("seat {seat}", { seat: s.seat + 1 }));
  }

  /** The seat colour of `player`. */
  colour(player) {
    const index = this.players().indexOf(player);
    return colourOf(index < 0 ? 0 : index);
  }

  // -- the room and its seats --------------------------------------------------------------

  onRoom(message) {
    this.room = message;
    // The ratings the players sat down with, for the end card of a rated match (an account
    // not rated yet in this game starts at 0: openskill's ordinal of a new rating).
    if (message.phase === "playing") {
      forgetRatingChanges();
      this.ratingsBefore = new Map((message.seats || []).filter((s) => s.registered).map((s) => [s.name, s.rating?.rating ?? 0]));
    } else if (message.phase === "over" && this.ratingsBefore) showRatingChanges(this.ratingsBefore, message.seats, message.unrated);
    this.joinIfWanted();
    this.rematchOffer.update(message, this.me.seat);
    if (message.pacing !== "realtime" && !this.notifyShown) {
      this.notifyShown = true; // games played a turn at a time call us back (shell/notify.js)
      const button = notifyButton();
      if (button) $("#status").after(button);
    }
  }

  /** Whether the link asks to seat us: `?join=1`, or bots to play against. */
  wantsSeat() {
    return this.params.has("join") || this.botsWanted.length > 0;
  }

  /** The name and seat the link's join asks for ("" for the name: ask it). */
  wantedSeat() {
    return { name: savedName(), seat: null };
  }

  /**
   * Take the seat the link asks for, once per tab, unless a token holds one already. A
   * visitor with no name saved is asked for one first (shell/invite.js); closing the
   * question leaves him watching, with the seat panel's buttons to sit down later.
   */
  async joinIfWanted() {
    if (!this.wantsSeat() || this.joining || this.room?.phase !== "lobby") return;
    if (this.me.role === "player" || this.rejoining || this.socket.token || this.linkUsed()) return;
    if (this.room.options.turn_hours != null && !account) return; // a guest watches (shell/seats.js)
    this.joining = true;
    const wanted = this.wantedSeat();
    if (!wanted.name) wanted.name = await askName();
    if (!wanted.name) {
      this.botsWanted = [];
      this.params.delete("join"); // asked once: the seat panel seats him if he changes his mind
      this.joining = false;
      return;
    }
    this.socket.send({ type: "join", ...wanted });
  }

  /** Seated by the link: seat the bots it names, once per tab. */
  seatWantedBots() {
    this.joining = false;
    for (const { seat, level } of this.botsWanted) {
      if ((this.room?.seats[seat]?.kind ?? "empty") === "empty") this.socket.send({ type: "bot", seat, level });
    }
    this.botsWanted = [];
    try {
      sessionStorage.setItem(`spacetable.joined.${this.roomId}`, "1"); // a reload does not join again
    } catch {
      // No session storage: the seat token alone keeps a reload from joining twice.
    }
  }

  /** Whether this tab already took the seat the link asked for. */
  linkUsed() {
    try {
      return sessionStorage.getItem(`spacetable.joined.${this.roomId}`) === "1";
    } catch {
      return false;
    }
  }

  /** The seat panel in the room's lobby, and what we wait for. */
  renderRoom() {
    const room = this.room;
    this.watchNote.hidden = this.me.role === "player" || this.elsewhere || Boolean(this.manners.leftToken)
      || room.phase === "lobby" || room.seats.some((s) => s.kind === "empty");
    const panel = $("#seat-panel");
    panel.hidden = room.phase !== "lobby";
    if (room.phase !== "lobby") return;
    renderSeats(panel, room, this.me.seat, (m) => this.socket.send(m), {
      describe: this.describe,
      starts: this.readyStarts(),
      decorate: (drawn) => this.decorateSeats(drawn),
      watching: this.watching,
      onPlay: () => {
        this.watching = false;
        this.renderRoom();
      },
    });
    $("#status").textContent = this.me.role === "player" ? this.waitingText()
      : this.elsewhere ? t("You play this seat in another tab or on another device: here you watch.") : t("You are watching.");
  }

  /** What Ready begins, in a few words, for the seat panel's "Press Ready to start: …";
   * null: what the game's pacing begins with (shell/seats.js). */
  readyStarts() {
    return null;
  }

  /** What a seated player waits for in the room's lobby. */
  waitingText() {
    return t("Waiting for every seat to fill and every player to be ready.");
  }

  // -- the end -----------------------------------------------------------------------------

  /** Whether `winner` is the player this page plays for (the end says "You win"). */
  isMyWin(winner) {
    return this.me.role === "player" && winner === this.me.player;
  }

  /** A rematch was declined: say so, and our Rematch button may ask again. */
  onRematchDeclined(message) {
    this.rematchOffer.declined(message, this.me.player);
    const button = $("#rematch");
    if (button) {
      button.disabled = false;
      button.textContent = rematchLabel();
    }
  }

  // -- refusals, errors and the connection ----------------------------------------------------

  onRefused(message) {
    toast(message.reason);
  }

  onError(message) {
    if (this.rejoining) {
      // The only error a rejoin gets: that seat is no longer ours.
      this.rejoining = false;
      this.socket.token = null;
    }
    toast(message.message);
  }

  /** Add a game's own words to the seat panel `drawn` (not yet on the page): none here. */
  decorateSeats(drawn) {}

  /** The connection badge; a reconnection with a stored token takes the seat back. */
  onStatus(status) {
    showConnectionBadge(status);
    this.chat.setConnected(status);
    if (status === "open") this.rejoining = Boolean(this.socket.token);
  }
}

/** The header's share link and its Copy button. */
function setupShare(roomId) {
  const link = `${location.origin}/rooms/${encodeURIComponent(roomId)}`;
  $("#room-id").textContent = roomId;
  const input = $("#share-link");
  input.value = link;
  input.size = link.length; // the whole link shows (css/room.css)
  input.addEventListener("focus", () => input.select());
  $("#copy-link").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(link);
    } catch {
      input.select();
      document.execCommand("copy"); // plain http pages have no clipboard API
    }
    $("#copy-link").textContent = t("Copied!");
    setTimeout(() => { $("#copy-link").textContent = t("Copy link"); }, 1500);
  });
}
