// The chat beside every table (issue 19; docs/protocol.md, "Chat"): free text and quick
// messages, each line in its sender's seat colour and always set as text (never HTML);
// the players' channel, and the spectators' one that a player may open; a mute per
// player remembered for the room; an unread count while the panel is folded (on a phone
// it folds to a bar under the table). Mounted by RoomClient; the replays use `chatLine`
// and `QUICK_WORDS` through shell/chatreplay.js.

import { playerName, t, tn } from "./i18n.js";
import { el, clear } from "./dom.js";
import { colourOf, WATCHER_COLOUR } from "./colours.js";
import { reportButton } from "./report.js";

/** The longest free-text message (the server refuses longer). */
export const CHAT_LIMIT = 200;

/** How near the limit the message box starts counting the characters left. */
const COUNT_FROM = 40;

/** The quick messages' words by id (the server carries ids). */
export const QUICK_WORDS = {
  gg: t("Good game"),
  wp: t("Well played"),
  oops: t("Oops"),
  thinking: t("Thinking..."),
  rematch: t("Rematch?"),
};

/** The chat panel's words, in one place. */
const WORDS = {
  title: t("Chat"),
  placeholder: t("Say something…"),
  send: t("Send"),
  quick: t("Quick messages"),
  openSpectators: t("Show the spectators' chat"),
  toPlayers: t("to the players"),
  toSpectators: t("to the spectators"),
  spectatorsNote: t("You write in the spectators' chat; the players read it only if they open it."),
  empty: t("Nothing said yet."),
  mute: t("Mute"),
  unmute: t("Unmute"),
  muted: (names) => t("Muted: {names}.", { names }),
  muteTitle: (name) => t("Hide {name}'s messages (this room only)", { name }),
  unread: (count) => t("{n} unread", { n: count }),
  left: (n) => tn("{n} character left", "{n} characters left", n),
  cut: (n) => t("Cut at {n} characters: a message holds no more.", { n }),
  // Why Send is dimmed (the header's badge says it too, but on a phone it is scrolled away).
  connecting: t("Reaching the room: what you write waits here until Send works."),
  reconnecting: t("Reconnecting to the room: what you write waits here until Send works again."),
  closed: t("The room is closed: nothing more can be sent."),
  spectatorMark: t("spectators"),
};

/** The words of a chat message: its text, or its quick message's words. */
export function chatText(message) {
  return message.quick ? QUICK_WORDS[message.quick] || message.quick : message.text || "";
}

/** The colour of a chat message's sender: his seat's, or the watchers'. */
export function chatColour(message) {
  return message.seat === null || message.seat === undefined ? WATCHER_COLOUR : colourOf(message.seat);
}

/**
 * One line of chat as an element: the sender's name in his seat colour, then his words,
 * both as text. `extra`: more children (a mute button).
 */
export function chatLine(message, ...extra) {
  const spectators = message.channel === "spectators";
  return el("li", {
    class: `chat-line${spectators ? " chat-spectators" : ""}${message.quick ? " chat-quick-line" : ""}`,
    style: `--team: ${chatColour(message)}`,
    dataset: { name: message.name, channel: message.channel },
  },
  el("span", { class: "chat-name", text: playerName(message.name) }),
  spectators ? el("span", { class: "chat-channel", text: WORDS.spectatorMark }) : null,
  el("span", { class: "chat-text", text: chatText(message) }),
  ...extra);
}

/** Where the players muted in room `roomId` are remembered. */
function muteKey(roomId) {
  return `spacetable.chat.muted.${roomId}`;
}

/**
 * Whom a mute silences: the person, as the server names him in every message (`speaker`:
 * his browser tab, so the mute holds when he reconnects, leaves his seat and sits down
 * again, under another name or watching); in a message without one (a chat stored before
 * speakers were named), a seated player by his seat, a spectator by his name.
 */
export function speakerOf(message) {
  if (message.speaker) return `speaker:${message.speaker}`;
  return message.seat === null || message.seat === undefined ? `name:${message.name}` : `seat:${message.seat}`;
}

/** The muted speakers of room `roomId`: speaker -> the name he went by when last heard. */
function loadMuted(roomId) {
  try {
    const entries = JSON.parse(localStorage.getItem(muteKey(roomId)) || "[]");
    return new Map(Array.isArray(entries)
      ? entries.filter((e) => Array.isArray(e) && e.length === 2 && e.every((x) => typeof x === "string")) : []);
  } catch {
    return new Map();
  }
}

export class ChatPanel {
  /** The chat of room `roomId`; `send(message)` sends on the room's socket. */
  constructor({ roomId, send }) {
    this.roomId = roomId;
    this.send = send;
    this.me = { role: "spectator", seat: null, player: null };
    this.open = false; // a player reads the spectators' chat
    this.messages = [];
    this.muted = loadMuted(roomId);
    this.unread = 0;

    this.badge = el("span", { class: "chat-unread", hidden: true });
    this.log = el("ol", { class: "chat-log", "aria-live": "polite", "aria-label": t("chat messages") });
    this.mutedLine = el("p", { class: "chat-muted help", hidden: true });
    this.openBox = el("input", { type: "checkbox", class: "chat-open", on: { change: () => this.send({ type: "open_chat", open: this.openBox.checked }) } });
    this.openLabel = el("label", { class: "chat-open-label" }, this.openBox, " ", WORDS.openSpectators);
    this.channel = el("select", { class: "chat-channel-choice", "aria-label": t("channel") },
      el("option", { value: "players", text: WORDS.toPlayers }),
      el("option", { value: "spectators", text: WORDS.toSpectators }));
    this.note = el("p", { class: "chat-note help", text: WORDS.spectatorsNote });
    // No maxlength: the browser would cut a long paste without a word. The box cuts it
    // itself and says so (fitText), and counts down the last characters.
    this.input = el("input", { type: "text", class: "chat-input", placeholder: WORDS.placeholder, "aria-label": t("chat message"),
      on: { input: () => this.fitText() } });
    this.count = el("p", { class: "chat-count help", "aria-live": "polite", hidden: true });
    // Send and the quick messages wait for the room's socket (setConnected): a message
    // written before it opens, or while it reconnects, stays in the box until it can go.
    this.sendButton = el("button", { type: "submit", class: "chat-send", text: WORDS.send, disabled: true });
    this.link = el("p", { class: "chat-link help", role: "status", hidden: true });
    this.linkTimer = null;
    const form = el("form", { class: "chat-form", on: { submit: (e) => { e.preventDefault(); this.sendText(); } } },
      this.input, this.sendButton);
    this.quick = el("div", { class: "chat-quick", role: "group", "aria-label": WORDS.quick },
      ...Object.entries(QUICK_WORDS).map(([id, words]) => el("button", {
        type: "button", class: "secondary chat-quick-button", dataset: { quick: id }, text: words, disabled: true,
        on: { click: () => this.say({ quick: id }) },
      })));
    this.summary = el("summary", {}, el("span", { text: WORDS.title }), " ", this.badge);
    this.element = el("details", { class: "chat panel", id: "chat" },
      this.summary, this.openLabel, this.log, this.mutedLine, this.quick, form, this.link, this.count, this.channel, this.note);
    // Open beside the table on a wide screen; folded to a bar on a phone.
    this.element.open = !window.matchMedia("(max-width: 820px)").matches;
    this.element.addEventListener("toggle", () => { if (this.element.open) this.markRead(); });
    this.dock();
    this.render();
  }

  /**
   * On a phone the chat is a bar fixed along the bottom of the screen (css/chat.css): tell the
   * page its height (--chat-dock), which the page keeps free below its content and the end
   * card and the notices sit on; 0 where the chat stands in the side column.
   */
  dock() {
    const root = document.documentElement;
    let before = null;
    const measure = () => {
      const docked = this.element.isConnected && getComputedStyle(this.element).position === "fixed";
      const height = docked ? Math.ceil(this.element.getBoundingClientRect().height) : 0;
      root.style.setProperty("--chat-dock", `${height}px`);
      // The chat opening (or growing) pushes the page up, as a phone's keyboard does: what
      // was on screen above the bar stays in sight above the open chat, not under it.
      if (before !== null && docked && height !== before) window.scrollBy(0, height - before);
      before = height;
    };
    new ResizeObserver(measure).observe(this.element);
    window.matchMedia("(max-width: 820px)").addEventListener("change", measure);
  }

  /**
   * The room's socket's `status` (connecting, open, reconnecting, closed): Send and the quick
   * messages work only while it is open, and a line under the box says why they wait. The
   * first connection usually opens at once: its line shows only if it takes a while.
   */
  setConnected(status) {
    const open = status === "open";
    this.sendButton.disabled = !open;
    for (const button of this.quick.querySelectorAll("button")) button.disabled = !open;
    clearTimeout(this.linkTimer);
    this.link.hidden = true;
    if (open) return;
    this.link.textContent = WORDS[status] ?? WORDS.reconnecting;
    if (status === "connecting") this.linkTimer = setTimeout(() => { this.link.hidden = false; }, 2000);
    else this.link.hidden = false;
  }

  /** Who we are now (a `welcome`). */
  setMe(me) {
    this.me = me;
    this.renderControls();
  }

  /** What we may read of the room's chat (`chat_history`): replaces what we showed. */
  onHistory(message) {
    this.open = Boolean(message.open);
    this.messages = message.messages || [];
    this.render();
  }

  /** One message said now (`chat`). */
  onChat(message) {
    this.messages.push(message);
    if (this.messages.length > 500) this.messages.splice(0, this.messages.length - 500);
    const speaker = speakerOf(message);
    if (this.muted.has(speaker)) {
      if (this.muted.get(speaker) !== message.name) this.mute(speaker, message.name); // renamed
    } else {
      this.log.querySelector(".chat-empty")?.remove();
      this.log.append(this.line(message));
      this.log.lastElementChild?.scrollIntoView?.({ block: "nearest" });
      if (!this.element.open && !this.mine(message)) {
        this.unread += 1;
        this.renderBadge();
      }
    }
  }

  mine(message) {
    return this.me.role === "player" && message.seat === this.me.seat;
  }

  sendText() {
    const text = this.input.value.trim();
    if (!text) return;
    if (this.say({ text })) {
      this.input.value = "";
      this.fitText();
    }
  }

  /**
   * Keep the message box within CHAT_LIMIT characters: what goes past it is cut, and the
   * line under the box says so; in the last COUNT_FROM characters it counts those left.
   */
  fitText() {
    const { value } = this.input;
    const cut = value.length > CHAT_LIMIT;
    if (cut) {
      const caret = Math.min(this.input.selectionStart ?? CHAT_LIMIT, CHAT_LIMIT);
      this.input.value = value.slice(0, CHAT_LIMIT);
      this.input.setSelectionRange(caret, caret);
    }
    const left = CHAT_LIMIT - this.input.value.length;
    this.count.hidden = !cut && left > COUNT_FROM;
    this.count.classList.toggle("chat-cut", cut);
    this.count.textContent = cut ? WORDS.cut(CHAT_LIMIT) : WORDS.left(left);
  }

  /** Send a text or quick message on the channel chosen. */
  say(what) {
    const channel = this.me.role === "player" ? this.channel.value : "spectators";
    return this.send({ type: "chat", ...what, channel });
  }

  /** Mute `speaker` (speakerOf), known as `name`; a null name unmutes him. */
  mute(speaker, name) {
    if (name !== null) this.muted.set(speaker, name);
    else this.muted.delete(speaker);
    try {
      localStorage.setItem(muteKey(this.roomId), JSON.stringify([...this.muted]));
    } catch {
      // No local storage: the mute lasts while the page does.
    }
    this.render();
  }

  markRead() {
    this.unread = 0;
    this.renderBadge();
  }

  renderBadge() {
    this.badge.hidden = this.unread === 0;
    this.badge.textContent = String(this.unread);
    this.badge.title = WORDS.unread(this.unread);
  }

  line(message) {
    // One's own messages carry one's own speaker (the welcome's); a player's, his seat too.
    const own = (message.speaker && message.speaker === this.me.speaker)
      || (this.me.role === "player" && message.seat === this.me.seat);
    const mute = own ? null : el("button", {
      type: "button", class: "link chat-mute", title: WORDS.muteTitle(message.name), text: WORDS.mute,
      on: { click: () => this.mute(speakerOf(message), message.name) },
    });
    // A seated player's line may be reported to the moderators, with its words (shell/report.js).
    const report = own || message.seat === null || message.seat === undefined ? null
      : reportButton(message.name, { room: this.roomId, text: chatText(message) }, { className: "link chat-report" });
    return chatLine(message, mute, report);
  }

  render() {
    clear(this.log);
    const shown = this.messages.filter((m) => !this.muted.has(speakerOf(m)));
    if (!shown.length) this.log.append(el("li", { class: "chat-empty muted", text: WORDS.empty }));
    for (const message of shown) this.log.append(this.line(message));
    clear(this.mutedLine);
    this.mutedLine.hidden = this.muted.size === 0;
    if (this.muted.size) {
      this.mutedLine.append(WORDS.muted([...this.muted.values()].map(playerName).join(", ")), " ");
      for (const [speaker, name] of this.muted) {
        this.mutedLine.append(el("button", { type: "button", class: "link chat-unmute", dataset: { name, speaker },
          text: t("Unmute {name}", { name }), on: { click: () => this.mute(speaker, null) } }), " ");
      }
    }
    this.renderControls();
    this.renderBadge();
  }

  renderControls() {
    const player = this.me.role === "player";
    this.openLabel.hidden = !player;
    this.openBox.checked = this.open;
    this.channel.hidden = !player || !this.open;
    if (!player || !this.open) this.channel.value = "players";
    this.note.hidden = player;
  }
}
