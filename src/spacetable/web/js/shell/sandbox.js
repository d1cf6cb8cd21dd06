// What a game's referee sandbox gets from the referee page (pages/referee.js): the page is
// the frame only (the header, the game choice, an empty table area and side column); each
// game's `referee(ctx)` adds its own parts there once and hands them back as `parts`, so
// the page shows the chosen game's parts and hides the others'.

import { $ } from "./dom.js";

/**
 * Show `message` (text, or parts as tParts gives them) in a sandbox's error box `box`
 * (empty: hide it), where the referee looks.
 * Every game's sandbox says its errors so, and forgets them when the page shows another
 * game's sandbox (their `leave()`): an old error is about a table put away.
 */
export function showSandboxError(box, message) {
  if (!box) return;
  const parts = [message || ""].flat();
  box.replaceChildren(...parts);
  box.hidden = !box.textContent;
  if (!box.hidden) box.scrollIntoView?.({ block: "nearest" });
}

/** The elements of the static markup `html` (a game's own panels), in order. */
export function nodesOf(html) {
  const template = document.createElement("template");
  template.innerHTML = html.trim();
  return [...template.content.children];
}

/**
 * Add a sandbox's parts to the referee page: `table` in the table's place, `side` in the
 * side column under the game choice. Returns every element added: the sandbox's parts.
 */
export function mountSandbox({ table = [], side = [] }) {
  $("#table-wrap").append(...table);
  $(".side").append(...side);
  return [...table, ...side];
}
