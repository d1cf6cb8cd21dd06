// The rules page: a section a registered game (GET /api/games, in its order), each one's
// text from its own module (games/<key>/index.js: rules, with its HTML beside it under
// games/<key>/), and the contents built from the same list. A game whose module has no
// rules is named in the contents as having none yet. The pictures are the server's
// (/rules/figures/<name>.svg).

import "../shell/i18n.js"; // the page's language and its switch
import { $, el } from "../shell/dom.js";
import { gameList, loadGame } from "../games/index.js";

/** The game `entry`'s rules: {entry, rules (its module's), html (its text)}; html null without. */
async function rulesOf(entry) {
  const { rules } = await loadGame(entry.key);
  if (!rules) return { entry, rules: null, html: null };
  const answer = await fetch(rules.html);
  if (!answer.ok) throw new Error(`${entry.title}: its rules could not be loaded (${answer.status})`);
  return { entry, rules, html: await answer.text() };
}

const found = await Promise.all((await gameList()).map(rulesOf));
const contents = $("#rules-contents");
const sections = [];
for (const { entry, rules, html } of found) {
  if (!rules) {
    contents.append(el("li", {}, entry.title, el("span", { class: "muted", text: ": no rules written here yet" })));
    continue;
  }
  contents.append(el("li", {}, el("a", { href: `#${entry.key}`, text: entry.title }), `: ${rules.summary}`));
  const section = el("section", { id: entry.key, class: "panel rules-game" }, el("h2", { text: entry.title }));
  section.insertAdjacentHTML("beforeend", html);
  sections.push([section, rules]);
}
// Every section at once, then what each game draws in its own (the laser fleet, say).
$(".rules-end").before(...sections.map(([section]) => section));
if (location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView();
await Promise.all(sections.map(([section, rules]) => rules.show?.(section)));
