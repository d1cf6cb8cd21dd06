// The card inspector: hover a card on the table (or click it, to keep it open) to see it
// large beside the table with its facts in words: owner, speed, health, what it is worth,
// each laser (power, direction, kind) and each shield.

import { t, tn } from "../../shell/i18n.js";
import "./sheet.js";
import { $, clear, el, svg } from "../../shell/dom.js";
import { cardFace } from "./cards.js";
import { CARD_SIZE, fmt } from "./geometry.js";

function direction(angle) {
  const a = ((Number(angle) % 360) + 540) % 360 - 180; // -180..180, 0 ahead, 90 left
  if (Math.abs(a) <= 10) return t("straight ahead");
  if (Math.abs(a) >= 170) return t("straight back");
  const deg = Math.round(Math.abs(a));
  if (a > 0) {
    if (deg === 90) return t("to the left");
    return deg < 90 ? t("ahead, {deg}° to the left", { deg }) : t("backward, to the left");
  }
  if (deg === 90) return t("to the right");
  return deg < 90 ? t("ahead, {deg}° to the right", { deg }) : t("backward, to the right");
}

function shieldText(sh, size) {
  const span = sh.edge === "front" || sh.edge === "back" ? size[0] : size[1];
  const covered = Math.abs(sh.to - sh.from) / span;
  const part = covered >= 0.95 ? t("all of it") : covered >= 0.45 ? t("about half of it") : t("part of it");
  const edge = { front: t("front edge"), back: t("back edge"), left: t("left side"), right: t("right side") }[sh.edge] || sh.edge;
  return t("{edge}: {part}", { edge, part });
}

/**
 * The facts of a card as lines of words: `def` its definition, `card` where it lies
 * (owner, rocks), `stellar` whether VP and credits count.
 */
export function cardFacts(card, def, stellar) {
  if (card.type === "asteroid") {
    const rocks = card.rocks ?? 12;
    return [stellar ? tn("An asteroid with {n} cube.", "An asteroid with {n} cubes.", rocks)
      : tn("An asteroid with {n} rock.", "An asteroid with {n} rocks.", rocks), t("Ships that hit it mine it.")];
  }
  const speeds = Array.isArray(def.speed) ? def.speed : [def.speed];
  // (Each message apart: Babel's extraction does not look inside another message's call.)
  const word = stellar ? t("Initiative") : t("Speed");
  const and = t(" and ");
  const when = speeds.length > 1 ? t("fires twice, at each") : t("fires at this step");
  const facts = [
    t("{word} {speeds}: {when} (lowest first).", { word, speeds: speeds.join(and), when }),
    t("Health {n}: destroyed by {n} damage.", { n: def.health }),
  ];
  if (stellar) {
    facts.push(def.credits ? t("Worth {vp} VP to the player whose kill pile it goes to; costs {credits} credits.", { vp: def.vp ?? def.health, credits: def.credits })
      : t("Worth {vp} VP to the player whose kill pile it goes to.", { vp: def.vp ?? def.health }));
  } else facts.push(tn("Worth {n} point to the player whose kill pile it goes to.", "Worth {n} points to the player whose kill pile it goes to.", def.health));
  const roles = { cargo: t("A cargo ship."), flag: t("A flag ship."), scout: t("A scout ship.") };
  if (def.role && def.role !== "warship") facts.push(roles[def.role] || def.role);
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
      role: "img", "aria-label": card.type === "asteroid" ? t("asteroid card") : t("{ship} card", { ship: def.name }) },
    cardFace(card, ships, colour, size, stellar ? "cubes" : "rocks"));
    const title = card.type === "asteroid" ? t("Asteroid") : t("{owner}'s {ship}", { owner: card.owner, ship: def.name });
    const kinds = { ion: t(" ion"), penetrating: t(" penetrating") };
    const lasers = (def.lasers || []).map((lz) => el("li", {},
      el("span", { class: `legend-beam power-${lz.power}`, style: `--team: ${colour}`, "aria-hidden": "true" }),
      " " + t("power {power}{kind}, {direction}", { power: lz.power, kind: kinds[lz.kind] || "", direction: direction(lz.angle) })));
    const shields = (def.shields || []).map((sh) => el("li", { text: shieldText(sh, def.card_size || CARD_SIZE) }));
    clear(this.panel).append(...[
      el("div", { class: "inspector-head", style: colour ? `--team: ${colour}` : null },
        el("span", { class: "swatch", "aria-hidden": "true" }), el("strong", { class: "inspector-title", text: title }),
        el("button", { type: "button", class: "inspector-close link", "aria-label": t("close"), title: t("close (Esc)"),
          on: { click: () => this.close() } }, "×")),
      face,
      el("ul", { class: "inspector-facts" }, ...cardFacts(card, def, stellar).map((t) => el("li", { text: t }))),
      card.type === "asteroid" ? null : el("p", { class: "inspector-sub", text: lasers.length ? t("Lasers") : t("No lasers") }),
      lasers.length ? el("ul", { class: "inspector-lasers" }, ...lasers) : null,
      card.type === "asteroid" ? null : el("p", { class: "inspector-sub", text: shields.length ? t("Shields") : t("No shields") }),
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
    panel = el("div", { id: "inspector", class: "inspector", role: "region", "aria-label": t("card details"), hidden: true });
    wrap.append(panel);
  }
  return panel;
}
