// The one place that maps a game's key to its browser module. The registry says which
// games there are and where each one's module lives (GET /api/games: `client`); a page
// asks for a game by key, or by the ruleset of a file or stored match.
//
// Every game's module (games/<key>/index.js) offers the same interface:
//   room(ctx)            play in the room page: ctx {roomId, params, game, describe} (the
//                        page's query, the game's GET /api/games entry, its describe)
//   replay(ctx, match)   show a stored match (GET /api/matches/{id}) on the replay page
//   referee(ctx)         the game's referee sandbox: ctx {onOtherGame(data, name)}; adds
//                        its markup to the referee page once (shell/sandbox.js) and
//                        resolves with {importData(data, name), leave(), parts}
//   lobbyForm(ctx)       the lobby's Create a room form: ctx {game, box, form} (its GET
//                        /api/games entry, the form's <fieldset>, the form built from its
//                        options schema, shell/optionsform.js); adds what the schema cannot
//                        say and returns {body(values), link(room, body)}, each optional
//                        (without it, the schema's form alone)
//   describe(options)    a room's game and options in a few words (the seat panel;
//                        without it, describerOf's title and seats)
//   optionWords(options) the options alone, short (the lobby's open rooms, under the
//                        game's title; without it, describe's sentence)
//   matchScores(summary) a finished match's scores in the game's words, for the match
//                        lists (a GET /api/matches summary: shell/matchlist.js); "" when
//                        none were counted (without it, none are said)
//   rules                the rules page's section: {summary (its line in the contents),
//                        html (the URL of its text, an HTML fragment beside the module),
//                        show(section) (optional: draws what the text cannot hold)};
//                        a game without one is listed as having no rules yet
//   tutorial(api)        the game's lesson in the tutorial (pages/tutorial.js: api holds
//                        say, done, undone, isDone, stepId, actions, table, side,
//                        firstMatch, roomDefault(option): the default of the first
//                        match's room option): {steps, basics (first in the course), finale (the
//                        step ending the lesson: a first match of the game, its button
//                        from api.firstMatch), pitch (a few words), leave()}, all but
//                        steps optional; null (or absent) for a game without one
//   lessonNote           a game without a lesson: {lesson (the key of the lesson at whose
//                        end the tutorial tells it), text (what the game is, in words)}

import { fetchOnce } from "../shell/dom.js";
import { t } from "../shell/i18n.js";

const modules = new Map();

/** Every registered game as GET /api/games lists it, fetched once per page (the seats'
 * bot levels come from the same request: shell/seats.js). */
export function gameList() {
  return fetchOnce("/api/games");
}

/** The registered game `key` (its GET /api/games entry); rejects for an unknown key. */
export async function gameEntry(key) {
  const entry = (await gameList()).find((g) => g.key === key);
  if (!entry) throw new Error(`no game ${JSON.stringify(key)}`);
  return entry;
}

/** The key of the game whose files and stored matches name `ruleset`. */
export async function gameKeyOf(ruleset) {
  const entry = (await gameList()).find((g) => g.rulesets.includes(ruleset));
  if (!entry) throw new Error(`no game plays ${JSON.stringify(ruleset)}`);
  return entry.key;
}

/**
 * How `module` (game `entry`'s) tells a room's options in words: its `describe`, or for a
 * game without one its title and seats ("Light Speed: 2 seats").
 */
export function describerOf(module, entry) {
  return module.describe ?? ((options) => t("{game}: {seats} seats", { game: entry.title, seats: options.seats }));
}

/** The browser module of game `key`, imported once. */
export function loadGame(key) {
  if (!modules.has(key)) {
    modules.set(key, gameEntry(key).then((entry) => import(entry.client)));
  }
  return modules.get(key);
}

// What a game's module builds its interface with.

/**
 * A part of a game's interface that imports its module when first called (so that a page
 * loads only what it shows): `load()` imports it, `name` is the function the part calls
 * with its own arguments.
 */
export function lazyPart(load, name) {
  return async (...args) => (await load())[name](...args);
}

/**
 * The rules page's section of the game whose module is at `base` (its import.meta.url):
 * `summary()` its line in the contents, its text rules.html beside the module and
 * rules.<lang>.html for each of `languages`; `more`, the rest of the section (show).
 */
export function rulesSection(base, summary, languages, more = {}) {
  return {
    get summary() {
      return summary();
    },
    html: new URL("./rules.html", base).href,
    languages,
    ...more,
  };
}
