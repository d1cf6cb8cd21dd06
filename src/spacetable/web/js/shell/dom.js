// Small DOM and HTTP helpers shared by every page.

import { lang, t } from "./i18n.js";
import { errorText } from "./phrase.js";

const SVG_NS = "http://www.w3.org/2000/svg";
/** Where `el` and `svg` keep the listeners they added to a node (event name -> handler). */
export const LISTENERS = Symbol("listeners");

/** The first element matching `selector` (under `root`, the document by default). */
export function $(selector, root = document) {
  return root.querySelector(selector);
}

/**
 * Create an HTML element. `attrs` keys: `class`, `text`, `dataset` (an object), `on`
 * (event name -> handler); anything else becomes an attribute. `children` are appended
 * (strings become text nodes; null/undefined are skipped).
 */
export function el(tag, attrs = {}, ...children) {
  return build(document.createElement(tag), attrs, children);
}

/** Create an SVG element, like `el`; numbers are written as attributes as they are. */
export function svg(tag, attrs = {}, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

/**
 * A board's SVG in its `.board-box`, the box that takes the board's place in the table's
 * column while the SVG fills it from outside the flex layout (css/room.css: a flexed SVG is
 * laid out again whole, every label on it, at each change on it).
 */
export function inBoardBox(table) {
  return el("div", { class: "board-box" }, table);
}

/** Whether the person asked for less motion: then what would move jumps to where it ends. */
export function reducedMotion() {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

function build(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "text") node.textContent = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key === "on") {
      // Kept on the node too: morph (shell/morph.js) hands them to the node it keeps.
      node[LISTENERS] = { ...node[LISTENERS], ...value };
      for (const [name, handler] of Object.entries(value)) node.addEventListener(name, handler);
    } else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === "string" || typeof child === "number" ? String(child) : child);
  }
  return node;
}

/** Give `node` the text `text` unless it shows it already (a write lays the page out again). */
export function showText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

/**
 * Give `node` attribute `name` = `value` unless it holds it already: an animation asks at
 * every frame for things that mostly stand still, and each write has the page drawn again.
 */
export function showAttr(node, name, value) {
  if (node.getAttribute(name) !== value) node.setAttribute(name, value);
}

/** Show `text` in the error box `box` (hidden while there is no error). */
export function showError(box, text) {
  box.textContent = text;
  box.hidden = false;
}

/** Remove every child of `node`. */
export function clear(node) {
  while (node.firstChild) node.firstChild.remove();
  return node;
}

/**
 * Fetch JSON. Rejects with an Error whose message is the server's `error` or `detail`
 * text when the answer is not 2xx (the error's `status` holds the HTTP status).
 */
export async function fetchJSON(url, options = {}) {
  const response = await fetch(url, options);
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) {
    const text = (body && (body.error || body.detail)) || `${response.status} ${response.statusText}`;
    const error = new Error(typeof text === "string" ? text : JSON.stringify(text));
    error.status = response.status;
    if (body && body.says) error.says = body.says; // the error as a phrase (shell/phrase.js)
    throw error;
  }
  return body;
}

const fetchedOnce = new Map();

/**
 * GET `url`'s JSON once for the page's life (an answer that does not change while the page
 * is open, as GET /api/games): every caller shares the one request. A failed request is
 * forgotten, so the next call asks again.
 */
export function fetchOnce(url) {
  if (!fetchedOnce.has(url)) {
    fetchedOnce.set(url, fetchJSON(url).catch((error) => {
      fetchedOnce.delete(url);
      throw error;
    }));
  }
  return fetchedOnce.get(url);
}

/** POST a JSON body and read the JSON answer (see `fetchJSON`). */
export function postJSON(url, data) {
  return fetchJSON(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(data),
  });
}

/**
 * Why `text` (a file a referee page read) is not JSON, as the server's parser says it: an
 * Error with the line, the column and the problem, and its phrase (`says`) for the reader's
 * language (the browser's own JSON.parse words are English whatever the page's language).
 * Null when the server reads it after all (a byte-order mark, say).
 */
export async function whyNotJSON(text) {
  try {
    await fetchJSON("/api/resolve", { method: "POST", headers: { "Content-Type": "application/json" }, body: text });
  } catch (error) {
    return error;
  }
  return null;
}

/**
 * `text` (a file a referee page read) as JSON: `{ data }`, or `{ error }`, why it is not
 * JSON in the reader's language (the server's words, see whyNotJSON).
 */
export async function readJSON(text) {
  try {
    return { data: JSON.parse(text) };
  } catch {
    const why = await whyNotJSON(text);
    return { error: why ? errorText(why) : t("not valid JSON") };
  }
}

/**
 * Follow a pointer pressed on the page: `onMove(event)` for each pointermove on `target`;
 * when it lifts (pointerup or pointercancel) the listeners go and `onLift(event)` runs.
 * With `pointer` (a pointerId), another pointer's lifting is passed over.
 */
export function followPointer(target, onMove, { onLift = () => {}, pointer = null } = {}) {
  const lift = (e) => {
    if (pointer !== null && e.pointerId !== pointer) return;
    target.removeEventListener("pointermove", onMove);
    target.removeEventListener("pointerup", lift);
    target.removeEventListener("pointercancel", lift);
    onLift(e);
  };
  target.addEventListener("pointermove", onMove);
  target.addEventListener("pointerup", lift);
  target.addEventListener("pointercancel", lift);
}

/** A date (seconds since the epoch) as short local text. */
export function formatTime(seconds) {
  if (!seconds) return "";
  return new Date(seconds * 1000).toLocaleString(lang, {
    year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit",
  });
}

/** Set the page phase that tests (and CSS) wait on: lobby, fast, stop, battle, over. */
export function setPhase(phase) {
  document.body.dataset.phase = phase;
}

/** The player name remembered in this browser ("" if none). */
export function savedName() {
  return localStorage.getItem("spacetable.name") || "";
}

/** Remember the player name for next time. */
export function saveName(name) {
  localStorage.setItem("spacetable.name", name.trim());
}

/**
 * `text` as a quoted HTML attribute value, for markup written as a template string:
 * title=${quoted(t("..."))} (Babel's extraction misses a message written inside quotes).
 */
export function quoted(text) {
  return `"${String(text).replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;")}"`;
}
