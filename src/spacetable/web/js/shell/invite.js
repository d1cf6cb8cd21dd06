// Invitations that reach people: the name a friend who came by the share link is asked
// for before he sits down (remembered in this browser), and the rematch another player
// asked for, shown to everyone else at the table with Accept and Decline.
//
// API:
//   askName()                          -> Promise of the name typed (saved), or null when
//                                         the visitor closed the question;
//   rematchOffer(side, send)           -> { update(room, mySeat), declined(message, me) }:
//                                         the offer's box, put at the top of `side`.

import { t, tn } from "./i18n.js";
import { el, saveName } from "./dom.js";
import { toast } from "./notices.js";

const TEXT = {
  askTitle: t("What is your name?"),
  askHelp: t("The other players see it beside your seat. This browser remembers it."),
  askLabel: t("Your name"),
  askOk: t("Sit down"),
  askCancel: t("Cancel"),
  asks: (names) => tn("{names} asks for a rematch: the same seats, a new match.", "{names} ask for a rematch: the same seats, a new match.",
    names.length, { names: names.join(t(" and ")) }),
  accept: t("Accept"),
  decline: t("Decline"),
  youDeclined: t("You declined the rematch."),
  declinedYours: (by) => t("{name} declined your rematch.", { name: by }),
  declined: (by, askers) => t("{name} declined the rematch {askers} asked for.", { name: by, askers: askers.join(t(" and ")) }),
};

/** The notices of a rematch declined are news, not errors (shell/notices.js). */
const INFO = { kind: "info" };

/** Ask the visitor's name in a modal dialog; resolves to it (saved) or null. */
export function askName() {
  return new Promise((resolve) => {
    const input = el("input", { id: "ask-name", type: "text", maxlength: 24, required: true,
      autocomplete: "nickname", placeholder: t("your name") });
    const dialog = el("dialog", { id: "name-prompt", class: "name-prompt", "aria-labelledby": "name-prompt-title" },
      el("form", { method: "dialog" },
        el("h2", { id: "name-prompt-title", text: TEXT.askTitle }),
        el("p", { class: "muted", text: TEXT.askHelp }),
        el("label", { class: "name-field" }, `${TEXT.askLabel} `, input),
        el("p", { class: "name-prompt-buttons" },
          el("button", { type: "submit", id: "ask-name-ok", value: "ok" }, TEXT.askOk),
          el("button", { type: "button", id: "ask-name-cancel", class: "secondary",
            on: { click: () => dialog.close("cancel") } }, TEXT.askCancel))));
    dialog.addEventListener("close", () => {
      const name = input.value.trim();
      dialog.remove();
      if (dialog.returnValue === "ok" && name) {
        saveName(name);
        resolve(name);
      } else resolve(null);
    });
    document.body.append(dialog);
    dialog.showModal();
    input.focus();
  });
}

/**
 * The rematch offer's box at the top of `side` (the room's side panel): shown to a seated
 * player while another asked for a rematch and he has not; `send(message)` answers.
 */
export function rematchOffer(side, send) {
  const words = el("p", { class: "rematch-words" });
  const box = el("section", { id: "rematch-offer", class: "rematch-offer panel", role: "alert", hidden: true },
    words,
    el("p", { class: "rematch-buttons" },
      el("button", { type: "button", id: "accept-rematch", on: { click: () => {
        if (send({ type: "rematch" })) box.hidden = true;
      } } }, TEXT.accept),
      el("button", { type: "button", id: "decline-rematch", class: "secondary", on: { click: () => {
        if (send({ type: "decline_rematch" })) box.hidden = true;
      } } }, TEXT.decline)));
  side.prepend(box);
  let shownFor = "";
  return {
    update(room, mySeat) {
      const me = room.seats.find((s) => s.seat === mySeat);
      const askers = room.seats.filter((s) => s.rematch && s.kind === "human" && s.seat !== mySeat).map((s) => s.name);
      const open = room.phase === "over" && me?.kind === "human" && !me.rematch && askers.length > 0;
      // Asked where the player looks: on the end card, under who won (shell/endcard.js).
      const card = document.querySelector(".end-card:not([hidden]) > .end-head");
      if (open && card) {
        if (box.previousElementSibling !== card) card.after(box);
      } else if (!box.isConnected) side.prepend(box); // a card refilled for a new end took it away
      box.hidden = !open;
      const key = open ? askers.join("|") : "";
      if (open && key !== shownFor) {
        words.textContent = TEXT.asks(askers);
        // The box answers; the notice only calls the player to it when it is out of sight.
        const { top, bottom } = box.getBoundingClientRect();
        if (top < 0 || bottom > window.innerHeight) {
          toast(TEXT.asks(askers), 8, { kind: "invite", onClick: () => box.scrollIntoView({ block: "center" }) });
        }
      }
      shownFor = key;
    },
    /** A `rematch_declined` message: tell it, in the words of who we are. */
    declined(message, me) {
      box.hidden = true;
      shownFor = "";
      if (message.by === me) toast(TEXT.youDeclined, 4, INFO);
      else if (message.asked_by.includes(me)) toast(TEXT.declinedYours(message.by), 4, INFO);
      else toast(TEXT.declined(message.by, message.asked_by), 4, INFO);
    },
  };
}
