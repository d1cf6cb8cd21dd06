// Finished matches as rows and list items (the lobby's recent list, /matches, a player's
// profile), each naming its game by the title GET /api/games gives it and saying its scores
// in the game's own words (its module's matchScores: games/index.js). `games`: that list as
// listedGames gives it.

import { el, fetchJSON, formatTime } from "./dom.js";
import { colourOf } from "./colours.js";
import { endingOf, endingText } from "./endings.js";
import { playerName, t } from "./i18n.js";
import { gameList, loadGame } from "../games/index.js";

/** The game that plays `ruleset` among `games`, if one does. */
function gameOf(games, ruleset) {
  return games.find((game) => game.rulesets.includes(ruleset));
}

/** The title of the game that plays `ruleset` (the ruleset itself if none does). */
function gameTitle(games, ruleset) {
  return gameOf(games, ruleset)?.title || ruleset;
}

/**
 * The `games` of matchRow and matchItem for `summaries`: every registered game (GET
 * /api/games), those that played one of the summaries with their module's `matchScores`
 * (each module imported once: games/index.js).
 */
export async function listedGames(summaries) {
  const games = await gameList();
  const played = games.filter((game) => summaries.some((s) => game.rulesets.includes(s.ruleset)));
  const modules = await Promise.all(played.map((game) => loadGame(game.key)));
  const scorers = new Map(played.map((game, i) => [game.key, modules[i].matchScores]));
  return games.map((game) => ({ ...game, matchScores: scorers.get(game.key) }));
}

/**
 * Finished matches, newest first (GET /api/matches): the `limit` newest, or the `limit`
 * that finished just before the match `before`, or just after the match `after` (ids).
 */
export function loadMatches(limit = 50, { before, after, ruleset, player } = {}) {
  const query = new URLSearchParams({ limit: String(limit) });
  if (before) query.set("before", before);
  if (after) query.set("after", after);
  if (ruleset) query.set("ruleset", ruleset); // one game's matches
  if (player) query.set("player", player); // one player's
  return fetchJSON(`/api/matches?${query}`);
}

/**
 * A replay's title after its "Replay" (`game`: the game's title, `players`: in seat order):
 * "· Light Speed · ann vs bob · 28/11/2026 17:40", in the reader's language.
 */
export function replayTitle(game, players, finishedAt) {
  return `· ${game} · ${players.map((p) => playerName(p)).join(t(" vs "))} · ${formatTime(finishedAt)}`;
}

/** The players of a summary, each in its seat colour; with `linkOthers` (a player's name),
 * every other registered player's name links to his page (a guest, a bot, a deleted
 * account have none). */
function playerNames(summary, linkOthers) {
  return summary.players.map((name, i) => {
    const said = name ? playerName(name) : t("seat {seat}", { seat: i + 1 });
    const linked = linkOthers && name && summary.registered?.[i] && name !== linkOthers;
    return el("span", { class: "team", style: `--team: ${colourOf(i)}` },
      linked ? el("a", { class: "player-link", href: `/players/${encodeURIComponent(name)}`, text: said }) : said);
  });
}

/** The match's scores in its game's words (the game's matchScores), or "": none counted. */
function scoresText(summary, games) {
  return gameOf(games, summary.ruleset)?.matchScores?.(summary) || "";
}

/** A table row for a match summary, linking to its replay (`games`: GET /api/games); on
 * the profile of `linkOthers` (a player's name), to his registered opponents' pages. */
export function matchRow(summary, games, { linkOthers = null } = {}) {
  const href = `/replay/${encodeURIComponent(summary.id)}`;
  return el("tr", { class: "match", dataset: { match: summary.id } },
    el("td", { text: formatTime(summary.finished_at) }),
    el("td", { class: "game", dataset: { ruleset: summary.ruleset }, text: gameTitle(games, summary.ruleset) }),
    el("td", { class: "match-players" }, ...joinWith(playerNames(summary, linkOthers), t(" vs "))),
    scoresCell(summary, games),
    // "Draw (draw agreed by the players)", "bob won (ann resigned)": never "winner: draw".
    el("td", { class: "winner", dataset: { label: t("result") } },
      summary.winner ? t("{winner} won", { winner: playerName(summary.winner) }) : t("Draw"), endingNote(summary)),
    el("td", {}, el("a", { href, class: "replay" }, t("Replay"))));
}

/** The scores' cell: a dash, said in words, for a match that ended before they were counted. */
function scoresCell(summary, games) {
  const scores = scoresText(summary, games);
  if (scores) return el("td", { class: "scores", text: scores });
  const none = t("no scores: the match ended before they were counted");
  return el("td", { class: "scores none", title: none }, el("span", { "aria-hidden": "true", text: "—" }),
    el("span", { class: "visually-hidden", text: none }));
}

/** A short list item for a match summary (`games`: GET /api/games). */
export function matchItem(summary, games) {
  const href = `/replay/${encodeURIComponent(summary.id)}`;
  const scores = scoresText(summary, games); // none for a match stopped before its battle
  return el("li", { dataset: { match: summary.id, ruleset: summary.ruleset } },
    `${gameTitle(games, summary.ruleset)}: `,
    el("a", { href }, ...joinWith(playerNames(summary), t(" vs "))),
    (scores ? ` — ${scores}` : "") + " — " + (summary.winner ? t("{winner} won", { winner: summary.winner }) : t("draw")),
    endingNote(summary),
    el("span", { class: "muted", text: ` (${formatTime(summary.finished_at)})` }));
}

/** How the match ended, when not simply by its rules: " (Ann resigned)". */
function endingNote(summary) {
  if (endingOf(summary) === "rules" && !summary.ending_by) return null;
  return el("span", { class: "ending", dataset: { ending: endingOf(summary) }, text: ` (${endingText(summary)})` });
}

function joinWith(nodes, separator) {
  return nodes.flatMap((node, i) => (i ? [separator, node] : [node]));
}
