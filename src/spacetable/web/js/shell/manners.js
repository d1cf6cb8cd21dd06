// A room's manners, the same in every game (docs/protocol.md, docs/rulings.md M1-M4):
// resign (after a confirm dialog), offer a draw and answer one, leave the seat to a bot and
// take it back, and what to do when an opponent goes away (told at once, with a sound;
// after the grace period: wait, a bot, or claim the win). A match the players stopped ends
// here, with its reason, for every game, on the end card over the table. Mounted by shell/room.js in the side panel:
// what asks for an answer (a draw offered, an opponent gone, our seat to take back) at its
// top; the buttons (Offer a draw, Resign…, Leave) after the player's orders, so that a phone
// player reaches his orders first — after the side panel's element a game marks
// `data-orders` (FTL's plot, the hex fleet's activation), or after the players (the laser
// games give their orders on the table).

import { t, tn } from "./i18n.js";
import { $, clear, el } from "./dom.js";
import { toast } from "./notices.js";
import { sounds } from "./sounds.js";
import { stoppedByPlayers } from "./endings.js";
import { showMatchEnd } from "./endcard.js";
import { missedTurnsWords } from "./missed.js";

/** Every player-facing word of this panel (kept together for translation). */
const T = {
  panel: t("This match"),
  offerDraw: t("Offer a draw"),
  resign: t("Resign…"),
  leave: t("Leave (a bot plays for you)"),
  takeBack: t("Take my seat back"),
  left: t("You left your seat: a bot plays it until you take it back."),
  confirmTitle: t("Resign this match?"),
  confirmDuel: (other) => t("{name} wins at once. This cannot be undone.", { name: other }),
  confirmMany: t("A bot plays your seat to the end and you watch. This cannot be undone."),
  confirmYes: t("Resign"),
  confirmNo: t("Keep playing"),
  offered: (by) => t("{name} offers a draw.", { name: by }),
  accept: t("Accept the draw"),
  decline: t("Decline"),
  waitingDraw: (names) => t("You offered a draw: waiting for {names}.", { names }),
  declined: (by, bot) => (!by ? t("The draw offer is off.") : bot ? t("{name} declined the draw (bots play on unless they are behind).", { name: by })
    : t("{name} declined the draw.", { name: by })),
  away: (who) => t("{name} lost the connection.", { name: who }),
  awayGrace: (s) => t("If not back within {n} s, you choose what happens.", { n: Math.round(s) }),
  awayChoose: t("Not back yet. What now?"),
  waiting: (who) => t("Waiting for {name}…", { name: who }),
  changeMind: t("If he takes too long:"),
  wait: t("Wait for him"),
  bot: t("Let a bot play his seat"),
  claim: t("Claim the win"),
  chose: {
    wait: (by, who) => t("{name} waits for {other}.", { name: by, other: who }),
    bot: (by, who) => t("{name} let a bot play for {other}.", { name: by, other: who }),
    claim: (by) => t("{name} claimed the win.", { name: by }),
  },
  back: (who) => t("{name} is back.", { name: who }),
  leftSeat: (who) => t("{name} left: a bot plays his seat until he is back.", { name: who }),
  resigned: (who) => t("{name} resigned: a bot plays his seat on.", { name: who }),
  // A correspondence room (docs/correspondence.md): a turn's time ran out.
  timedOut: (names, missed, loseAt) =>
    t("Time ran out for {names}: the turn passes (timeouts in a row: {missed}; at {lose_at} the match is lost).", { names, missed, lose_at: loseAt }),
};

/** The manners' notices are news of the table, not errors (shell/notices.js). */
const INFO = { kind: "info" };

export class Manners {
  /** The manners panel of the room `client` (a RoomClient), in the page's side panel. */
  constructor(client) {
    this.client = client;
    this.room = null;
    this.offer = null; // the draw offer waiting, as the server told it
    this.absent = new Map(); // seat -> the last `absent` message
    this.leftToken = null; // the token of the seat we left to a bot
    this.buttons = el("div", { class: "manners-buttons" },
      el("button", { type: "button", id: "offer-draw", class: "secondary", on: { click: () => this.send({ type: "offer_draw" }) } }, T.offerDraw),
      el("button", { type: "button", id: "resign", class: "secondary", on: { click: () => this.confirmResign() } }, T.resign),
      el("button", { type: "button", id: "leave-match", class: "secondary", on: { click: () => this.leave() } }, T.leave));
    this.takeBack = el("div", { class: "manners-left", hidden: true },
      el("p", { text: T.left }),
      el("button", { type: "button", id: "take-back", on: { click: () => this.rejoin() } }, T.takeBack));
    this.note = el("p", { id: "manners-note", class: "manners-note", role: "status", hidden: true });
    // A correspondence room: the hours a turn, whom it waits on, till when (in the banner).
    this.post = el("p", { id: "correspondence", class: "manners-note correspondence-note", hidden: true });
    // ... and, to a player whose own turns ran out in a row, which, and how many more lose.
    this.missed = el("p", { id: "missed-turns", class: "manners-note missed-turns", role: "status", hidden: true });
    this.offerBox = el("div", { id: "draw-offer", class: "manners-alert", role: "group", "aria-labelledby": "draw-offer-text", hidden: true });
    // One group an absent player, each named by its own words (several may be gone at once).
    this.absenceBox = el("div", { id: "absence", class: "manners-alert", hidden: true });
    this.ending = el("div", { id: "ending", class: "manners-ending", role: "status", hidden: true });
    this.dialog = this.resignDialog();
    this.box = el("section", { id: "manners", class: "manners", "aria-label": T.panel, hidden: true },
      this.takeBack, this.offerBox, this.absenceBox);
    this.actions = el("section", { id: "manners-actions", class: "manners", "aria-label": T.panel, hidden: true },
      this.post, this.missed, this.buttons, this.note);
    const side = $(".side");
    side.prepend(this.ending, this.box);
    side.append(this.actions); // placed after the orders once the game's page is built
    document.body.append(this.dialog);
  }

  /** Put the buttons after the orders (a game's `data-orders` element) or the players. */
  place() {
    const anchor = $(".side [data-orders]") || $("#players");
    if (anchor && anchor.nextElementSibling !== this.actions) anchor.after(this.actions);
  }

  send(message) {
    return this.client.socket.send(message);
  }

  /** Where a match's end shows: the room's end panel (one a room: a `#winner` once), else ours. */
  get endPanel() {
    return this.client.endPanel || this.ending;
  }

  /** A server message; true when the manners alone handle it (a match the players stopped). */
  receive(message) {
    switch (message.type) {
      case "room": this.onRoom(message); return false;
      case "welcome": this.onWelcome(message); return false;
      case "draw_offer": this.onOffer(message); return true;
      case "draw_declined": this.onDeclined(message); return true;
      case "absent": this.onAbsent(message); return true;
      case "absence_choice": this.onChoice(message); return true;
      case "resigned": toast(T.resigned(message.player), 4, INFO); return true;
      case "timed_out": {
        // A turn that passes; not the one that loses the match: the end card says that (this
        // toast said "the turn passes" over it).
        const missed = Math.max(...Object.values(message.missed));
        if (missed < message.lose_at) toast(T.timedOut(message.players.join(", "), missed, message.lose_at), 6, INFO);
        return true;
      }
      case "result":
      case "battle": return this.onEnd(message);
      default: return false;
    }
  }

  seated() {
    return this.client.me.role === "player";
  }

  onWelcome(message) {
    if (message.role === "player") {
      this.leftToken = null;
      // Our own absence, heard while the page watched before taking the seat back: it is
      // the others' to decide, and we are back.
      this.absent.delete(message.seat);
    }
    queueMicrotask(() => this.render());
  }

  onRoom(room) {
    const before = this.room;
    this.room = room;
    if (room.phase !== "playing") {
      this.offer = null;
      this.absent.clear();
    }
    if (before && before.phase === "playing" && room.phase === "playing") {
      room.seats.forEach((seat, i) => {
        const was = before.seats[i];
        if (!was) return;
        if (seat.seat === this.client.me.seat && this.seated()) {
          this.absent.delete(i); // never a question about our own seat
          return;
        }
        if (was.kind === "human" && seat.kind === "bot" && seat.stand_in && !this.absent.has(i)) toast(T.leftSeat(seat.name), 4, INFO);
        if (this.absent.has(i) && (seat.kind !== "human" || seat.connected)) {
          if (seat.kind === "human") toast(T.back(seat.name), 4, INFO);
          this.absent.delete(i);
        }
      });
    }
    if (room.phase === "playing") this.endPanel.hidden = true;
    this.render();
  }

  render() {
    const playing = this.room?.phase === "playing";
    this.place();
    this.actions.hidden = !playing || !this.seated();
    this.takeBack.hidden = !this.leftToken || this.seated();
    this.renderOffer();
    this.renderAbsence();
    this.renderPost();
    this.box.hidden = !playing || (this.takeBack.hidden && this.offerBox.hidden && this.absenceBox.hidden);
  }

  renderPost() {
    const post = this.room?.correspondence;
    // No bot plays by correspondence: the seat waits for its player, so there is no "leave".
    const leave = this.buttons.querySelector("#leave-match");
    if (leave) leave.hidden = Boolean(post);
    this.post.hidden = !post || this.room?.phase !== "playing";
    this.missed.hidden = true;
    if (this.post.hidden) return;
    // In the banner, under whose turn it is: at the foot of a laptop's side column it was
    // below the fold, and screens down a phone's page.
    const status = $("#status");
    if (status && this.post.previousElementSibling !== status) status.after(this.post);
    if (this.post.nextElementSibling !== this.missed) this.post.after(this.missed);
    const parts = [tn("{n} hour a turn", "{n} hours a turn", post.turn_hours, { n: post.turn_hours })];
    // The player it waits on reads "Your move", not his own name, and only that: FTL waits
    // on everyone still to plot, and "Your move · Waiting for Bob" said both at once.
    const me = this.seated() ? this.client.me.player : null;
    const mine = me !== null && post.waiting.includes(me);
    if (mine) parts.push(t("Your move"));
    else if (post.waiting.length) parts.push(t("Waiting for {names}", { names: post.waiting.join(", ") }));
    if (post.deadline) {
      const when = new Intl.DateTimeFormat(document.documentElement.lang || undefined, { dateStyle: "short", timeStyle: "short" });
      parts.push(t("until {time}", { time: when.format(new Date(post.deadline * 1000)) }));
    }
    this.post.textContent = parts.join(" · ");
    const warning = me === null ? "" : missedTurnsWords(post.ran_out?.[me], post.missed?.[me], post.lose_at ?? 3);
    this.missed.textContent = warning;
    this.missed.hidden = !warning;
  }

  // -- resigning and leaving ---------------------------------------------------------------

  resignDialog() {
    const dialog = el("dialog", { id: "resign-dialog", class: "manners-dialog", "aria-labelledby": "resign-title", "aria-describedby": "resign-words" },
      el("h2", { id: "resign-title", text: T.confirmTitle }),
      el("p", { id: "resign-words" }),
      el("div", { class: "dialog-buttons" },
        el("button", { type: "button", id: "confirm-resign", class: "danger", on: { click: () => {
          dialog.close();
          this.send({ type: "resign" });
        } } }, T.confirmYes),
        el("button", { type: "button", id: "cancel-resign", autofocus: true, on: { click: () => dialog.close() } }, T.confirmNo)));
    dialog.addEventListener("close", () => $("#resign")?.focus());
    return dialog;
  }

  confirmResign() {
    const others = (this.room?.seats || []).filter((s) => s.seat !== this.client.me.seat);
    $("#resign-words", this.dialog).textContent = others.length === 1 ? T.confirmDuel(others[0].name) : T.confirmMany;
    this.dialog.showModal();
    $("#cancel-resign", this.dialog).focus(); // the safe answer first
  }

  leave() {
    this.leftToken = this.client.socket.token;
    this.send({ type: "leave" });
    this.send({ type: "watch" });
  }

  rejoin() {
    if (!this.leftToken) return;
    this.client.socket.token = this.leftToken;
    this.client.rejoining = true;
    this.send({ type: "rejoin", token: this.leftToken });
  }

  // -- draws ---------------------------------------------------------------------------------

  onOffer(message) {
    const mine = message.waiting.includes(this.client.me.seat) && this.seated();
    if (mine && !this.offer) sounds.offer();
    this.offer = message;
    this.render();
    if (mine) $("#draw-offer-text").focus({ preventScroll: true });
  }

  onDeclined(message) {
    this.offer = null;
    toast(T.declined(message.by, message.bot), 4, INFO);
    this.render();
  }

  renderOffer() {
    const offer = this.room?.phase === "playing" ? this.offer : null;
    const me = this.client.me.seat;
    const asked = offer && this.seated() && offer.waiting.includes(me);
    const own = offer && this.seated() && offer.seat === me;
    clear(this.offerBox);
    this.offerBox.hidden = !asked;
    this.note.hidden = !own;
    if (own) {
      const names = offer.waiting.map((i) => this.room.seats[i]?.name).join(", ");
      this.note.textContent = T.waitingDraw(names);
    }
    $("#offer-draw").disabled = Boolean(offer);
    if (!asked) return;
    this.offerBox.append(
      el("p", { id: "draw-offer-text", tabindex: -1, role: "alert", text: T.offered(offer.by) }),
      el("div", { class: "dialog-buttons" },
        el("button", { type: "button", id: "accept-draw", on: { click: () => this.send({ type: "answer_draw", accept: true }) } }, T.accept),
        el("button", { type: "button", id: "decline-draw", class: "secondary", on: { click: () => this.send({ type: "answer_draw", accept: false }) } }, T.decline)));
  }

  // -- absences ------------------------------------------------------------------------------

  onAbsent(message) {
    // A page taking its seat back catches up while it watches: perhaps on its own absence,
    // which is no news to its player.
    if (!this.absent.has(message.seat) && !this.client.rejoining) {
      sounds.away();
      toast(T.away(message.player), 4, INFO);
    }
    this.absent.set(message.seat, message);
    this.render();
  }

  onChoice(message) {
    const who = this.room?.seats[message.seat]?.name || t("seat {seat}", { seat: message.seat + 1 });
    // Our own "wait" is said by the dialog itself ("Waiting for him…"): no notice about it.
    const mine = message.by === this.room?.seats[this.client.me.seat]?.name;
    if (!(mine && message.choice === "wait")) toast(T.chose[message.choice](message.by, who), 4, INFO);
    const away = this.absent.get(message.seat);
    if (message.choice !== "wait") this.absent.delete(message.seat);
    else if (away) away.waited = true; // the choice registered: the dialog says so
    this.render();
  }

  renderAbsence() {
    clear(this.absenceBox);
    const me = this.client.me.seat;
    const shown = this.seated() && this.room?.phase === "playing"
      ? [...this.absent.values()].filter((away) => away.seat !== me) // the others decide about ours
      : [];
    this.absenceBox.hidden = shown.length === 0;
    const labels = { wait: T.wait, bot: T.bot, claim: T.claim };
    for (const away of shown) {
      // Once someone chose to wait, the dialog says so and keeps the other answers.
      const waited = away.waited && away.choices.length;
      const choices = waited ? away.choices.filter((choice) => choice !== "wait") : away.choices;
      const words = waited ? `${T.waiting(away.player)} ${T.changeMind}`
        : `${T.away(away.player)} ${away.choices.length ? T.awayChoose : T.awayGrace(away.grace_left_s ?? away.grace_s)}`;
      const textId = `absence-text-${away.seat}`;
      this.absenceBox.append(el("div", { class: "absence", role: "group", "aria-labelledby": textId, dataset: { seat: away.seat } },
        el("p", { id: textId, class: "absence-text", role: waited ? "status" : "alert", text: words }),
        ...(choices.length ? [el("div", { class: "dialog-buttons" }, ...choices.map((choice) =>
          el("button", { type: "button", class: choice === "claim" ? "" : "secondary", dataset: { choice },
            on: { click: () => this.send({ type: "absence", seat: away.seat, choice }) } }, labels[choice])))] : [])));
    }
  }

  // -- the end of a match the players stopped ---------------------------------------------------

  onEnd(message) {
    this.offer = null;
    this.absent.clear();
    this.render();
    const result = message.result;
    if (!stoppedByPlayers(result)) return false;
    // The end every game's room shows (shell/endcard.js), in the room's one place for it.
    showMatchEnd(this.client, this.endPanel, { result, matchId: message.match_id || this.room?.match_id });
    this.box.hidden = true;
    this.actions.hidden = true;
    this.client.matchStopped?.(message); // the game's room never hears this result itself
    return true;
  }
}
