// The rules page: a section a registered game (GET /api/games, in its order), each one's
// text from its own module (games/<key>/index.js: rules, with its HTML beside it under
// games/<key>/), and the contents built from the same list. A game whose module has no
// rules is named in the contents as having none yet. The pictures are the server's
// (/rules/figures/<name>.svg). A text is in the page's language when the game has one
// (rules.fr.html beside rules.html, named in its rules.languages), else in English.

import { lang, t, tParts } from "../shell/i18n.js"; // the page's language (and its switch)
import { $, el } from "../shell/dom.js";
import { gameList, loadGame } from "../games/index.js";

/** The text of a game's `rules` in the page's language: rules.<lang>.html beside its
 * rules.html when the game has one (rules.languages), else the English; {answer, lang}. */
async function textOf(rules) {
  const own = rules.languages?.includes(lang);
  const url = own ? rules.html.replace(/\.html$/, `.${lang}.html`) : rules.html;
  return { answer: await fetch(url), lang: own ? lang : "en" };
}

/** The game `entry`'s rules: {entry, rules (its module's), html (its text), lang (the
 * text's)}; html null without. */
async function rulesOf(entry) {
  const { rules } = await loadGame(entry.key);
  if (!rules) return { entry, rules: null, html: null };
  const { answer, lang: textLang } = await textOf(rules);
  if (!answer.ok) throw new Error(t("{game}: its rules could not be loaded ({status})", { game: entry.title, status: answer.status }));
  return { entry, rules, html: await answer.text(), lang: textLang };
}

const found = await Promise.all((await gameList()).map(rulesOf));
const contents = $("#rules-contents");
const sections = [];
for (const { entry, rules, html, lang: textLang } of found) {
  if (!rules) {
    contents.append(el("li", {}, entry.title, el("span", { class: "muted", text: t(": no rules written here yet") })));
    continue;
  }
  const link = el("a", { href: `#${entry.key}`, text: entry.title });
  contents.append(el("li", {}, ...tParts("{game}: {summary}", { game: link, summary: rules.summary })));
  const section = el("section", { id: entry.key, class: "panel rules-game" }, el("h2", { text: entry.title }));
  if (textLang !== lang) section.lang = textLang; // an English text on a page in another language
  section.insertAdjacentHTML("beforeend", html);
  sections.push([section, rules]);
}
// Every section at once, then what each game draws in its own (the laser fleet, say).
$(".rules-end").before(...sections.map(([section]) => section));
if (location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView();
await Promise.all(sections.map(([section, rules]) => rules.show?.(section)));
