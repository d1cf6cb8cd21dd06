// Redraw a panel without replacing what is on screen: the new drawing is built apart, then
// the elements already shown are brought to it in place (attributes, text, listeners),
// and only what is new or gone is added or removed.
//
// A panel drawn again from scratch on every message loses what the player is doing with
// it: a press on a button that is replaced between the press and the release is no click
// (the other player got ready at that moment, and our "Ready" was lost), a field being
// typed in loses its text and the focus. Kept elements keep all of that.

import { LISTENERS, showAttr } from "./dom.js";

/** The key that pairs an old child with a new one: its id, else its tag and data-key. */
function keyOf(node) {
  if (node.nodeType !== Node.ELEMENT_NODE) return `#${node.nodeType}`;
  return node.id ? `id:${node.id}` : `${node.tagName}:${node.dataset?.key ?? ""}`;
}

/** Bring element `old`'s attributes and listeners to those of `fresh` (same tag). */
function patchElement(old, fresh) {
  for (const { name } of [...old.attributes]) {
    if (!fresh.hasAttribute(name)) old.removeAttribute(name);
  }
  for (const { name, value } of [...fresh.attributes]) {
    showAttr(old, name, value);
  }
  const before = old[LISTENERS] ?? {};
  const after = fresh[LISTENERS] ?? {};
  for (const [name, handler] of Object.entries(before)) old.removeEventListener(name, handler);
  for (const [name, handler] of Object.entries(after)) old.addEventListener(name, handler);
  old[LISTENERS] = after;
  morphChildren(old, fresh);
}

/**
 * Make `target`'s children those of `fresh` (an element built apart with `el`, not in the
 * page), keeping each child of `target` that has a counterpart of the same key (id, or
 * tag and `data-key`) in the same order. A field the player typed in keeps its text: its
 * `value` attribute changes, not what is typed.
 */
export function morphChildren(target, fresh) {
  let cursor = target.firstChild;
  for (const next of [...fresh.childNodes]) {
    const key = keyOf(next);
    const keyed = next.nodeType === Node.ELEMENT_NODE && next.id !== "";
    let match = null;
    for (let old = cursor; old; old = old.nextSibling) {
      if (keyOf(old) === key) {
        match = old;
        break;
      }
      if (!keyed) break; // unkeyed: only the one in its place
    }
    if (match === null) {
      target.insertBefore(next, cursor);
      continue;
    }
    if (match !== cursor) target.insertBefore(match, cursor);
    if (next.nodeType === Node.ELEMENT_NODE) patchElement(match, next);
    else if (match.nodeValue !== next.nodeValue) match.nodeValue = next.nodeValue;
    cursor = match.nextSibling;
  }
  while (cursor) {
    const gone = cursor;
    cursor = cursor.nextSibling;
    gone.remove();
  }
}
