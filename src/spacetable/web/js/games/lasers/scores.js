// The score panel after a battle: every player's kill pile, rocks on surviving ships and
// total, then the winner or a draw. Stellar Conflict counts VP, splits the cubes into those
// left on your cargo ship and those your surviving ships stole, and breaks a tie by the
// enemy ships in each kill pile. A note says what a kill pile is; the cargo ship is "your"
// cargo ship on your own panel and "their" cargo ship on the others'.

import "./sheet.js";
import { clear, el } from "../../shell/dom.js";

const RAIDED_HELP = "a laser that damages an enemy cargo ship takes cubes from it";
const STOLEN_HELP = "raided from an enemy cargo ship, or (Stolen Goods) picked from the wreck of a ship it destroyed";
const LOST = {
  raided: (n) => `${n} raided by enemy lasers`,
  wreck: (n) => `${n} picked from wrecks by the enemy`,
  destroyed: (n) => `${n} vaporized when their ship blew up`,
  pulse: (n) => `${n} vaporized (too few for a pulse)`,
  "own-cargo": (n) => `${n} vaporized (shot from their own cargo ship)`,
};

/**
 * Where `player`'s cubes went in the battle (`events`): raided, picked from wrecks,
 * vaporized and why; nothing when none were lost.
 */
function lostLine(player, events, byId, whose) {
  const lost = {};
  const add = (why, n) => { lost[why] = (lost[why] || 0) + n; };
  for (const ev of events) {
    if (ev.type === "take" && byId[ev.source]?.owner === player && byId[ev.ship]?.owner !== player) add("raided", ev.count);
    else if (ev.type === "transfer" && byId[ev.source]?.owner === player && byId[ev.ship]?.owner !== player) add("wreck", ev.count);
    else if (ev.type === "vaporize" && byId[ev.card]?.owner === player) add(ev.reason, ev.count);
  }
  const parts = Object.entries(lost).filter(([, n]) => n).map(([why, n]) => (LOST[why] || ((k) => `${k} lost (${why})`))(n));
  if (!parts.length) return "";
  const total = Object.values(lost).reduce((a, b) => a + b, 0);
  return el("p", { class: "lost-cubes", dataset: { count: total }, text: `cubes ${whose} fleet lost: ${parts.join(", ")}` });
}

/**
 * Fill `container` with the scores of `result` on `table`. `ships`: definitions by key
 * (for names and health); `colourOf(player)`; `matchId` adds a link to the replay; `me`:
 * the player looking (null: a spectator or the referee); `hideTotals`: each total shows
 * "?" and the winner is not told (a quiz asks for them). The panel is shown and scrolled
 * into view.
 */
export function showScores(container, { table, result, ships, colourOf, matchId = null, me = null, hideTotals = false }) {
  const byId = Object.fromEntries(table.cards.map((c) => [c.id, c]));
  const defs = { ...ships, ...(table.ships || {}) };
  const worth = (card) => {
    const def = defs[card.ship] || {};
    return table.ruleset === "stellar" ? def.vp ?? def.health ?? 0 : def.health ?? 0;
  };
  const players = table.players;
  const stellar = table.ruleset === "stellar";
  const stolenGoods = Boolean(table.variant?.stolen_goods);
  const enemyKills = (player) => (result.kill_piles?.[player] || []).filter((id) => byId[id] && byId[id].owner !== player).length;
  clear(container);
  const unit = stellar ? ["VP", "cube"] : ["health", "rock"];
  container.append(el("h2", { text: "Scores" }));
  const help = el("p", { class: "kill-pile-help", text:
    "Kill pile: the ships a player destroyed. With two players, a destroyed ship goes to its "
    + "owner's opponent; with more, to whoever did it the most damage (on a tie, to its owner "
    + `if among them, else to nobody). Enemy ships add their ${unit[0]}, your own cost you theirs; `
    + `each ${unit[1]} on your surviving ships adds 1.` });
  const list = el("div", { class: "score-list" });
  for (const player of players) {
    const score = result.scores?.[player] ?? 0;
    const kills = (result.kill_piles?.[player] || []).map((id) => byId[id]).filter(Boolean);
    const survivors = Object.entries(result.ships || {}).filter(([id, s]) => byId[id]?.owner === player && s.alive);
    const rocks = survivors.reduce((sum, [, s]) => sum + (s.rocks || 0), 0);
    const isCargo = (id) => defs[byId[id].ship]?.role === "cargo";
    const cargoCubes = survivors.filter(([id]) => isCargo(id)).reduce((sum, [, s]) => sum + (s.rocks || 0), 0);
    const pile = kills.length
      ? el("ul", { class: "kill-pile" }, kills.map((card) => {
        const own = card.owner === player;
        const name = defs[card.ship]?.name || card.ship;
        return el("li", { dataset: { card: card.id }, class: own ? "own" : "" },
          `${card.owner}'s ${name} ${own ? "−" : "+"}${worth(card)}${stellar ? " VP" : ""}`);
      }))
      : el("p", { class: "kill-pile empty", text: "kill pile empty: destroyed no ship" });
    const whose = player === me ? "your" : me ? "their" : `${player}'s`;
    // Cubes on other ships than the cargo ship were raided from an enemy cargo ship (the
    // base rules), or, with Stolen Goods, also picked from a wreck: the words say which.
    const taken = rocks - cargoCubes;
    const counts = stellar
      ? [el("p", { class: "cubes cargo-cubes", dataset: { count: cargoCubes }, text: `cubes on ${whose} cargo ship: ${cargoCubes}` }),
        el("p", { class: "cubes stolen-cubes", dataset: { count: taken }, text: stolenGoods
          ? `stolen cubes on ${whose} other surviving ships: ${taken}`
          : `raided cubes on ${whose} other surviving ships: ${taken}`, title: stolenGoods ? STOLEN_HELP : RAIDED_HELP }),
        lostLine(player, result.events || [], byId, whose)]
      : [el("p", { class: "rocks", text: `rocks on surviving ships: ${rocks}` })];
    list.append(el("section", {
      class: `score${result.winner === player && !hideTotals ? " winning" : ""}`,
      dataset: { player, score, rocks, enemyKills: enemyKills(player) },
      style: `--team: ${colourOf(player)}`,
    },
    el("header", {}, el("span", { class: "swatch" }), el("span", { class: "player-name", text: player }),
      el("span", { class: "total", text: hideTotals ? "?" : stellar ? `${score} VP` : String(score) })),
    pile,
    ...counts));
  }
  container.append(list, help);
  const winner = result.winner;
  if (stellar && !hideTotals) {
    const best = Math.max(...players.map((p) => result.scores?.[p] ?? 0));
    const tied = players.filter((p) => (result.scores?.[p] ?? 0) === best);
    if (tied.length > 1) {
      const kills = tied.map((p) => `${p} ${enemyKills(p)}`).join(", ");
      container.append(el("p", { id: "tie-break", class: "tie-break", text: winner
        ? `Tied at ${best} VP: the tie goes to the most enemy ships in a kill pile (${kills}).`
        : `Tied at ${best} VP, and as many enemy ships in each kill pile (${kills}).` }));
    }
  }
  if (!hideTotals) container.append(el("p", {
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
