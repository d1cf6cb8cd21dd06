// The battle told in words beside the table, one entry per speed step (initiative in
// Stellar Conflict), stepping with the animation: "Ann's Moth hits Bob's Ghost for 2 —
// destroyed; Ann takes it". The words follow lasers/narrate.py, the referee's account, told
// for players: ships are named by their owner, misses are quiet, and a destruction is told
// on the line of the shot that did it. A legend explains what the lasers on the table mean.

import "./sheet.js";
import { clear, el } from "../../shell/dom.js";
import { playerName, t, tn, tnParts, tParts } from "../../shell/i18n.js";

/** The words of the log (kept together for translation): a shield's edge, why rocks vaporize. */
const EDGES = () => ({ front: t("front"), back: t("back"), left: t("left side"), right: t("right side") });
const VAPORIZED = () => ({
  pulse: t("too few for a pulse"),
  "own-cargo": t("stolen from their own cargo ship"),
  destroyed: t("the ship blew up"),
});
const KINDS = () => ({ ion: t("ion laser"), penetrating: t("penetrating laser") });

/** "3 rocks" (or cubes, in Stellar Conflict). */
function amount(count, stellar) {
  return stellar ? tn("{n} cube", "{n} cubes", count) : tn("{n} rock", "{n} rocks", count);
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
  for (const ev of beat.events) {
    if (ev.type === "laser") {
      const kind = ev.kind && ev.kind !== "normal" ? KINDS()[ev.kind] || ev.kind : "";
      const shooter = { card: ev.ship };
      const target = { card: ev.target };
      if (ev.result === "damage") {
        const before = hurt[ev.target] || 0;
        hurt[ev.target] = before + ev.damage;
        const health = defOf(ev.target)?.health;
        // Shots of one step land together: a shot after the fatal one says the ship was
        // already done for, and the destruction is told on the fatal shot's line.
        const tally = !health ? "" : before >= health ? t(" (already {health} of {health})", { health })
          : t(" ({hurt} of {health})", { hurt: Math.min(hurt[ev.target], health), health });
        const said = { ship: shooter, target, damage: ev.damage, tally, kind };
        const line = { kind: "hit", ships: [ev.ship, ev.target],
          parts: kind ? tParts("{ship}'s {kind} hits {target} for {damage}{tally}", said)
            : tParts("{ship} hits {target} for {damage}{tally}", said) };
        lines.push(line);
        lastHit[ev.target] = line;
        if (health && before < health && hurt[ev.target] >= health) fatal[ev.target] = line;
      } else if (ev.result === "blocked") {
        lines.push({ kind: "blocked", ships: [ev.ship, ev.target],
          parts: tParts("{ship} fires at {target}: its {edge} shield blocks it",
            { ship: shooter, target, edge: EDGES()[ev.edge] || ev.edge }) });
      } else if (ev.result === "ion") {
        const line = { kind: "ion", ships: [ev.ship, ev.target], ionHit: true,
          parts: tParts("{ship}'s ion laser hits {target}", { ship: shooter, target }) };
        lines.push(line);
        lastHit[ev.target] = line;
      } else if (ev.result === "mine") {
        lines.push({ kind: "mine", ships: [ev.ship, ev.target], parts: byId[ev.target]?.type === "asteroid"
          ? tParts("{ship} mines the asteroid", { ship: shooter })
          : tParts("{ship} raids the cargo of {target}", { ship: shooter, target }) });
      } else {
        lines.push({ kind: "miss", ships: [ev.ship], parts: kind
          ? tParts("{ship} fires its {kind} into space", { ship: shooter, kind })
          : tParts("{ship} fires into space", { ship: shooter }) });
      }
    } else if (ev.type === "destroyed") {
      const owner = byId[ev.ship]?.owner;
      const pile = !ev.kill_pile ? t("nobody takes it (a tie)")
        : ev.kill_pile === owner ? t("{player} takes it: their own ship, it counts against them", { player: ev.kill_pile })
          : t("{player} takes it", { player: ev.kill_pile });
      const line = fatal[ev.ship] ?? lastHit[ev.ship];
      if (line) {
        line.parts.push(t(" — destroyed; {pile}", { pile }));
        line.kind = "destroyed";
      } else {
        lines.push({ kind: "destroyed", ships: [ev.ship], parts: tParts("{ship} is destroyed; {pile}", { ship: { card: ev.ship }, pile }) });
      }
    } else if (ev.type === "delay") {
      const line = lastHit[ev.ship];
      const speeds = (ev.speeds || []).join("/");
      const text = stellar
        ? tn("a Delay token: it fires later, at initiative {speeds}", "{n} Delay tokens: it fires later, at initiative {speeds}", ev.tokens, { speeds })
        : tn("a Delay token: it fires later, at speed {speeds}", "{n} Delay tokens: it fires later, at speed {speeds}", ev.tokens, { speeds });
      if (line) {
        line.parts.push(` — ${text}`);
        line.delayed = true;
      } else lines.push({ kind: "ion", ships: [ev.ship], parts: tParts("{ship} gets {tokens}", { ship: { card: ev.ship }, tokens: text }) });
    } else if (ev.type === "take") {
      const source = byId[ev.source];
      const said = { ship: { card: ev.ship }, amount: amount(ev.count, stellar), source: { card: ev.source } };
      lines.push({ kind: "take", ships: [ev.ship, ev.source], parts: source?.type === "asteroid"
        ? tParts("{ship} takes {amount} from the asteroid", said)
        : tParts("{ship} steals {amount} from {source}", said) });
    } else if (ev.type === "transfer") {
      lines.push({ kind: "take", ships: [ev.ship, ev.source],
        parts: tParts("{ship} picks up {amount} from the wreck of {source}",
          { ship: { card: ev.ship }, amount: amount(ev.count, stellar), source: { card: ev.source } }) });
    } else if (ev.type === "vaporize") {
      lines.push({ kind: "vaporize", ships: [ev.card],
        parts: tnParts("{amount} on {card} vaporizes ({why})", "{amount} on {card} vaporize ({why})", ev.count,
          { amount: amount(ev.count, stellar), card: { card: ev.card }, why: VAPORIZED()[ev.reason] || ev.reason }) });
    } else if (ev.type === "left") {
      lines.push({ kind: "left", ships: [ev.card], parts: byId[ev.card]?.type === "asteroid"
        ? [t("The asteroid is empty and leaves the table")]
        : tParts("{card} has no cargo left and leaves the table", { card: { card: ev.card } }) });
    }
  }
  // An ion hit that left no Delay token came too late: its target had fired, or fires in
  // this very step (docs/rulings.md S3). Said, or the hit reads as if it did nothing.
  for (const line of lines) {
    if (line.ionHit && !line.delayed && line.kind === "ion") line.parts.push(t(" — too late for a Delay token: it has fired, or fires in this step"));
  }
  return lines;
}

/** The legend of the battle: what colours, widths and marks on the table mean. */
export function battleLegend(players, colourOf) {
  const swatch = (style, cls = "") => el("span", { class: `legend-beam ${cls}`.trim(), style, "aria-hidden": "true" });
  return el("details", { class: "battle-legend", open: true },
    el("summary", { text: t("What the lasers show") }),
    el("ul", {},
      el("li", {}, ...players.flatMap((p, i) => [i ? " " : "",
        el("span", { class: "legend-owner", style: `--team: ${colourOf(p)}` }, swatch("", "owner"), ` ${playerName(p)}`)]),
      " " + t("— a laser has its owner's colour")),
      el("li", {}, swatch("", "power-1"), swatch("", "power-2"), swatch("", "power-3"), " " + t("power 1, 2, 3: the thicker, the stronger")),
      el("li", {}, swatch("", "ion"), " " + t("ion (dotted): no damage, a Delay token")),
      el("li", {}, swatch("", "penetrating"), " " + t("penetrating (dashed): goes through shields")),
      el("li", {}, el("span", { class: "legend-mark hit", "aria-hidden": "true", text: "✸" }), " " + t("a hit, with its damage;") + " ",
        el("span", { class: "legend-mark shield", "aria-hidden": "true" }), " " + t("a shield blocked it")),
      el("li", {}, t("Faint lines are earlier steps' shots; they fade away."))));
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
    container.append(el("h2", { text: t("Battle log") }), this.list, battleLegend(table.players, colourOf));
    // Pointing at a ship's name (or a line) shows the ships on the table.
    this.list.addEventListener("pointerover", (event) => {
      const ref = event.target.closest?.(".ship-ref[data-card]");
      const line = event.target.closest?.(".log-line");
      onPoint(ref ? [ref.dataset.card] : line ? line.dataset.ships.split(" ").filter(Boolean) : []);
    });
    this.list.addEventListener("pointerleave", () => onPoint([]));
    const word = this.stellar ? t("Initiative") : t("Speed");
    beats.forEach((beat, index) => {
      const lines = describeBeat(beat, { byId: this.byId, defOf, stellar: this.stellar, hurt });
      const who = beat.ships.map((id) => this.mention(id, beat.again.includes(id) ? t(" (again)") : ""));
      const heading = el("button", { type: "button", class: "log-step link", title: t("show this step"),
        on: { click: () => onSeek(index) } }, el("strong", { text: `${word} ${beat.speed}` }));
      const entry = el("li", { class: "log-beat", dataset: { speed: beat.speed, index }, hidden: true },
        el("div", { class: "log-heading" }, heading, " ", ...join(who), " " + tn("fires", "fire", beat.ships.length)),
        el("ul", { class: "log-lines" }, ...(lines.length ? lines : [{ kind: "miss", ships: [], parts: [t("nothing happens")] }])
          .map((line) => el("li", { class: `log-line ${line.kind}`, dataset: { ships: line.ships.join(" ") } },
            ...line.parts.map((part) => (typeof part === "string" ? part : this.mention(part.card)))))));
      this.entries.push(entry);
      this.list.append(entry);
    });
    if (!beats.length) this.list.append(el("li", { class: "log-beat", text: t("No ship fires.") }));
    this.shown = null;
  }

  /** A ship named in the log: "Ann's Moth", in its owner's colour. */
  mention(id, note = "") {
    const card = this.byId[id];
    if (!card) return el("span", { text: id });
    if (card.type === "asteroid") return el("span", { class: "ship-ref asteroid", text: t("the asteroid") });
    const name = this.ships[card.ship]?.name || card.ship;
    return el("span", { class: "ship-ref", dataset: { card: id }, style: `--team: ${this.colourOf(card.owner)}` },
      el("span", { class: "swatch", "aria-hidden": "true" }), t("{owner}'s {ship}", { owner: card.owner, ship: name }) + note);
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
  return items.flatMap((item, i) => (i === 0 ? [item] : [i === items.length - 1 ? t(" and ") : ", ", item]));
}
