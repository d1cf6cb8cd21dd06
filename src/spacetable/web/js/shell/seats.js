// The seat panel of a room in its lobby: who sits where, take a seat (a visitor without a
// name is asked for one first), add bots (each level told in words with its pace), the
// host's "free for a friend" on a bot's seat, get ready. A logged-in player sits under his
// account's name (shown, not asked); a guest in a room played by correspondence, which
// seats registered players only, is told he watches, with links to log in or sign up. A
// registered player's seat shows his rating ("0 (provisional)" before his first rated
// match), and the panel says whether the match will be rated.

import { playerName, t, tParts } from "./i18n.js";
import { account } from "./account.js";
import { botLevelName } from "./botseats.js";
import { ratingText } from "./ratings.js";
import { el, fetchOnce, saveName, savedName } from "./dom.js";
import { colourOf } from "./colours.js";
import { askName } from "./invite.js";
import { absence } from "./absence.js";
import { morphChildren } from "./morph.js";
import { reportButton } from "./report.js";

/** The laser games' bots until GET /api/games answers: levels, the default, in words. */
const FALLBACK_BOTS = { levels: ["beginner", "random", "easy", "medium", "hard"], default: "beginner", about: {} };
/** Each game's bots by ruleset, from GET /api/games (loadBots). */
const botsByRuleset = {};

/**
 * Load every game's bot levels and their descriptions (GET /api/games), once; resolves
 * to them by ruleset ({levels, default, about}). A server that cannot answer leaves the
 * fallback.
 */
export async function loadBots() {
  if (Object.keys(botsByRuleset).length) return botsByRuleset;
  try {
    for (const game of await fetchOnce("/api/games")) { // the page's one request (games/index.js)
      const bots = { levels: game.bot_levels, default: game.default_bot, about: game.bot_descriptions || {} };
      for (const ruleset of game.rulesets) botsByRuleset[ruleset] = bots;
    }
  } catch {
    // The fallback levels below.
  }
  return botsByRuleset;
}

/** A room's options in `words`, then "by correspondence, 24 h a turn" when it is played so
 * (the seats wait days, not seconds): the seats' panel and the lobby's list of rooms. */
export function postWords(words, options) {
  if (!options.turn_hours) return words;
  // (not inside the template string: Babel's extractor misses a t() whose arguments hold braces there)
  const post = t("by correspondence, {hours} h a turn", { hours: options.turn_hours });
  return `${words} · ${post}`;
}

/** The bots of a ruleset: {levels, default, about}. */
export function botsOf(ruleset) {
  return botsByRuleset[ruleset] || FALLBACK_BOTS;
}

/** A bot level in words: "Beginner — places a card about every 6 s…". */
export function describeLevel(ruleset, level) {
  return botsOf(ruleset).about[level] || botLevelName(level);
}

/**
 * Fill `container` with the seats of `room` (a `room` message). `mySeat` is our seat index
 * or null; `send(message)` talks to the room. `describe(options)` tells the room's options
 * in words (its game module's); `starts`, what Ready begins in a few words (null: what the
 * game's pacing begins with). `watching` (came to watch) hides the seat buttons behind
 * `onPlay()`, called when the visitor decides to play after all.
 */
export function renderSeats(container, room, mySeat, send, options) {
  // Drawn apart, then brought onto the panel: a press on "Ready" while another player's
  // news redraws it still counts, and a name being typed stays (shell/morph.js). What a
  // game adds to the panel (`options.decorate(drawn)`) is drawn with it, so that it too
  // is kept, not added again after each redraw (which moved the seats under the pointer).
  const fresh = document.createElement("div");
  drawSeats(fresh, room, mySeat, send, { ...options, shown: container });
  options.decorate?.(fresh);
  morphChildren(container, fresh);
}

/** Whether the room's match will be rated, in words: two registered players or more sit
 * at it (the server rates their order when it is stored: store/ratings.py); null when no
 * registered player sits. */
function ratedNote(room) {
  const registered = room.seats.filter((s) => s.registered).length;
  if (!registered) return null;
  // A casual pairing's or challenge's room (its options say so): never rated.
  if (room.options?.casual) return el("p", { class: "rated-note", id: "rated-note", dataset: { rated: false }, text: t("Casual match: not rated, as its players chose.") });
  const text = registered >= 2 ? t("Rated match: the registered players' ratings move with its result, once its first turn or round is over.")
    : t("Not rated yet: a match is rated when two registered players sit at it.");
  return el("p", { class: "rated-note", id: "rated-note", dataset: { rated: registered >= 2 }, text });
}

/** A guest in a room played by correspondence: he watches, and may log in or sign up to
 * play (each page brings him back here afterwards: `?next=`). */
function loginNote() {
  const next = `?next=${encodeURIComponent(location.pathname + location.search)}`;
  const login = el("a", { href: `/login${next}`, class: "seat-login", text: t("Log in") });
  const signup = el("a", { href: `/signup${next}`, class: "seat-signup", text: t("Sign up") });
  return el("div", { class: "seat-help login-to-play", id: "login-to-play" },
    el("p", { text: t("Registered players play a room by correspondence: you are watching. Log in or sign up to take a seat.") }),
    el("p", { class: "login-links" }, login, " · ", signup));
}

/** The rating beside a registered player's seat: his own, or before his first rated match
 * in this game openskill's start, 0 (provisional). Null for a guest's or a bot's seat. */
function seatRating(seat) {
  if (seat.rating) return el("span", { class: "seat-rating", title: t("rating"), text: ratingText(seat.rating) });
  if (!seat.registered) return null;
  return el("span", { class: "seat-rating unrated", title: t("registered player, not rated yet in this game"),
    text: ratingText({ rating: 0, provisional: true }) });
}

function drawSeats(container, room, mySeat, send, { describe, starts = null, shown, watching = false, onPlay = () => {} }) {
  const seated = mySeat !== null && mySeat !== undefined;
  // Correspondence rooms seat registered players only (the server refuses a guest's join).
  const guestByPost = room.options.turn_hours != null && !account;
  const rated = ratedNote(room);
  if (watching && !seated) {
    const taken = room.seats.filter((s) => s.kind !== "empty").map((s) => s.name);
    const free = room.seats.some((s) => s.kind === "empty");
    container.append(
      el("h2", { text: t("Watching") }),
      el("p", { class: "room-options", text: postWords(describe(room.options), room.options) }),
      ...(rated ? [rated] : []),
      ...(guestByPost ? [loginNote()] : []), // up front, as below
      el("p", { id: "watching", text: taken.length ? t("Seated: {names}. The match starts when every seat is ready.", { names: taken.join(", ") }) : t("Nobody is seated yet.") }),
      ...(guestByPost ? [] : [free ? el("button", { type: "button", id: "want-to-play", on: { click: onPlay } }, t("I want to play"))
        : el("p", { class: "seat-help", text: t("Every seat is taken.") })]));
    return;
  }
  const nameInput = el("input", { id: "player-name", type: "text", maxlength: 24, placeholder: t("your name"),
    value: savedName(), autocomplete: "nickname", on: { change: (e) => saveName(e.target.value) } });
  // The handlers below read the elements on screen, not those drawn here: the panel keeps
  // its elements when it is drawn again (renderSeats), and these are then left aside.
  /** The name we sit under: the account's, the one typed, else asked for (null: the
   * visitor closed it). */
  const name = async () => {
    if (account) return account;
    const typed = document.getElementById("player-name")?.value ?? "";
    const value = typed.trim() || await askName();
    if (value) saveName(value);
    return value;
  };
  const iAmHost = Boolean(room.seats.find((s) => s.seat === mySeat)?.host);
  container.append(el("h2", { text: t("Seats") }), el("p", { class: "room-options", text: postWords(describe(room.options), room.options) }));
  if (rated) container.append(rated);
  if (!seated && account) {
    // The server seats a logged-in player under his account's name: nothing to type.
    const own = el("strong", { class: "account-as", text: account });
    own.setAttribute("translate", "no");
    container.append(el("p", { class: "sit-as", id: "sit-as" }, ...tParts("You sit as {name}, your account's name.", { name: own })));
  } else if (!seated && guestByPost) {
    container.append(loginNote()); // up front: a phone's panel may hide its foot under a scroll
  } else if (!seated) container.append(el("label", { class: "name-field" }, t("Your name") + " ", nameInput));
  const list = el("ul", { class: "seats" });
  for (const seat of room.seats) {
    const mine = seat.seat === mySeat;
    const item = el("li", {
      class: `seat kind-${seat.kind}${mine ? " mine" : ""}`,
      dataset: { seat: seat.seat, kind: seat.kind, ready: seat.ready, level: seat.level ?? "" },
      style: `--team: ${colourOf(seat.seat)}`,
    }, el("span", { class: "swatch" }));
    const who = seat.kind === "empty" ? t("empty seat") : mine ? t("{name} (you)", { name: seat.name }) : playerName(seat.name);
    item.append(el("span", { class: "seat-name", text: who, title: who }));
    const rating = seatRating(seat);
    if (rating) item.append(rating);
    if (seat.bot_account) item.append(el("span", { class: "bot-tag", title: t("a bot account: a program plays this seat"), text: t("BOT") }));
    if (seat.host) item.append(el("span", { class: "host-tag", title: t("the room's host: may free a bot's seat for a friend"), text: t("host") }));
    if (seat.kind === "bot") {
      item.append(el("span", { class: "bot-about", text: describeLevel(room.options.ruleset, seat.level) }));
    }
    if (seat.kind === "human") {
      item.append(seat.connected ? el("span", { class: "seat-state", text: seat.ready ? t("ready") : t("not ready") })
        : absence(room.options.turn_hours != null, "seat-state"));
    } else if (seat.kind === "bot") {
      item.append(el("span", { class: "seat-state", text: t("ready") }));
    }
    const actions = el("span", { class: "seat-actions" });
    if (seat.kind === "empty" && !seated && !guestByPost) {
      actions.append(el("button", { type: "button", class: "take-seat",
        on: { click: async () => {
          const wanted = await name();
          if (wanted) send({ type: "join", name: wanted, seat: seat.seat });
        } } }, t("Take this seat")));
    } else if (seat.kind === "empty" && iAmHost && room.options.turn_hours == null) { // a correspondence room seats no bot
      const bots = botsOf(room.options.ruleset);
      // The level the host has chosen already, if this seat's choice is on screen.
      const chosen = shown.querySelector(`.seat[data-seat='${seat.seat}'] .bot-level`)?.value ?? bots.default;
      const about = el("span", { class: "bot-about" });
      const level = el("select", { class: "bot-level", "aria-label": t("bot level"),
        on: { change: (e) => {
          e.currentTarget.closest(".seat").querySelector(".bot-about").textContent =
            describeLevel(room.options.ruleset, e.currentTarget.value);
        } } },
      bots.levels.map((l) => el("option", { value: l, selected: l === chosen, text: botLevelName(l),
        title: describeLevel(room.options.ruleset, l) })));
      about.textContent = describeLevel(room.options.ruleset, level.value);
      actions.append(level, el("button", { type: "button", class: "add-bot",
        on: { click: (e) => send({ type: "bot", seat: seat.seat,
          level: e.currentTarget.closest(".seat").querySelector(".bot-level").value }) } }, t("Add bot")));
      item.append(about);
    }
    if (iAmHost && seat.kind === "bot" && !seat.stand_in) {
      actions.append(el("button", { type: "button", class: "free-seat secondary",
        title: t("take the bot out, so that a friend can sit here"),
        on: { click: () => send({ type: "free_seat", seat: seat.seat }) } }, t("Let a friend sit here")));
    }
    if (seat.kind === "human" && seat.registered && !mine) {
      // Another registered player may be reported to the moderators (shell/report.js).
      const report = reportButton(seat.name, { room: room.id }, { className: "link seat-report" });
      if (report) actions.append(report);
    }
    if (mine) {
      actions.append(
        el("button", { type: "button", id: "ready", class: seat.ready ? "on" : "",
          "aria-pressed": String(seat.ready),
          on: { click: () => send({ type: "ready", ready: !seat.ready }) } }, seat.ready ? t("Ready ✓") : t("Ready?")),
      );
    }
    item.append(actions);
    list.append(item);
  }
  container.append(list);
  if (seated) {
    // Only our "ready" missing (the lobby's Play a bot): say what it starts.
    const onlyUs = room.seats.every((s) => s.seat === mySeat || s.kind === "bot");
    const me = room.seats.find((s) => s.seat === mySeat);
    const start = starts ?? {
      plots: t("the first turn to plot"),
      turns: t("the first chit comes out of the cup"),
    }[room.pacing] ?? t("a 3-2-1, then everyone places cards at once");
    const help = onlyUs && !me?.ready
      ? t("Press Ready to start: {start}.", { start })
      : t("The match starts when every seat is taken and every player is ready.");
    container.append(el("p", { class: "seat-help", text: help }),
    el("button", { type: "button", id: "watch", class: "secondary",
      on: { click: () => { send({ type: "leave" }); send({ type: "watch" }); } } }, t("Leave my seat and watch")));
  } else if (!guestByPost) {
    const free = room.seats.some((s) => s.kind === "empty");
    container.append(el("p", { class: "seat-help", id: "watching",
      text: free ? t("You are watching. Take a free seat to play.") : t("You are watching: every seat is taken.") }));
  }
}
