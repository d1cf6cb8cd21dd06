// The card inspector: hover a card on the table (or click it, to keep it open) to see it
// large beside the table with its facts in words: owner, speed, health, what it is worth,
// each laser (power, direction, kind) and each shield.

import "./sheet.js";
import { $, clear, el, svg } from "../../shell/dom.js";
import { cardFace } from "./cards.js";
import { CARD_SIZE, fmt } from "./geometry.js";

function direction(angle) {
  const a = ((Number(angle) % 360) + 540) % 360 - 180; // -180..180, 0 ahead, 90 left
  if (Math.abs(a) <= 10) return "straight ahead";
  if (Math.abs(a) >= 170) return "straight back";
  const side = a > 0 ? "left" : "right";
  const deg = Math.round(Math.abs(a));
  if (deg === 90) return `to the ${side}`;
  return deg < 90 ? `ahead, ${deg}° to the ${side}` : `backward, to the ${side}`;
}

function shieldText(sh, size) {
  const span = sh.edge === "front" || sh.edge === "back" ? size[0] : size[1];
  const covered = Math.abs(sh.to - sh.from) / span;
  const part = covered >= 0.95 ? "all of it" : covered >= 0.45 ? "about half of it" : "part of it";
  const edge = { front: "front edge", back: "back edge", left: "left side", right: "right side" }[sh.edge] || sh.edge;
  return `${edge}: ${part}`;
}

/**
 * The facts of a card as lines of words: `def` its definition, `card` where it lies
 * (owner, rocks), `stellar` whether VP and credits count.
 */
export function cardFacts(card, def, stellar) {
  if (card.type === "asteroid") {
    return [`An asteroid with ${card.rocks ?? 12} ${stellar ? "cubes" : "rocks"}.`, "Ships that hit it mine it."];
  }
  const speeds = Array.isArray(def.speed) ? def.speed : [def.speed];
  const facts = [
    `${stellar ? "Initiative" : "Speed"} ${speeds.join(" and ")}: ${speeds.length > 1 ? "fires twice, at each" : "fires at this step"} (lowest first).`,
    `Health ${def.health}: destroyed by ${def.health} damage.`,
  ];
  if (stellar) facts.push(`Worth ${def.vp ?? def.health} VP to whoever destroys it${def.credits ? `; costs ${def.credits} credits` : ""}.`);
  else facts.push(`Worth ${def.health} point${def.health === 1 ? "" : "s"} to whoever destroys it.`);
  if (def.role && def.role !== "warship") facts.push(`A ${def.role} ship.`);
  return facts;
}

export class Inspector {
  /**
   * `view`: the TableView whose cards it shows; `panel`: the element it fills;
   * `cardOf(id)`: the table card of an id; `ships()`: definitions by key; `colourOf(player)`;
   * `ruleset()`: "lightspeed" or "stellar"; `canPin()`: whether a click may pin it (not
   * while clicking places a card); `enabled()`: whether it shows at all (not while a card
   * in hand moves over the table).
   */
  constructor(view, panel, { cardOf, ships, colourOf, ruleset = () => "lightspeed", canPin = () => true,
    enabled = () => true }) {
    Object.assign(this, { view, panel, cardOf, ships, colourOf, ruleset, canPin, enabled });
    this.pinned = null;
    this.shownId = null;
    panel.hidden = true;
    const cardId = (event) => event.target.closest?.(".table-card")?.dataset.card ?? null;
    view.svg.addEventListener("pointerover", (event) => {
      if (event.pointerType === "touch" || !this.enabled()) return;
      const id = cardId(event);
      if (id && !this.pinned) this.show(id);
    });
    view.svg.addEventListener("pointerout", (event) => {
      if (this.pinned || !cardId(event)) return;
      const to = event.relatedTarget?.closest?.(".table-card")?.dataset.card;
      if (!to) this.hide();
    });
    view.svg.addEventListener("click", (event) => {
      const id = cardId(event);
      if (!id || !this.enabled() || !this.canPin()) return;
      if (this.pinned === id) {
        this.close();
      } else {
        this.pinned = id;
        this.show(id);
      }
    });
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && !panel.hidden) this.close();
    });
  }

  close() {
    this.pinned = null;
    this.hide();
  }

  hide() {
    this.shownId = null;
    this.panel.hidden = true;
  }

  /** Show the card `id` large with its facts. */
  show(id) {
    const card = this.cardOf(id);
    if (!card) return;
    this.panel.classList.toggle("pinned", Boolean(this.pinned));
    if (this.shownId === id && !this.panel.hidden) return;
    this.shownId = id;
    const ships = this.ships();
    const stellar = this.ruleset() === "stellar";
    const def = ships[card.ship] || { name: card.ship, speed: "?", health: 0, lasers: [], shields: [] };
    const size = card.size || CARD_SIZE;
    const colour = card.type === "asteroid" ? null : this.colourOf(card.owner);
    const face = svg("svg", { class: "inspector-card", viewBox: `${fmt(-size[0] / 2 - 1)} ${fmt(-size[1] / 2 - 1)} ${fmt(size[0] + 2)} ${fmt(size[1] + 2)}`,
      role: "img", "aria-label": card.type === "asteroid" ? "asteroid card" : `${def.name} card` },
    cardFace(card, ships, colour, size, stellar ? "cubes" : "rocks"));
    const title = card.type === "asteroid" ? "Asteroid" : `${card.owner}'s ${def.name}`;
    const lasers = (def.lasers || []).map((lz) => el("li", {},
      el("span", { class: `legend-beam power-${lz.power}`, style: `--team: ${colour}`, "aria-hidden": "true" }),
      ` power ${lz.power}${lz.kind && lz.kind !== "normal" ? ` ${lz.kind}` : ""}, ${direction(lz.angle)}`));
    const shields = (def.shields || []).map((sh) => el("li", { text: shieldText(sh, def.card_size || CARD_SIZE) }));
    clear(this.panel).append(...[
      el("div", { class: "inspector-head", style: colour ? `--team: ${colour}` : null },
        el("span", { class: "swatch", "aria-hidden": "true" }), el("strong", { class: "inspector-title", text: title }),
        el("button", { type: "button", class: "inspector-close link", "aria-label": "close", title: "close (Esc)",
          on: { click: () => this.close() } }, "×")),
      face,
      el("ul", { class: "inspector-facts" }, ...cardFacts(card, def, stellar).map((t) => el("li", { text: t }))),
      card.type === "asteroid" ? null : el("p", { class: "inspector-sub", text: lasers.length ? "Lasers" : "No lasers" }),
      lasers.length ? el("ul", { class: "inspector-lasers" }, ...lasers) : null,
      card.type === "asteroid" ? null : el("p", { class: "inspector-sub", text: shields.length ? "Shields" : "No shields" }),
      shields.length ? el("ul", { class: "inspector-shields" }, ...shields) : null,
    ].filter(Boolean));
    this.panel.dataset.card = id;
    this.panel.hidden = false;
  }
}

/** An inspector panel element placed in the table's wrapper (`#table-wrap`). */
export function inspectorPanel(wrap = $("#table-wrap")) {
  let panel = $("#inspector", wrap);
  if (!panel) {
    panel = el("div", { id: "inspector", class: "inspector", role: "region", "aria-label": "card details", hidden: true });
    wrap.append(panel);
  }
  return panel;
}
