// The score panel after a battle: every player's kill pile, rocks on surviving ships and
// total, then the winner or a draw. Stellar Conflict counts VP, splits the cubes into those
// left on your cargo ship and those your surviving ships stole, and breaks a tie by the
// enemy ships in each kill pile. A note says what a kill pile is; the cargo ship is "your"
// cargo ship on your own panel and "their" cargo ship on the others'.

import "./sheet.js";
import { $, clear, el, setPhase } from "../../shell/dom.js";
import { showEndCard } from "../../shell/endcard.js";
import { playerName, t, tn } from "../../shell/i18n.js";
import { BattlePlayer } from "./battle.js";

const RAIDED_HELP = t("a laser that damages an enemy cargo ship takes cubes from it");
const STOLEN_HELP = t("raided from an enemy cargo ship, or (Stolen Goods) picked from the wreck of a ship it destroyed");
/** The cube lines of a Stellar Conflict score, said of the player looking, another, or a named one. */
const WHOSE = {
  yours: {
    cargo: (n) => t("cubes on your cargo ship: {n}", { n }),
    stolen: (n) => t("stolen cubes on your other surviving ships: {n}", { n }),
    raided: (n) => t("raided cubes on your other surviving ships: {n}", { n }),
    lost: (parts) => t("cubes your fleet lost: {parts}", { parts }),
  },
  theirs: {
    cargo: (n) => t("cubes on their cargo ship: {n}", { n }),
    stolen: (n) => t("stolen cubes on their other surviving ships: {n}", { n }),
    raided: (n) => t("raided cubes on their other surviving ships: {n}", { n }),
    lost: (parts) => t("cubes their fleet lost: {parts}", { parts }),
  },
  named: (player) => ({
    cargo: (n) => t("cubes on {player}'s cargo ship: {n}", { player, n }),
    stolen: (n) => t("stolen cubes on {player}'s other surviving ships: {n}", { player, n }),
    raided: (n) => t("raided cubes on {player}'s other surviving ships: {n}", { player, n }),
    lost: (parts) => t("cubes {player}'s fleet lost: {parts}", { player, parts }),
  }),
};
const LOST = {
  raided: (n) => tn("{n} raided by enemy lasers", "{n} raided by enemy lasers", n),
  wreck: (n) => tn("{n} picked from wrecks by the enemy", "{n} picked from wrecks by the enemy", n),
  destroyed: (n) => tn("{n} vaporized when the ship carrying it blew up", "{n} vaporized when the ship carrying them blew up", n),
  pulse: (n) => tn("{n} vaporized (too few for a pulse)", "{n} vaporized (too few for a pulse)", n),
  "own-cargo": (n) => tn("{n} vaporized (shot from its own cargo ship)", "{n} vaporized (shot from their own cargo ship)", n),
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
  const parts = Object.entries(lost).filter(([, n]) => n).map(([why, n]) => (LOST[why] || ((k) => t("{n} lost ({why})", { n: k, why })))(n));
  if (!parts.length) return "";
  const total = Object.values(lost).reduce((a, b) => a + b, 0);
  return el("p", { class: "lost-cubes", dataset: { count: total }, text: whose.lost(parts.join(", ")) });
}

/**
 * Fill `container` with the scores of `result` on `table`. `ships`: definitions by key
 * (for names and health); `colourOf(player)`; `matchId` adds a link to the replay; `me`:
 * the player looking (null: a spectator or the referee); `hideTotals`: each total shows
 * "?" and the winner is not told (a quiz asks for them); `ending: false` leaves out the
 * winner and the replay's link (a room's end card says them: shell/endcard.js). The panel
 * is shown and scrolled into view.
 */
export function showScores(container, { table, result, ships, colourOf, matchId = null, me = null, hideTotals = false, ending = true }) {
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
  container.append(el("h2", { text: t("Scores") }));
  const help = el("p", { class: "kill-pile-help", text: stellar
    ? t("Kill pile: the destroyed ships a player scores. With two players, a destroyed ship goes to its owner's opponent; with more, to whoever did it the most damage (on a tie, to its owner if among them, else to nobody). Enemy ships add their VP, your own cost you theirs; each cube on your surviving ships adds 1.")
    : t("Kill pile: the destroyed ships a player scores. With two players, a destroyed ship goes to its owner's opponent; with more, to whoever did it the most damage (on a tie, to its owner if among them, else to nobody). Enemy ships add their health, your own cost you theirs; each rock on your surviving ships adds 1.") });
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
          `${t("{owner}'s {ship}", { owner: card.owner, ship: name })} ${own ? "−" : "+"}${worth(card)}${stellar ? ` ${t("VP")}` : ""}`);
      }))
      : el("p", { class: "kill-pile empty", text: t("kill pile empty") });
    const whose = player === me ? WHOSE.yours : me ? WHOSE.theirs : WHOSE.named(player);
    // Cubes on other ships than the cargo ship were raided from an enemy cargo ship (the
    // base rules), or, with Stolen Goods, also picked from a wreck: the words say which.
    const taken = rocks - cargoCubes;
    const counts = stellar
      ? [el("p", { class: "cubes cargo-cubes", dataset: { count: cargoCubes }, text: whose.cargo(cargoCubes) }),
        el("p", { class: "cubes stolen-cubes", dataset: { count: taken }, text: stolenGoods
          ? whose.stolen(taken) : whose.raided(taken), title: stolenGoods ? STOLEN_HELP : RAIDED_HELP }),
        lostLine(player, result.events || [], byId, whose)]
      : [el("p", { class: "rocks", text: t("rocks on surviving ships: {n}", { n: rocks }) })];
    list.append(el("section", {
      class: `score${result.winner === player && !hideTotals ? " winning" : ""}`,
      dataset: { player, score, rocks, enemyKills: enemyKills(player) },
      style: `--team: ${colourOf(player)}`,
    },
    el("header", {}, el("span", { class: "swatch" }), el("span", { class: "player-name", text: playerName(player) }),
      el("span", { class: "total", text: hideTotals ? "?" : stellar ? t("{n} VP", { n: score }) : String(score) })),
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
        ? t("Tied at {best} VP: the tie goes to the most enemy ships in a kill pile ({kills}).", { best, kills })
        : t("Tied at {best} VP, and as many enemy ships in each kill pile ({kills}).", { best, kills }) }));
    }
  }
  if (!hideTotals && ending) container.append(el("p", {
    id: "winner",
    class: winner === null || winner === undefined ? "draw" : "winner",
    dataset: { winner: winner ?? "" },
    style: winner ? `--team: ${colourOf(winner)}` : null,
    text: winner ? t("{winner} wins!", { winner }) : t("Draw"),
  }));
  if (matchId && ending) {
    container.append(el("p", { class: "replay-link" },
      el("a", { href: `/replay/${encodeURIComponent(matchId)}`, id: "replay-link" }, t("Watch the replay"))));
  }
  container.hidden = false;
  container.scrollIntoView({ block: "nearest" });
  return container;
}

/**
 * Play the battle of `table` and `result` on `view` (a TableView) with the page's
 * #battle-controls and #battle-log, as the replay and the referee sandbox do; at its end
 * the scores show in #score-panel, on a card over the table, and the page's phase is
 * "over". Returns the BattlePlayer, started.
 */
export function playBattle(view, { table, result, ships, colourOf }) {
  const battle = new BattlePlayer(view, {
    table, result, ships, colourOf, controls: $("#battle-controls"),
    log: $("#battle-log"),
    onDone: () => {
      showScores($("#score-panel"), { table, result, ships, colourOf });
      // The end where the player looks: on a card over the table (shell/endcard.js).
      $("#score-panel").classList.add("replay-end-card");
      showEndCard($("#score-panel"));
      setPhase("over");
    },
  });
  battle.start();
  return battle;
}
