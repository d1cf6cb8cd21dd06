/**
 * What every room page tells outside its table: a notice that shows for a few seconds
 * (#message) and the connection badge (#connection). A notice never lies over a control:
 * it takes the top or the bottom of the screen, whichever leaves every button, link and
 * field it would cover free (a rematch's Decline, the Leave button, an order box), and
 * moves again if the page changes under it while it shows.
 */
import { t } from "./i18n.js";
import { $ } from "./dom.js";

let hideTimer = null;
let watchTimer = null;

/** What a player taps or types in: a notice must not lie over one of these. */
const CONTROLS = "button, a[href], input, select, textarea, summary";
/** How often a notice on show checks that it still covers no control (ms). */
const WATCH_MS = 200;

/**
 * Show `text` in the page's notice for `seconds`. `kind`: "alert" (a refusal or an error:
 * red, at the bottom), "info" (news of the table) or "invite" (a question for the player,
 * like a rematch asked: in the accent colour, at the top); each goes to the other end of
 * the screen when its own would cover a control. `onClick` makes the notice a button
 * (e.g. to bring the question into view).
 */
export function toast(text, seconds = 4, { kind = "alert", onClick = null } = {}) {
  const box = $("#message");
  box.textContent = text;
  box.dataset.kind = kind;
  box.onclick = onClick;
  box.classList.toggle("clickable", Boolean(onClick));
  box.dataset.place = kind === "alert" ? "bottom" : "top";
  box.hidden = false;
  keepClear(box);
  clearTimeout(hideTimer);
  clearInterval(watchTimer);
  watchTimer = setInterval(() => keepClear(box), WATCH_MS);
  hideTimer = setTimeout(() => {
    box.hidden = true;
    clearInterval(watchTimer);
  }, seconds * 1000);
}

/** How many visible controls (outside `box`) the rectangle of `box` overlaps. */
function coveredBy(box) {
  const r = box.getBoundingClientRect();
  let count = 0;
  for (const control of document.querySelectorAll(CONTROLS)) {
    if (box.contains(control)) continue;
    const c = control.getBoundingClientRect();
    if (!c.width || !c.height) continue; // hidden
    if (c.left < r.right && c.right > r.left && c.top < r.bottom && c.bottom > r.top) count += 1;
  }
  return count;
}

/**
 * Put the notice at its kind's end of the screen, or where it covers no control: the other
 * end, else the middle; where every place covers one, where it covers the fewest
 * (`data-place`: "top", "bottom" or "middle"; css/room.css).
 */
function keepClear(box) {
  if (box.hidden || !coveredBy(box)) return;
  const own = box.dataset.kind === "alert" ? "bottom" : "top";
  const places = [own, own === "top" ? "bottom" : "top", "middle"];
  let best = null;
  for (const place of places) {
    box.dataset.place = place;
    const covered = coveredBy(box);
    if (!covered) return;
    if (!best || covered < best.covered) best = { place, covered };
  }
  box.dataset.place = best.place;
}

const STATUS_WORDS = () => ({ connecting: t("connecting…"), open: t("connected"), reconnecting: t("reconnecting…"), closed: t("room closed") });

/** The connection badge for a socket's `status` (connecting, open, reconnecting, closed). */
export function showConnectionBadge(status) {
  const badge = $("#connection");
  badge.dataset.status = status;
  badge.textContent = STATUS_WORDS()[status];
}
