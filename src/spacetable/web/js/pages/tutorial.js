// The tutorial: a newcomer learns by doing, one short step at a time. The course is the
// registered games' lessons (GET /api/games, in its order; each game module's `tutorial`):
// the lessons of the basics (`basics`: Light Speed, FTL) first, then the others; the page
// lists them at the top with their number of steps; a game with no lesson of its own says
// what it is at the end of the lesson its module's `lessonNote` names. Each lesson ends
// with its finale: a first match of that game against its beginner bot (the page adds the
// "Play your first match" button, api.firstMatch). Each step says what to do, notices when
// it is done and only then offers Next; every lesson but the last offers a skip to the
// next one. The tutorial is complete only at the last finale. A lesson builds its own table
// and panels in the page (api.table, api.side); the page shows the parts of the lesson on
// show and hides the others'.
//
// `/tutorial?game=<key>` starts at that game's lesson (as on the referee page).
//
// The page's state for tests: body[data-step] is the current step's id, body[data-done] is
// "yes" once the step is done, body[data-lesson] the key of the lesson on show, and
// body[data-complete] "yes" once the last step is done.

import { t, tn } from "../shell/i18n.js"; // (and the page's language switch)
import { $, clear, el, postJSON } from "../shell/dom.js";
import { gameList, loadGame } from "../games/index.js";

/** Every lesson in the course's order, each {key, title, entry (its GET /api/games entry), lesson, parts}. */
const lessons = [];
/** The course: every step, each with its lesson (`owner`) and the game it names (`game`). */
const steps = [];
/** What games with no lesson of their own say of themselves (their module's `lessonNote`:
 * {lesson, text}, told at the end of that lesson). */
const notes = [];
let index = 0;
let shown = null; // the lesson whose parts are on the page
const skip = el("button", { type: "button", class: "link-button", hidden: true });

/** What the page offers the lesson `record`: its status line, its step's state, its parts. */
function apiFor(record) {
  const place = (box) => (...nodes) => {
    box.append(...nodes);
    record.parts.push(...nodes);
    return nodes;
  };
  return {
    say,
    done,
    undone,
    isDone: () => document.body.dataset.done === "yes",
    stepId: () => steps[index]?.id,
    actions: () => $("#step-actions"),
    table: place($("#table-wrap")),
    side: place($(".tutorial-side")),
    firstMatch: (options) => firstMatchButton(record, options),
    // What the first match's room will be, unless its body says otherwise: the default of
    // room option `name` in the game's own options (GET /api/games), never a copy of it.
    roomDefault: (name) => record.entry.options?.properties?.[name]?.default,
  };
}

/** The ruleset a room of the game `entry` (its GET /api/games entry) is opened with. */
function rulesetOf(entry) {
  return entry.options?.properties?.ruleset?.const ?? entry.rulesets[0];
}

/**
 * The finale's button of lesson `record`: "Play your first match" opens a two-seat room of
 * its game (`body`: more of the room's options) and seats us, then its beginner bot (or
 * `level`), as the lobby's "Play a bot" does. `id`: the button's id.
 */
function firstMatchButton(record, { id, body = {}, level = null }) {
  const button = el("button", { type: "button", class: "play-first", id, text: t("Play your first match"),
    "aria-describedby": "step-title" });
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      const room = await postJSON("/api/rooms", { ruleset: rulesetOf(record.entry), seats: 2, ...body });
      const bot = level || record.entry.beginner_bot || record.entry.default_bot;
      location.href = `/rooms/${encodeURIComponent(room.id)}?join=1&bots=1:${encodeURIComponent(bot)}`;
    } catch (error) {
      button.disabled = false;
      say(t("The room could not be created: {error}", { error: error.message }));
    }
  });
  return button;
}

/** The parts of lesson `record` step aside (their own hidden state kept) or come back. */
function showParts(record, on) {
  for (const node of record.parts) {
    if (!on) node.dataset.shown = node.hasAttribute("hidden") ? "no" : "yes";
    // toggleAttribute: an <svg> has no `hidden` property.
    node.toggleAttribute("hidden", !on || node.dataset.shown === "no");
  }
}

/** Lesson `record` takes the page: the last one's leaves it first. */
function switchTo(record) {
  if (record === shown) return;
  if (shown) {
    shown.lesson.leave?.();
    showParts(shown, false);
  }
  shown = record;
  showParts(record, true);
  document.body.dataset.lesson = record.key;
  for (const item of document.querySelectorAll("#lessons .lesson")) item.classList.toggle("current", item.dataset.lesson === record.key);
}

function showStep(i) {
  index = i;
  const step = steps[i];
  switchTo(step.owner);
  document.body.dataset.step = step.id;
  document.body.dataset.done = "no";
  const progress = clear($("#progress"));
  steps.forEach((s, k) => {
    progress.append(el("li", { class: k < i ? "done" : k === i ? "current" : "", "aria-current": k === i ? "step" : null,
      title: s.title }, el("span", { class: "visually-hidden", text: k < i ? t("{step} (done)", { step: s.title }) : s.title })));
  });
  $("#step-count").textContent = t("Step {n} of {count}", { n: i + 1, count: steps.length }) + (step.game ? ` · ${step.game}` : "");
  $("#step-title").textContent = step.title;
  const text = clear($("#step-text"));
  for (const paragraph of step.text) {
    const p = el("p");
    p.innerHTML = paragraph; // our own fixed strings
    text.append(p);
  }
  say("");
  clear($("#step-actions"));
  const next = $("#next");
  // Next is disabled until the new step is done, which would drop its focus to the page's
  // top: a keyboard (or screen reader) goes on from the new step's title instead.
  const advanced = document.activeElement === next;
  next.disabled = true;
  next.hidden = i === steps.length - 1;
  showSkip(step);
  step.enter();
  if (advanced && [next, document.body].includes(document.activeElement)) $("#step-title").focus({ preventScroll: true });
  // On a narrow screen the step sits above the table: bring it back into view.
  if (i > 0 && matchMedia("(max-width: 820px)").matches) $(".tutorial-step").scrollIntoView({ block: "start" });
}

/** Every lesson but the last offers a link to the next one. */
function showSkip(step) {
  const to = lessons[lessons.indexOf(step.owner) + 1];
  skip.hidden = !to;
  if (!to) return;
  skip.id = `skip-${to.key}`;
  skip.textContent = t("Skip to {lesson}", { lesson: to.title });
  skip.onclick = () => showStep(steps.findIndex((s) => s.owner === to));
}

/** The step is done: say so and offer Next; the last step completes the tutorial. */
function done(message) {
  document.body.dataset.done = "yes";
  const last = index === steps.length - 1;
  document.body.dataset.complete = last ? "yes" : "";
  say(last ? `${message} ${t("Tutorial complete: you have tried every game.")}` : message, "done");
  const next = $("#next");
  next.disabled = false;
  if (!next.hidden) next.focus({ preventScroll: true });
}

/** The step is not done any more (the player undid it): say why, and Next waits again. */
function undone(message) {
  document.body.dataset.done = "no";
  $("#next").disabled = true;
  say(message);
}

/** A line under the step: what just happened, a hint, or (kind "done") the step done. */
function say(message, kind = "") {
  const status = $("#step-status");
  status.textContent = message;
  status.className = `tutorial-status ${kind}`;
}

/** Every registered game's lesson, in the registry's order; a lesson that fails is named. */
async function loadLessons() {
  const games = await gameList();
  const modules = await Promise.all(games.map((entry) => loadGame(entry.key)));
  const failed = [];
  for (const [k, entry] of games.entries()) {
    if (modules[k].lessonNote) notes.push(modules[k].lessonNote);
    if (!modules[k].tutorial) continue;
    const record = { key: entry.key, title: entry.title, entry, parts: [] };
    try {
      record.lesson = await modules[k].tutorial(apiFor(record));
      lessons.push(record);
    } catch (error) {
      failed.push(t("{game}'s lesson could not be loaded ({error})", { game: entry.title, error: error.message }));
    }
  }
  return failed;
}

/**
 * The course in order: the basics' lessons, then the others, each lesson's steps then
 * its finale (its first match); a finale that is not the last step names what Next brings.
 */
function buildCourse() {
  lessons.sort((a, b) => Number(Boolean(b.lesson.basics)) - Number(Boolean(a.lesson.basics)));
  for (const [k, record] of lessons.entries()) {
    const game = record.title;
    steps.push(...record.lesson.steps.map((step) => ({ ...step, owner: record, game })));
    const { finale } = record.lesson;
    if (!finale) continue;
    const after = lessons.slice(k + 1).map((other) => `${other.title}${other.lesson.pitch ? ` (${other.lesson.pitch})` : ""}`);
    const told = [...finale.text, ...notes.filter((note) => note.lesson === record.key).map((note) => note.text)];
    const text = after.length
      ? [...told, tn("Or press <b>Next</b> to learn another game first: {games}.", "Or press <b>Next</b> to learn the other games first: {games}.", after.length, { games: after.join(", ") })]
      : told;
    steps.push({ ...finale, text, owner: record, game });
  }
}

/**
 * The course told honestly at the top of the step: its lessons, each with its number of
 * steps (the one on show in bold).
 */
function showLessons() {
  const line = clear($("#lessons"));
  line.append(tn("{n} lesson:", "{n} lessons:", lessons.length, { n: lessons.length }), " ");
  lessons.forEach((record, k) => {
    const count = steps.filter((s) => s.owner === record).length;
    if (k) line.append(" · ");
    line.append(el("span", { class: "lesson", dataset: { lesson: record.key, steps: count },
      text: tn("{game} ({n} step)", "{game} ({n} steps)", count, { game: record.title, n: count }) }));
  });
}

async function main() {
  const failed = await loadLessons();
  buildCourse();
  showLessons();
  $("#next").before(skip);
  $("#next").addEventListener("click", () => {
    if (index < steps.length - 1) showStep(index + 1);
  });
  if (!steps.length) {
    say(`${failed.join("; ") || t("No game has a lesson")}. ${t("Reload the page.")}`);
    return;
  }
  const wanted = new URLSearchParams(location.search).get("game");
  const first = steps.findIndex((s) => s.owner.key === wanted && s.game);
  showStep(Math.max(0, first));
  if (failed.length) say(`${failed.join("; ")}. ${t("Reload the page to try again.")}`);
}

main();
