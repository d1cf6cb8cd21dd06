/**
 * What every room page tells outside its table: a notice that shows for a few seconds
 * (#message) and the connection badge (#connection).
 */
import { $ } from "./dom.js";

let hideTimer = null;

/**
 * Show `text` in the page's notice for `seconds`. `kind`: "alert" (a refusal or an error:
 * red, at the bottom), "info" (news of the table) or "invite" (a question for the player,
 * like a rematch asked: in the accent colour, at the top, where it covers no control);
 * `onClick` makes the notice a button (e.g. to bring the question into view).
 */
export function toast(text, seconds = 4, { kind = "alert", onClick = null } = {}) {
  const box = $("#message");
  box.textContent = text;
  box.dataset.kind = kind;
  box.onclick = onClick;
  box.classList.toggle("clickable", Boolean(onClick));
  box.hidden = false;
  clearTimeout(hideTimer);
  hideTimer = setTimeout(() => { box.hidden = true; }, seconds * 1000);
}

const STATUS_WORDS = { connecting: "connecting…", open: "connected", reconnecting: "reconnecting…", closed: "room closed" };

/** The connection badge for a socket's `status` (connecting, open, reconnecting, closed). */
export function showConnectionBadge(status) {
  const badge = $("#connection");
  badge.dataset.status = status;
  badge.textContent = STATUS_WORDS[status];
}
