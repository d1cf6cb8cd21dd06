// Words the server decides and the page writes in its reader's language: a phrase is
// {message, params} (and {plural, n} when counted), the English message being the
// catalogs' id (src/spacetable/i18n/phrase.py builds them: a hex fleet log line, say). A
// param may itself be a phrase ("facing {facing}"), written first.

import { t, tn } from "./i18n.js";

/**
 * `phrase` in the page's language; a string (an older stored line's text) as it is.
 * `shown` ({name: (value) => text}) writes the plain values of the places it names the
 * page's way, at any depth (the hex fleet's cards: "KH" shown as "R♥" in French).
 */
export function said(phrase, shown = {}) {
  if (phrase === null || phrase === undefined) return "";
  if (typeof phrase !== "object") return String(phrase);
  const params = {};
  for (const [name, value] of Object.entries(phrase.params || {})) {
    if (value !== null && typeof value === "object") params[name] = said(value, shown);
    else params[name] = shown[name] && typeof value === "string" ? shown[name](value) : value;
  }
  return phrase.plural ? tn(phrase.message, phrase.plural, phrase.n, params) : t(phrase.message, params);
}

/** A hex fleet log line ({text, says}) in the page's language (`text` for a line stored
 * without `says`); `shown` as `said`'s. */
export function lineText(line, shown = {}) {
  return line?.says ? said(line.says, shown) : line?.text ?? "";
}

/** A refused request's error (shell/dom.js `fetchJSON`) in the page's language: its phrase
 * (`says`) when the server sent one, else its text; `shown` as `said`'s. */
export function errorText(error, shown = {}) {
  return error?.says ? said(error.says, shown) : error?.message ?? "";
}

/** A refused or failed request of an account page (shell/dom.js `fetchJSON`) as a sentence
 * in the page's language: the server's own (its phrase), else what went wrong (the server
 * cannot answer: its database away, a 503 without a phrase; or no answer at all). */
export function refusalText(error) {
  if (error?.says) return said(error.says);
  if (error?.status) return t("The server cannot answer just now: try again in a minute.");
  return t("The server could not be reached: check your connection and try again.");
}
