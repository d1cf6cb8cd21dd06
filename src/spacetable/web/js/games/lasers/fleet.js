// Stellar Conflict's preparation: each player picks the ships of his race that join the
// battle within the credits, while the others see only who has chosen. The Cargo and Flag
// ships join every deck by themselves, so they are shown apart and cannot be picked.

import "./sheet.js";
import { clear, el, svg } from "../../shell/dom.js";
import { beam, shipFace } from "./cards.js";
import { CARD_SIZE } from "./geometry.js";
import { t, tn } from "../../shell/i18n.js";

const BATTLES = () => ({ dispute: t("Dispute"), conflict: t("Conflict"), war: t("War") });

/** A ship card drawn as a small standalone SVG. */
function preview(def, colour) {
  const [w, h] = CARD_SIZE;
  return svg("svg", { class: "card-preview", viewBox: `${-w / 2 - 1} ${-h / 2 - 1} ${w + 2} ${h + 2}`,
    role: "img", "aria-label": def.name }, shipFace(def, colour));
}

/** Where the card key's last state (open or closed) is kept: open until a player closes it. */
const KEY_SHUT = "spacetable.card-key";

/** A laser's mark as the cards draw it, small, for the key. */
function stub(power, kind = "normal") {
  return svg("svg", { class: "key-stub", viewBox: "0 -3 16 6", "aria-hidden": "true" }, beam([2, 0], [14, 0], power, kind));
}

/** "How to read a card": what the marks on a ship card mean, before a player buys ships by them. */
function cardKey() {
  let open = true;
  try {
    open = localStorage.getItem(KEY_SHUT) !== "closed";
  } catch {
    // storage disabled: the key opens every time
  }
  const line = (marks, text) => el("li", {}, ...marks, " " + text);
  const box = el("details", { class: "card-key", open },
    el("summary", { text: t("How to read a card") }),
    el("ul", {},
      line([el("span", { class: "key-badge", "aria-hidden": "true", text: "3" })], t("top left: its initiative; the lowest fire first")),
      line([el("span", { class: "key-dot", "aria-hidden": "true" }), el("span", { class: "key-dot", "aria-hidden": "true" })],
        t("red dots down the right: its health, the damage that destroys it")),
      line([stub(1), stub(2), stub(3)], t("a mark on an edge: a laser firing out that way; white power 1, red 2, green 3")),
      line([stub(2, "ion")], t("blue: an ion laser, no damage but a Delay token")),
      line([stub(2, "penetrating")], t("orange: a penetrating laser, through shields")),
      line([el("span", { class: "key-shield", "aria-hidden": "true" })], t("a cyan bar along an edge: a shield")),
      line([], t("along the bottom: the VP it is worth and its cost in credits"))));
  // Kept as the click opens or closes it: the `toggle` event comes a task later, after a
  // reload the player asked for at once (the key opened again); a change of the `open`
  // attribute is seen before anything else runs.
  new MutationObserver(() => {
    try {
      localStorage.setItem(KEY_SHUT, box.open ? "open" : "closed");
    } catch {
      // storage disabled
    }
  }).observe(box, { attributes: true, attributeFilter: ["open"] });
  return box;
}

/** One line about a ship: its cost, worth and initiative. */
function facts(def) {
  const speeds = Array.isArray(def.speed) ? def.speed.join(" & ") : def.speed;
  const cost = def.credits ? t("{credits} cr", { credits: def.credits }) : t("free");
  const worth = t("{vp} VP", { vp: def.vp ?? def.health });
  const initiative = t("initiative {speeds}", { speeds });
  return [cost, worth, initiative].join(" · ");
}

const SUGGEST_TITLE = () => t("pick a fleet for me: the strongest ships the credits allow (you can change any card)");

export class FleetBuilder {
  /**
   * The builder in `container`. `races()` gives `{race: {name, ships: [keys]}}`;
   * `onSend(ships)` sends the chosen fleet (returns false if it could not be sent).
   */
  constructor(container, { races, onSend }) {
    this.container = container;
    this.races = races;
    this.onSend = onSend;
    this.key = null; // the match (and race) the selection belongs to
    this.selected = new Set();
    this.sending = false;
  }

  /** Forget the selection (a new match). */
  reset() {
    this.key = null;
    this.selected = new Set();
    this.sending = false;
  }

  /** Show why the server refused the fleet. */
  refused(reason) {
    this.sending = false;
    const box = this.container.querySelector("#fleet-error");
    if (box) {
      box.textContent = reason;
      box.hidden = false;
    }
    this.update();
  }

  /**
   * Draw the builder for `state` (a Stellar Conflict `state` message in preparation):
   * `ships` are the definitions by key, `colour` the player's, `names` the players by
   * seat, `matchId` the match the selection belongs to.
   */
  render(state, { ships, colour, matchId }) {
    this.state = state;
    this.ships = ships;
    const me = state.player;
    const race = me ? state.players[me].race : null;
    const key = `${matchId}/${race}`;
    if (key !== this.key) {
      this.reset();
      this.key = key;
      this.build(race, colour);
      this.restore();
    }
    this.update();
  }

  /** The picks made before a reload of the page (kept for this tab, per match and race). */
  restore() {
    let saved = [];
    try {
      saved = JSON.parse(sessionStorage.getItem(`spacetable-fleet/${this.key}`) || "[]");
    } catch {
      return; // storage unavailable or garbled: start afresh
    }
    const choosable = new Set([...this.container.querySelectorAll("button.fleet-card")].map((b) => b.dataset.ship));
    for (const key of Array.isArray(saved) ? saved : []) {
      if (choosable.has(key) && this.spent() + (this.ships[key]?.credits || 0) <= this.state.credits) {
        this.selected.add(key);
      }
    }
  }

  save() {
    try {
      sessionStorage.setItem(`spacetable-fleet/${this.key}`, JSON.stringify([...this.selected]));
    } catch {
      // storage full or disabled: the picks just do not survive a reload
    }
  }

  /** The race's ships as cards: the two that always come along, then the choosable ones. */
  build(race, colour) {
    const box = clear(this.container);
    const state = this.state;
    const battle = `${BATTLES()[state.battle_size] || state.battle_size} · ${tn("{n} credit", "{n} credits", state.credits)}`;
    if (!race) {
      box.append(el("h2", { text: t("Preparation · {battle}", { battle }) }),
        el("p", { text: t("The players are choosing their fleets in secret.") }),
        el("ul", { id: "fleet-status", class: "fleet-status" }));
      return;
    }
    const keys = this.races()[race]?.ships || [];
    const defs = keys.map((k) => [k, this.ships[k]]).filter(([, d]) => d);
    const always = defs.filter(([, d]) => d.role === "cargo" || d.role === "flag");
    const choosable = defs.filter(([, d]) => d.role !== "cargo" && d.role !== "flag");
    const raceName = this.races()[race]?.name || race;
    box.append(
      el("h2", {}, t("Your {race} fleet · {battle}", { race: raceName, battle })),
      el("p", { class: "fleet-help", text: t("Pick the ships that join the battle; click a card again to leave it out. "
        + "Your deck is shuffled; the Cargo ship goes on top and the Flag ship at the bottom.") }),
      cardKey(),
      el("div", { class: "fleet-budget" },
        el("span", { id: "fleet-credits", class: "fleet-credits" }),
        el("span", { class: "budget-bar" }, el("span", { id: "fleet-bar", class: "budget-fill" })),
        el("button", { type: "button", id: "suggest-fleet", class: "secondary", title: SUGGEST_TITLE(),
          on: { click: () => this.suggest() } }, t("Suggest a fleet")),
        el("button", { type: "button", id: "send-fleet", on: { click: () => this.send() } }, t("Take this fleet"))),
      el("p", { id: "fleet-error", class: "error", role: "alert", hidden: true }),
    );
    const grid = el("div", { class: "fleet-grid", id: "fleet-grid" });
    for (const [key, def] of always) {
      if (this.state.asteroids && def.role === "cargo") continue; // asteroids replace cargo ships
      grid.append(el("figure", { class: "fleet-card always", dataset: { ship: key, role: def.role } },
        preview(def, colour),
        el("figcaption", {}, el("strong", { text: def.name }), el("span", { text: def.role === "cargo" ? t("always in your deck (cargo)") : t("always in your deck (flag)") }))));
    }
    for (const [key, def] of choosable) {
      grid.append(el("button", { type: "button", class: "fleet-card", dataset: { ship: key, credits: def.credits || 0 },
        "aria-pressed": "false", on: { click: () => this.toggle(key) } },
      preview(def, colour),
      el("span", { class: "caption" }, el("strong", { text: def.name }), el("span", { class: "facts", text: facts(def) }))));
    }
    box.append(grid, el("ul", { id: "fleet-status", class: "fleet-status" }));
  }

  spent() {
    return [...this.selected].reduce((sum, key) => sum + (this.ships[key]?.credits || 0), 0);
  }

  toggle(key) {
    if (this.sending || this.state?.fleet) return;
    if (this.selected.has(key)) this.selected.delete(key);
    else if (this.spent() + (this.ships[key]?.credits || 0) <= this.state.credits) this.selected.add(key);
    this.save();
    const error = this.container.querySelector("#fleet-error");
    if (error) error.hidden = true;
    this.update();
  }

  /**
   * Pick a fleet for a newcomer: the strongest ships first (the most credits) while the
   * budget allows, then cheaper ones to spend what is left. Any card can then be changed.
   */
  suggest() {
    if (this.sending || this.state?.fleet) return;
    const cards = [...this.container.querySelectorAll("button.fleet-card")].map((b) => b.dataset.ship);
    const byCost = cards.map((key, order) => ({ key, order, cost: this.ships[key]?.credits || 0 }))
      .sort((a, b) => b.cost - a.cost || a.order - b.order);
    this.selected = new Set();
    let left = this.state.credits;
    for (const { key, cost } of byCost) {
      if (cost <= left) {
        this.selected.add(key);
        left -= cost;
      }
    }
    this.save();
    this.update();
  }

  send() {
    if (this.sending || this.state?.fleet || !this.selected.size) return;
    if (this.onSend([...this.selected])) this.sending = true;
    this.update();
  }

  /** Counters, which cards can still be afforded, and who has chosen. */
  update() {
    const state = this.state;
    const box = this.container;
    const chosen = state.fleet; // ours once the server took it
    if (chosen) this.selected = new Set(chosen);
    const credits = state.credits;
    const spent = this.spent();
    const counter = box.querySelector("#fleet-credits");
    if (counter) {
      const budget = tn("{spent} / {n} credit spent", "{spent} / {n} credits spent", credits, { spent });
      const picked = tn("{n} ship picked", "{n} ships picked", this.selected.size);
      counter.textContent = `${budget} · ${picked}`;
      Object.assign(counter.dataset, { spent, credits });
      box.querySelector("#fleet-bar").style.width = `${Math.min(100, (100 * spent) / Math.max(credits, 1))}%`;
    }
    for (const card of box.querySelectorAll("button.fleet-card")) {
      const key = card.dataset.ship;
      const picked = this.selected.has(key);
      const cost = Number(card.dataset.credits);
      const affordable = picked || spent + cost <= credits;
      card.setAttribute("aria-pressed", String(picked));
      card.classList.toggle("picked", picked);
      card.disabled = Boolean(chosen) || this.sending || !affordable;
      card.title = affordable ? "" : t("costs {cost} credits: {left} left", { cost, left: credits - spent });
    }
    const button = box.querySelector("#send-fleet");
    if (button) {
      const none = !chosen && !this.selected.size;
      button.disabled = Boolean(chosen) || this.sending || none;
      button.title = none ? t("pick at least one ship (or press Suggest a fleet)") : "";
      const take = tn("Take this {n} ship", "Take these {n} ships", this.selected.size);
      button.textContent = chosen ? t("Fleet chosen ✓") : this.sending ? t("Sending…") : none ? t("Pick your ships") : take;
    }
    const suggest = box.querySelector("#suggest-fleet");
    if (suggest) suggest.hidden = Boolean(chosen);
    box.dataset.chosen = chosen ? "yes" : "no";
    const status = box.querySelector("#fleet-status");
    if (status) {
      clear(status);
      for (const [player, s] of Object.entries(state.players)) {
        const doing = s.fleet_chosen ? t("fleet chosen") : t("choosing…");
        status.append(el("li", { class: s.fleet_chosen ? "chosen" : "choosing", dataset: { player } },
          player === state.player ? t("{player} (you): {doing}", { player, doing }) : t("{player}: {doing}", { player, doing })));
      }
    }
  }
}
