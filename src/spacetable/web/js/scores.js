// The score panel after a battle: every player's kill pile, rocks on surviving ships and
// total, then the winner or a draw.

import { clear, el } from "./dom.js";

/**
 * Fill `container` with the scores of `result` on `table`. `ships`: definitions by key
 * (for names and health); `colourOf(player)`; `matchId` adds a link to the replay.
 * The panel is shown and scrolled into view.
 */
export function showScores(container, { table, result, ships, colourOf, matchId = null }) {
  const byId = Object.fromEntries(table.cards.map((c) => [c.id, c]));
  const defs = { ...ships, ...(table.ships || {}) };
  const worth = (card) => {
    const def = defs[card.ship] || {};
    return table.ruleset === "stellar" ? def.vp ?? def.health ?? 0 : def.health ?? 0;
  };
  const players = table.players;
  clear(container);
  container.append(el("h2", { text: "Scores" }));
  const list = el("div", { class: "score-list" });
  for (const player of players) {
    const score = result.scores[player] ?? 0;
    const kills = (result.kill_piles[player] || []).map((id) => byId[id]).filter(Boolean);
    const rocks = Object.entries(result.ships || {})
      .filter(([id, s]) => byId[id]?.owner === player && s.alive)
      .reduce((sum, [, s]) => sum + (s.rocks || 0), 0);
    const pile = kills.length
      ? el("ul", { class: "kill-pile" }, kills.map((card) => {
        const own = card.owner === player;
        const name = defs[card.ship]?.name || card.ship;
        return el("li", { dataset: { card: card.id }, class: own ? "own" : "" },
          `${card.owner}'s ${name} ${own ? "−" : "+"}${worth(card)}`);
      }))
      : el("p", { class: "kill-pile empty", text: "kill pile empty" });
    list.append(el("section", {
      class: `score${result.winner === player ? " winning" : ""}`,
      dataset: { player, score, rocks },
      style: `--team: ${colourOf(player)}`,
    },
    el("header", {}, el("span", { class: "swatch" }), el("span", { class: "player-name", text: player }),
      el("span", { class: "total", text: String(score) })),
    pile,
    el("p", { class: "rocks", text: `rocks on surviving ships: ${rocks}` })));
  }
  container.append(list);
  const winner = result.winner;
  container.append(el("p", {
    id: "winner",
    class: winner === null || winner === undefined ? "draw" : "winner",
    dataset: { winner: winner ?? "" },
    style: winner ? `--team: ${colourOf(winner)}` : null,
    text: winner ? `${winner} wins!` : "Draw",
  }));
  if (matchId) {
    container.append(el("p", { class: "replay-link" },
      el("a", { href: `/replay/${encodeURIComponent(matchId)}`, id: "replay-link" }, "Watch the replay")));
  }
  container.hidden = false;
  container.scrollIntoView({ block: "nearest" });
  return container;
}
