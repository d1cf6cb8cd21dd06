// The battle told in words beside the table, one entry per speed step (initiative in
// Stellar Conflict), stepping with the animation: "Ann's Moth hits Bob's Ghost for 2 —
// destroyed; Ann takes it". The words follow lasers/narrate.py, the referee's account, told
// for players: ships are named by their owner, misses are quiet, and a destruction is told
// on the line of the shot that did it. A legend explains what the lasers on the table mean.

import "./sheet.js";
import { clear, el } from "../../shell/dom.js";

const EDGES = { front: "front", back: "back", left: "left side", right: "right side" };
const VAPORIZED = {
  pulse: "too few for a pulse",
  "own-cargo": "stolen from their own cargo ship",
  destroyed: "the ship carrying them blew up",
};

function plural(count, word) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/**
 * The lines of one beat (`beat.events`), as [{kind, parts, ships}] where `parts` are strings
 * and {card} mentions. `byId` knows the cards and `defOf(id)` their definitions; `hurt`
 * holds the damage so far by card, and is updated.
 */
function describeBeat(beat, { byId, defOf, stellar, hurt }) {
  const lines = [];
  const lastHit = {}; // card id -> the line of the last shot that hit it
  const fatal = {}; // card id -> the line of the shot that took its last health point
  const unit = stellar ? "cube" : "rock";
  for (const ev of beat.events) {
    if (ev.type === "laser") {
      const kind = ev.kind && ev.kind !== "normal" ? `${ev.kind} ` : "";
      const shooter = { card: ev.ship };
      if (ev.result === "damage") {
        const before = hurt[ev.target] || 0;
        hurt[ev.target] = before + ev.damage;
        const health = defOf(ev.target)?.health;
        // Shots of one step land together: a shot after the fatal one says the ship was
        // already done for, and the destruction is told on the fatal shot's line.
        const tally = !health ? "" : before >= health ? ` (already ${health} of ${health})`
          : ` (${Math.min(hurt[ev.target], health)} of ${health})`;
        const line = { kind: "hit", ships: [ev.ship, ev.target],
          parts: [shooter, kind ? `'s ${kind}laser hits ` : " hits ", { card: ev.target }, ` for ${ev.damage}${tally}`] };
        lines.push(line);
        lastHit[ev.target] = line;
        if (health && before < health && hurt[ev.target] >= health) fatal[ev.target] = line;
      } else if (ev.result === "blocked") {
        lines.push({ kind: "blocked", ships: [ev.ship, ev.target],
          parts: [shooter, " fires at ", { card: ev.target }, `: its ${EDGES[ev.edge] || ev.edge} shield blocks it`] });
      } else if (ev.result === "ion") {
        const line = { kind: "ion", ships: [ev.ship, ev.target],
          parts: [shooter, "'s ion laser hits ", { card: ev.target }] };
        lines.push(line);
        lastHit[ev.target] = line;
      } else if (ev.result === "mine") {
        const target = byId[ev.target];
        lines.push({ kind: "mine", ships: [ev.ship, ev.target], parts: target?.type === "asteroid"
          ? [shooter, " mines the asteroid"]
          : [shooter, " raids the cargo of ", { card: ev.target }] });
      } else {
        lines.push({ kind: "miss", ships: [ev.ship], parts: [shooter, ` fires ${kind ? `its ${kind}laser ` : ""}into space`] });
      }
    } else if (ev.type === "destroyed") {
      const owner = byId[ev.ship]?.owner;
      const pile = !ev.kill_pile ? "nobody takes it (a tie)"
        : ev.kill_pile === owner ? `${ev.kill_pile} takes it: their own ship, it counts against them`
          : `${ev.kill_pile} takes it`;
      const line = fatal[ev.ship] ?? lastHit[ev.ship];
      if (line) {
        line.parts.push(` — destroyed; ${pile}`);
        line.kind = "destroyed";
      } else {
        lines.push({ kind: "destroyed", ships: [ev.ship], parts: [{ card: ev.ship }, ` is destroyed; ${pile}`] });
      }
    } else if (ev.type === "delay") {
      const line = lastHit[ev.ship];
      const text = `${ev.tokens > 1 ? `${ev.tokens} Delay tokens` : "a Delay token"}: it fires later, at ${stellar ? "initiative" : "speed"} ${(ev.speeds || []).join("/")}`;
      if (line) line.parts.push(` — ${text}`);
      else lines.push({ kind: "ion", ships: [ev.ship], parts: [{ card: ev.ship }, ` gets ${text}`] });
    } else if (ev.type === "take") {
      const source = byId[ev.source];
      lines.push({ kind: "take", ships: [ev.ship, ev.source], parts: source?.type === "asteroid"
        ? [{ card: ev.ship }, ` takes ${plural(ev.count, unit)} from the asteroid`]
        : [{ card: ev.ship }, ` steals ${plural(ev.count, unit)} from `, { card: ev.source }] });
    } else if (ev.type === "transfer") {
      lines.push({ kind: "take", ships: [ev.ship, ev.source],
        parts: [{ card: ev.ship }, ` picks up ${plural(ev.count, unit)} from the wreck of `, { card: ev.source }] });
    } else if (ev.type === "vaporize") {
      lines.push({ kind: "vaporize", ships: [ev.card],
        parts: [`${plural(ev.count, unit)} on `, { card: ev.card }, ` vaporize (${VAPORIZED[ev.reason] || ev.reason})`] });
    } else if (ev.type === "left") {
      lines.push({ kind: "left", ships: [ev.card], parts: byId[ev.card]?.type === "asteroid"
        ? [`The asteroid is empty and leaves the table`]
        : [{ card: ev.card }, ` has no cargo left and leaves the table`] });
    }
  }
  return lines;
}

/** The legend of the battle: what colours, widths and marks on the table mean. */
export function battleLegend(players, colourOf) {
  const swatch = (style, cls = "") => el("span", { class: `legend-beam ${cls}`.trim(), style, "aria-hidden": "true" });
  return el("details", { class: "battle-legend", open: true },
    el("summary", { text: "What the lasers show" }),
    el("ul", {},
      el("li", {}, ...players.flatMap((p, i) => [i ? " " : "",
        el("span", { class: "legend-owner", style: `--team: ${colourOf(p)}` }, swatch("", "owner"), ` ${p}`)]),
      " — a laser has its owner's colour"),
      el("li", {}, swatch("", "power-1"), swatch("", "power-2"), swatch("", "power-3"), " power 1, 2, 3: the thicker, the stronger"),
      el("li", {}, swatch("", "ion"), " ion (dotted): no damage, a Delay token"),
      el("li", {}, swatch("", "penetrating"), " penetrating (dashed): goes through shields"),
      el("li", {}, el("span", { class: "legend-mark hit", "aria-hidden": "true", text: "✸" }), " a hit, with its damage; ",
        el("span", { class: "legend-mark shield", "aria-hidden": "true" }), " a shield blocked it"),
      el("li", {}, "Faint lines are earlier steps' shots; they fade away.")));
}

export class BattleLog {
  /**
   * `container`: the element to fill; `beats`: the battle's beats ({speed, ships, again,
   * events}); `table`, `ships` (definitions by key), `colourOf(player)`; `onSeek(index)`:
   * a step's heading was clicked; `onPoint(cardIds)`: the pointer is on a line or a ship's
   * name that names these cards (an empty list when it leaves).
   */
  constructor(container, { beats, table, ships, colourOf, onSeek = () => {}, onPoint = () => {} }) {
    this.container = container;
    this.byId = Object.fromEntries(table.cards.map((c) => [c.id, c]));
    this.ships = { ...ships, ...(table.ships || {}) };
    this.colourOf = colourOf;
    this.stellar = table.ruleset === "stellar";
    const defOf = (id) => this.ships[this.byId[id]?.ship];
    const hurt = {};
    this.entries = [];
    clear(container);
    container.hidden = false;
    this.list = el("ol", { class: "battle-log-list", "aria-live": "polite" });
    container.append(el("h2", { text: "Battle log" }), this.list, battleLegend(table.players, colourOf));
    // Pointing at a ship's name (or a line) shows the ships on the table.
    this.list.addEventListener("pointerover", (event) => {
      const ref = event.target.closest?.(".ship-ref[data-card]");
      const line = event.target.closest?.(".log-line");
      onPoint(ref ? [ref.dataset.card] : line ? line.dataset.ships.split(" ").filter(Boolean) : []);
    });
    this.list.addEventListener("pointerleave", () => onPoint([]));
    const word = this.stellar ? "Initiative" : "Speed";
    beats.forEach((beat, index) => {
      const lines = describeBeat(beat, { byId: this.byId, defOf, stellar: this.stellar, hurt });
      const who = beat.ships.map((id) => this.mention(id, beat.again.includes(id) ? " (again)" : ""));
      const heading = el("button", { type: "button", class: "log-step link", title: "show this step",
        on: { click: () => onSeek(index) } }, el("strong", { text: `${word} ${beat.speed}` }));
      const entry = el("li", { class: "log-beat", dataset: { speed: beat.speed, index }, hidden: true },
        el("div", { class: "log-heading" }, heading, " ", ...join(who), beat.ships.length === 1 ? " fires" : " fire"),
        el("ul", { class: "log-lines" }, ...(lines.length ? lines : [{ kind: "miss", ships: [], parts: ["nothing happens"] }])
          .map((line) => el("li", { class: `log-line ${line.kind}`, dataset: { ships: line.ships.join(" ") } },
            ...line.parts.map((part) => (typeof part === "string" ? part : this.mention(part.card)))))));
      this.entries.push(entry);
      this.list.append(entry);
    });
    if (!beats.length) this.list.append(el("li", { class: "log-beat", text: "No ship fires." }));
    this.shown = null;
  }

  /** A ship named in the log: "Ann's Moth", in its owner's colour. */
  mention(id, note = "") {
    const card = this.byId[id];
    if (!card) return el("span", { text: id });
    if (card.type === "asteroid") return el("span", { class: "ship-ref asteroid", text: "the asteroid" });
    const name = this.ships[card.ship]?.name || card.ship;
    return el("span", { class: "ship-ref", dataset: { card: id }, style: `--team: ${this.colourOf(card.owner)}` },
      el("span", { class: "swatch", "aria-hidden": "true" }), `${card.owner}'s ${name}${note}`);
  }

  /**
   * Show the log as it stands at beat `index` (-1: before the first): earlier steps in
   * full, this one's heading, and its lines once `told` (its lasers have landed).
   */
  show(index, told) {
    const key = `${index}:${told}`;
    if (this.shown === key) return;
    this.shown = key;
    this.entries.forEach((entry, i) => {
      entry.hidden = i > index;
      entry.classList.toggle("current", i === index);
      entry.querySelector(".log-lines").hidden = i === index && !told;
    });
    // Keep the current step in sight inside the log, without scrolling the page.
    const current = this.entries[index];
    if (current) {
      const box = this.list;
      const top = current.offsetTop - box.offsetTop;
      if (top < box.scrollTop || top + current.offsetHeight > box.scrollTop + box.clientHeight) {
        box.scrollTop = Math.max(0, top + current.offsetHeight - box.clientHeight);
      }
    }
  }

  /** What step `index` did, in one line (for a caption where the log is out of sight). */
  summary(index) {
    const entry = this.entries[index];
    if (!entry) return "";
    return [...entry.querySelectorAll(".log-line")].map((li) => li.textContent.trim()).join(" · ");
  }

  destroy() {
    clear(this.container);
    this.container.hidden = true;
  }
}

function join(items) {
  return items.flatMap((item, i) => (i === 0 ? [item] : [i === items.length - 1 ? " and " : ", ", item]));
}
