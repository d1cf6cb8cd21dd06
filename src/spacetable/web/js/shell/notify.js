// Turns that call you back: in the games played a turn at a time (FTL's plots, the hex
// fleet's activations), when it becomes your turn while the tab is hidden, the tab's title
// and icon say so, a short chime plays (the mute applies) and, if the player allowed it,
// the browser shows a notification. Everything goes back as it was when the tab is seen
// again or the turn passes. The permission is asked only when the player presses the
// "Tell me when it is my turn" button (mounted in the room's side panel), never on load.
//
// API:
//   yourTurn(mine, what)  a game's one call, on every state: `mine` whether the player
//                         must act now, `what` the words for it ("Plot your orders").
//   notifyButton()        the button that asks the browser's permission (null when the
//                         browser has no notifications, or the choice is made already).

import { el } from "./dom.js";
import { sounds } from "./sounds.js";
import { t } from "./i18n.js";

const TEXT = {
  get title() {
    return t("▶ Your turn");
  },
  get button() {
    return t("Tell me when it is my turn");
  },
  get buttonTitle() {
    return t("a notification when your turn comes while this tab is hidden");
  },
  get allowed() {
    return t("You will be told when it is your turn.");
  },
  get denied() {
    return t("Notifications are blocked for this site: the tab's title will still say it.");
  },
};

/** A small round icon, the table's accent colour with a white play mark: "your turn". */
const TURN_ICON = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="15" fill="#f5a623"/>'
  + '<path d="M12 9l11 7-11 7z" fill="#fff"/></svg>')}`;

let calling = false; // the tab says "your turn" now
let wasMine = false; // the last call's `mine`
let plainTitle = null; // the title to put back
let plainIcon = null; // the icon link's href to put back ("" when the page had none)
let notice = null; // the Notification shown, if any

function iconLink() {
  let link = document.querySelector("link[rel~='icon']");
  if (!link) {
    link = el("link", { rel: "icon", href: "" });
    document.head.append(link);
  }
  return link;
}

/** Say "your turn" in the tab's title and icon, chime, and notify when allowed. */
function call(what) {
  if (calling) return;
  calling = true;
  plainTitle = document.title;
  const link = iconLink();
  plainIcon = link.getAttribute("href") || "";
  document.title = `${TEXT.title} · ${plainTitle}`;
  link.setAttribute("href", TURN_ICON);
  document.body.dataset.calling = "true";
  sounds.yourTurn();
  if (window.Notification?.permission === "granted") {
    try {
      notice = new Notification(TEXT.title, { body: what, tag: "spacetable-turn" });
      notice.onclick = () => window.focus();
    } catch {
      notice = null; // some browsers allow notifications from a service worker only
    }
  }
}

/** Put the title and icon back; close the notification. */
function hangUp() {
  if (!calling) return;
  calling = false;
  document.title = plainTitle;
  iconLink().setAttribute("href", plainIcon);
  delete document.body.dataset.calling;
  notice?.close();
  notice = null;
}

document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") hangUp();
});

/**
 * The game's one call, on each state it shows: whether the player must act now (`mine`),
 * and what (`what`, the notification's words). The tab calls when the turn becomes his
 * while it is hidden; it stops when the tab is seen or the turn passes.
 */
export function yourTurn(mine, what = "") {
  const began = mine && !wasMine;
  wasMine = mine;
  if (!mine) hangUp();
  else if (began && document.visibilityState === "hidden") call(what);
}

/** The button that asks for the browser's notifications; null when there is nothing to ask. */
export function notifyButton() {
  if (!window.Notification || Notification.permission !== "default") return null;
  const button = el("button", { type: "button", id: "notify-turn", class: "secondary notify-button", title: TEXT.buttonTitle }, TEXT.button);
  button.addEventListener("click", async () => {
    let answer = "default";
    try {
      answer = await Notification.requestPermission();
    } catch {
      answer = "denied";
    }
    button.replaceWith(el("p", { class: "notify-answer muted", text: answer === "granted" ? TEXT.allowed : TEXT.denied }));
  });
  return button;
}
