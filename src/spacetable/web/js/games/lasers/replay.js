// The replay of a laser game (Light Speed, Stellar Conflict): the fast round (or Stellar
// Conflict's fleets and deployment) as it happened (cards appear at their server times,
// with a time slider), then the battle animation and the scores.

import { replayChat } from "../../shell/chatreplay.js";
import { botBadgeSpan } from "../../shell/botseats.js";
import { replayTitle } from "../../shell/matchlist.js";
import "./sheet.js";
import { $, clear, el, quoted, setPhase, showText } from "../../shell/dom.js";
import { loadCatalog } from "./cards.js";
import { colourOf } from "../../shell/colours.js";
import { CARD_SIZE } from "./geometry.js";
import { TableView } from "./table.js";
import { gameEntry, gameKeyOf } from "../index.js";
import { Inspector, inspectorPanel } from "./inspector.js";
import { playBattle } from "./scores.js";
import { num, playerName, t, tn } from "../../shell/i18n.js";

const timelineMarkup = () => `
  <section class="panel">
    <h2 id="round-name">${t("Fast round")}</h2>
    <div class="timeline">
      <button id="replay-play" type="button">${t("Play")}</button>
      <input id="replay-slider" type="range" min="0" max="1" step="0.01" value="0" aria-label=${quoted(t("time"))}>
      <output id="replay-time">${seconds(0)}</output>
    </div>
    <p id="replay-skipped" class="replay-skipped" role="status" hidden></p>
    <p class="tool-row"><button id="replay-battle" type="button" class="secondary">${t("Go to the battle")}</button></p>
  </section>`;
const afterLogMarkup = () => `
  <section id="battle-log" class="battle-log panel" aria-label=${quoted(t("battle log"))} hidden></section>
  <section id="score-panel" class="score-panel panel" hidden></section>`;

/** Playing skips a stretch of more than IDLE_S s with nothing happening, to LEAD_S s before the next thing. */
const IDLE_S = 3;
const LEAD_S = 1;
const SKIPPED = (seconds) => "» " + t("{s} s with nothing happening skipped (the slider shows them)", { s: Math.round(seconds) });
/** A time on the timeline ("12.5 s", "12,5 s"). */
const seconds = (value) => t("{s} s", { s: num(value, { minimumFractionDigits: 1, maximumFractionDigits: 1 }) });

let view = null;
const replay = {
  match: null,
  table: null, // the final table file
  ships: {},
  timeline: [], // [{t, card | null, text}] in time order
  end: 0,
  time: 0,
  playing: false,
  last: null,
  battle: null,
  skipTimer: null,
};

const colourOfPlayer = (player) => colourOf(Math.max(0, replay.table.players.indexOf(player)));

/**
 * Pair each stored action with what it did: a place or drop with the card that landed
 * (the final table's card of that player at that pose), a fleet, the countdown's end, a
 * discard or timeout with a note.
 */
function buildTimeline(actions, table, options) {
  const cards = table.cards.filter((c) => c.type !== "asteroid");
  const used = new Set();
  const shipName = (card) => replay.ships[card.ship]?.name || card.ship;
  const timeline = [];
  let lastPlace = null;
  for (const action of actions) {
    if (action.type === "place" || action.type === "drop") {
      let best = null;
      let bestDistance = Infinity;
      for (const card of cards) {
        if (card.owner !== action.player || used.has(card.id)) continue;
        const d = Math.hypot(card.x - action.x, card.y - action.y) + Math.abs(card.rotation - action.rotation_deg);
        if (d < bestDistance) [best, bestDistance] = [card, d];
      }
      if (!best) continue;
      used.add(best.id);
      const params = { player: action.player, ship: shipName(best) };
      const text = action.type === "place" ? t("{player} placed the {ship}", params) : t("{player} dropped the {ship}", params);
      const entry = { t: action.t, card: best, text };
      timeline.push(entry);
      if (action.type === "place") lastPlace = entry;
    } else if (action.type === "fleet") {
      const names = action.ships.map((key) => replay.ships[key]?.name || key);
      const ships = names.length ? names.join(", ") : t("no ship");
      timeline.push({ t: action.t, card: null,
        text: t("{player} chose a fleet: {ships} (with the Cargo and Flag ships)", { player: action.player, ships }) });
    } else if (action.type === "timer-expired") {
      timeline.push({ t: action.t, card: null, text: t("TIME! the countdown ran out: the cards in hand froze") });
    } else if (action.type === "discard") {
      timeline.push({ t: action.t, card: null, text: t("{player} discarded", { player: action.player }) });
    } else if (action.type === "timeout") {
      timeline.push({ t: action.t, card: null, text: t("time ran out: undecided cards discarded") });
    }
  }
  // Under the stop rule, the last card placed is the one that called stop.
  const stopRule = table.ruleset !== "stellar" || options?.deployment === "stop";
  if (stopRule && lastPlace && actions.some((a) => ["drop", "discard", "timeout"].includes(a.type))) {
    lastPlace.text = t("{action} and called STOP!", { action: lastPlace.text });
  }
  return timeline;
}

function showTime(time) {
  replay.time = Math.max(0, Math.min(time, replay.end));
  $("#replay-slider").value = String(replay.time);
  // Written only when the words change (a tenth of a second, a card more): playing calls
  // this at every frame, and each write laid the page out again.
  showText($("#replay-time"), seconds(replay.time));
  replay.chat?.show(replay.time >= replay.end ? Infinity : replay.time);
  const shown = replay.timeline.filter((e) => e.t <= replay.time);
  const cards = replay.table.cards.filter((c) => c.type === "asteroid").concat(shown.filter((e) => e.card).map((e) => e.card));
  view.showCards(cards, replay.ships, colourOfPlayer, replay.table.card_size || CARD_SIZE);
  for (const item of $("#replay-log").children) {
    item.classList.toggle("future", Number(item.dataset.t) > replay.time);
  }
  const counts = {};
  for (const e of shown) if (e.card) counts[e.card.owner] = (counts[e.card.owner] || 0) + 1;
  for (const item of $("#players").children) {
    showText(item.querySelector(".cards-played"), tn("{n} on the table", "{n} on the table", counts[item.dataset.player] || 0));
  }
}

/**
 * Where playing goes on from `time`: past a stretch of more than IDLE_S with nothing on the
 * timeline (a Stellar Conflict fleet being chosen, a slow start), to LEAD_S before what
 * comes next; with the seconds skipped (0 when nothing is).
 */
function skipIdle(time) {
  const next = replay.timeline.find((e) => e.t > time + 1e-6);
  const to = next ? next.t - LEAD_S : replay.end;
  return to - time > IDLE_S ? { time: to, skipped: to - time } : { time, skipped: 0 };
}

/** Say for a while that idle seconds were skipped. */
function tellSkipped(seconds) {
  const note = $("#replay-skipped");
  note.textContent = SKIPPED(seconds);
  note.hidden = false;
  clearTimeout(replay.skipTimer);
  replay.skipTimer = setTimeout(() => { note.hidden = true; }, 4000);
}

/**
 * Whether playing on to `time` changes what the page shows: the tenth of a second the
 * clock reads, the end, or a card or a line of the log that comes in. Playing asks at every
 * frame; the picture changes about ten times a second.
 */
function changesAt(time) {
  if (Math.floor(time * 10) !== Math.floor(replay.time * 10) || time >= replay.end) return true;
  return replay.timeline.some((e) => e.t > replay.time && e.t <= time);
}

function tick(now) {
  if (!replay.playing) return;
  if (replay.last !== null) {
    const { time, skipped } = skipIdle(replay.time + (now - replay.last) / 1000);
    if (skipped) tellSkipped(skipped);
    if (changesAt(time)) showTime(time);
    else replay.time = time; // the same picture: nothing laid out or painted again
  }
  replay.last = now;
  if (replay.time >= replay.end) {
    replay.playing = false;
    startBattle();
    return;
  }
  requestAnimationFrame(tick);
}

function play() {
  if (replay.playing) return;
  stopBattle();
  if (replay.time >= replay.end) showTime(0);
  replay.playing = true;
  replay.last = null;
  $("#replay-play").textContent = t("Pause");
  setPhase("fast");
  requestAnimationFrame(tick);
}

function pause() {
  replay.playing = false;
  $("#replay-play").textContent = t("Play");
}

function startBattle() {
  pause();
  stopBattle();
  showTime(replay.end);
  setPhase("battle");
  const result = { ...replay.match.result, events: replay.match.events };
  $("#battle-controls").hidden = false;
  replay.battle = playBattle(view, { table: replay.table, result, ships: replay.ships, colourOf: colourOfPlayer });
}

function stopBattle() {
  replay.battle?.destroy();
  replay.battle = null;
  $("#battle-controls").hidden = true;
  $("#score-panel").hidden = true;
}

/** Fill the replay page with the stored laser-game match `match` and play it. */
export async function showLaserReplay(match) {
  $("#players").insertAdjacentHTML("beforebegin", timelineMarkup());
  $("#replay-log").insertAdjacentHTML("afterend", afterLogMarkup());
  $("#table").after(el("div", { id: "battle-controls", class: "battle-controls", hidden: true }));
  view = new TableView($("#table"));
  new Inspector(view, inspectorPanel(), {
    cardOf: (id) => replay.table?.cards.find((c) => c.id === id),
    ships: () => replay.ships, colourOf: colourOfPlayer, ruleset: () => replay.table?.ruleset,
  });
  view.enableGestures();
  $("#table-wrap").append(view.zoomControls());
  const ships = await loadCatalog(match.ruleset === "stellar" ? "stellar" : "lightspeed");
  replay.match = match;
  replay.table = match.result.table;
  replay.ships = { ...ships, ...(replay.table.ships || {}) };
  const { table } = replay;
  const game = (await gameEntry(await gameKeyOf(match.ruleset))).title; // named as FTL's and the hex fleet's replays do
  $("#match-title").textContent = replayTitle(game, table.players, match.finished_at);
  const size = table.table ? [table.table.width, table.table.height] : null;
  view.unit = table.ruleset === "stellar" ? "cubes" : "rocks";
  view.setTable(size, size ? [] : table.cards);
  $("#round-name").textContent = table.ruleset === "stellar" ? t("Fleets and deployment") : t("Fast round");
  replay.timeline = buildTimeline(match.actions || [], table, match.options);
  replay.end = Math.ceil(((replay.timeline.at(-1)?.t ?? 0) + 0.5) * 10) / 10;
  const slider = $("#replay-slider");
  slider.max = String(replay.end);
  slider.addEventListener("input", () => {
    pause();
    stopBattle();
    setPhase("fast");
    showTime(Number(slider.value));
  });
  $("#replay-play").addEventListener("click", () => (replay.playing ? pause() : play()));
  $("#replay-battle").addEventListener("click", startBattle);
  const players = clear($("#players"));
  table.players.forEach((player, i) => {
    const seat = (match.seats || []).find((s) => s.player === player) || match.seats?.[i];
    players.append(el("li", { class: "player", dataset: { player }, style: `--team: ${colourOf(i)}` },
      el("span", { class: "swatch" }), el("span", { class: "player-name", text: playerName(player) }),
      botBadgeSpan(seat, player),
      el("span", { class: "cards-played" })));
  });
  const log = clear($("#replay-log"));
  for (const entry of replay.timeline) {
    log.append(el("li", { dataset: { t: entry.t }, style: entry.card ? `--team: ${colourOfPlayer(entry.card.owner)}` : null },
      el("button", { type: "button", class: "link", on: { click: () => { pause(); stopBattle(); setPhase("fast"); showTime(entry.t); } } },
        seconds(entry.t)), ` ${entry.text}`));
  }
  replay.chat = replayChat($(".side"), match);
  showTime(0);
  play();
}

