// Every word the page shows, in the reader's language.
//
// The server writes each page in the reader's language (<html lang>: the link's ?lang=,
// else the language picked on the switch, else the browser's Accept-Language) and serves
// the same gettext catalogs the Python side reads as JSON (/i18n/<lang>.json). The code
// writes its messages in English, the source language: t("Create room"),
// t("Cannot open a room: {error}", { error }), tn("{n} rock", "{n} rocks", n). Plurals and
// numbers come from the browser's own Intl API (Intl.PluralRules gives the CLDR category
// the catalog's forms are keyed by, Intl.NumberFormat writes "2,5" in French): no library
// to load, and the same CLDR data Babel uses on the server.
//
// The switch (a menu in the page's top bar) remembers the choice in this browser
// (localStorage, and the `lang` cookie the server reads) and reloads the page in it.

const STORAGE_KEY = "spacetable.lang";
const root = document.documentElement;

/** The page's language, as the server chose it. */
export const lang = root.lang || "en";

/** The languages the switch offers: [[code, own name], ...]. */
export const languages = (() => {
  try {
    return JSON.parse(root.dataset.languages || "[]");
  } catch {
    return [];
  }
})();

async function loadCatalog() {
  if (lang === "en") return { messages: {} };
  try {
    const response = await fetch(`/i18n/${encodeURIComponent(lang)}.json`);
    if (response.ok) return await response.json();
  } catch {
    // Offline or the server restarting: the page stays in English rather than broken.
  }
  return { messages: {} };
}

const catalog = await loadCatalog();
const messages = catalog.messages || {};
const plurals = new Intl.PluralRules(lang);
const decimals = new Intl.NumberFormat(lang, { maximumFractionDigits: 2 });

/** The formatters made for `num`'s options, by their JSON (a countdown asks at each tick). */
const formats = new Map();

/** `value` written the reader's way ("2,5" in French); `options` as Intl.NumberFormat's. */
export function num(value, options) {
  if (!options) return decimals.format(value);
  const key = JSON.stringify(options);
  let format = formats.get(key);
  if (!format) formats.set(key, (format = new Intl.NumberFormat(lang, options)));
  return format.format(value);
}

/** Every game's bot levels in words ("easy bot"), in the page's language. */
function botLevels() {
  return { beginner: t("beginner bot"), random: t("random bot"), easy: t("easy bot"), medium: t("medium bot"),
    hard: t("hard bot"), greedy: t("greedy bot"), tactical: t("tactical bot"), expert: t("expert bot") };
}

/** A bot level in words: "beginner bot" (a level no game had when this was written: "{level} bot"). */
export function botLevelName(level) {
  return botLevels()[level] || t("{level} bot", { level });
}

/** The names the server gives bots ("easy bot", "easy bot 2"): their level, and a number. */
const BOT_NAME = /^(beginner|random|easy|medium|hard|greedy|tactical|expert) bot( \d+)?$/;

/** The names the chat gives spectators who write ("spectator 1"): counted in the room. */
const SPECTATOR_NAME = /^spectator (\d+)$/;

/** The names the example tables and the photo referee give players: their colour. */
const COLOUR_NAME = /^(red|blue|green|purple)$/;

/**
 * A player's name as the page shows it: a bot's ("easy bot"), a colour's ("red") or a
 * spectator's in the chat ("spectator 1") in the page's language, any other as it is. (The
 * name stays the player's id everywhere else.)
 */
export function playerName(name) {
  if (typeof name === "string" && COLOUR_NAME.test(name)) {
    return { red: t("red"), blue: t("blue"), green: t("green"), purple: t("purple") }[name];
  }
  const watcher = typeof name === "string" ? SPECTATOR_NAME.exec(name) : null;
  if (watcher) return t("spectator {n}", { n: Number(watcher[1]) });
  const found = typeof name === "string" ? BOT_NAME.exec(name) : null;
  if (!found) return name;
  return botLevels()[found[1]] + (found[2] || "");
}

function shown(value) {
  return typeof value === "number" ? num(value) : String(playerName(value));
}

function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? shown(params[name]) : whole));
}

/** `message` (its English text) in the page's language, its {name} places filled. */
export function t(message, params) {
  const found = messages[message];
  return fill(typeof found === "string" && found ? found : message, params);
}

/** The form of a counted message that suits `n` ({n} in it is `n`, written the reader's way). */
export function tn(singular, plural, n, params) {
  const all = { n, ...params };
  const forms = messages[singular];
  if (forms && typeof forms === "object") {
    const text = forms[plurals.select(n)] || forms.other;
    if (text) return fill(text, all);
  }
  return fill(n === 1 ? singular : plural, all);
}

function parts(text, params) {
  const out = [];
  let last = 0;
  for (const match of text.matchAll(/\{(\w+)\}/g)) {
    if (!(match[1] in params)) continue;
    if (match.index > last) out.push(text.slice(last, match.index));
    const value = params[match[1]];
    out.push(value !== null && typeof value === "object" ? value : shown(value));
    last = match.index + match[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/**
 * `message` in the page's language as parts: its text, with each {name} place whose value
 * is an object (a ship to draw as a mention, say) left as that object, in the order the
 * language puts them: ["Ann's Moth", " hits ", {card}] for "{ship} hits {target}".
 */
export function tParts(message, params = {}) {
  const found = messages[message];
  return parts(typeof found === "string" && found ? found : message, params);
}

/** `tParts` for a counted message (as `tn`). */
export function tnParts(singular, plural, n, params = {}) {
  const all = { n, ...params };
  const forms = messages[singular];
  const text = forms && typeof forms === "object" ? forms[plurals.select(n)] || forms.other : null;
  return parts(text || (n === 1 ? singular : plural), all);
}

function remember(code) {
  try {
    localStorage.setItem(STORAGE_KEY, code);
  } catch {
    // Storage refused (private mode): the cookie still carries the choice.
  }
  document.cookie = `lang=${encodeURIComponent(code)}; path=/; max-age=31536000; SameSite=Lax`;
}

function remembered() {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

function cookie() {
  return document.cookie.split("; ").find((c) => c.startsWith("lang="))?.slice(5) ?? null;
}

/**
 * The page again, in language `code`, remembered from then on. The address asks for the
 * language itself (?lang=): the cookie written here reaches Chromium's network process
 * apart from the navigation, and on a busy machine the page's request left without it.
 */
export function switchTo(code) {
  remember(code);
  const url = new URL(location.href);
  url.searchParams.set("lang", code);
  location.replace(url.href);
}

/** The switch: a menu of the languages, each in its own name, in the page's top bar. */
function addSwitch() {
  if (languages.length < 2 || document.getElementById("lang-switch")) return;
  const select = document.createElement("select");
  select.id = "lang-switch";
  select.className = "lang-switch";
  select.setAttribute("aria-label", t("Language"));
  select.setAttribute("translate", "no");
  for (const [code, name] of languages) {
    const option = document.createElement("option");
    option.value = code;
    option.lang = code;
    option.textContent = name;
    select.append(option);
  }
  select.value = lang;
  select.addEventListener("change", () => switchTo(select.value));
  const bar = document.querySelector(".topbar") || document.body;
  bar.append(select);
}

function settle() {
  const asked = new URLSearchParams(location.search).get("lang");
  const known = (code) => languages.some(([c]) => c === code);
  if (asked && known(asked)) {
    remember(asked);
    return;
  }
  // A choice this browser remembers that the server did not hear (its cookie gone): say it.
  const stored = remembered();
  if (stored && stored !== lang && known(stored) && cookie() !== stored) {
    remember(stored);
    location.reload();
  }
}

settle();
addSwitch();
