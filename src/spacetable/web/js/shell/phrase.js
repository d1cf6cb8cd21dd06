// Words the server decides and the page writes in its reader's language: a phrase is
// {message, params} (and {plural, n} when counted), the English message being the
// catalogs' id (src/spacetable/i18n/phrase.py builds them: a hex fleet log line, say). A
// param may itself be a phrase ("facing {facing}"), written first.

import { t, tn } from "./i18n.js";

/** `phrase` in the page's language; a string (an older stored line's text) as it is. */
export function said(phrase) {
  if (phrase === null || phrase === undefined) return "";
  if (typeof phrase !== "object") return String(phrase);
  const params = {};
  for (const [name, value] of Object.entries(phrase.params || {})) {
    params[name] = value !== null && typeof value === "object" ? said(value) : value;
  }
  return phrase.plural ? tn(phrase.message, phrase.plural, phrase.n, params) : t(phrase.message, params);
}

/** A hex fleet log line ({text, says}) in the page's language (`text` for a line stored without `says`). */
export function lineText(line) {
  return line?.says ? said(line.says) : line?.text ?? "";
}

/** A refused request's error (shell/dom.js `fetchJSON`) in the page's language: its phrase
 * (`says`) when the server sent one, else its text. */
export function errorText(error) {
  return error?.says ? said(error.says) : error?.message ?? "";
}
