// The laser battle, animated over the final table from a result's event log.
//
// The log is cut into beats, one per speed step: announce "Speed N" ("Initiative N" in
// Stellar Conflict), draw every laser of the step from its origin to where it stopped (or
// out to the edge of the view), then show what happened: shield blocks flash, rocks (or
// cargo cubes) fly from the asteroid or the robbed ship to the thief, vaporized cubes burst,
// ion hits put Delay tokens on their target, damage counters appear in the shooter's
// colour, destroyed ships explode and fade. Ships that fire at a second initiative, and
// penetrating lasers, are marked as such.
// A laser has its owner's colour and its power's width (ion dotted, penetrating dashed);
// earlier steps' lasers stay as faint traces that fade with each step. A battle log in
// words (battlelog.js) steps with the picture, and the sounds (sounds.js) with the shots.
// The picture at any moment is a function of the clock, so pause, step, replay and speed
// are just changes to the clock.

import { t } from "../../shell/i18n.js";
import "./sheet.js";
import { clear, el, showAttr, showText, svg } from "../../shell/dom.js";
import { CUBE, cubesToken, setAsteroidRocks } from "./cards.js";
import { CARD_SIZE, direction, exitPoint, fmt } from "./geometry.js";
import { BattleLog } from "./battlelog.js";
import { muteButton, sounds } from "../../shell/sounds.js";

// Milliseconds (at speed 1) of each part of a beat.
const ANNOUNCE = 500;
const LASERS = 700;
const EFFECTS = 1100;
const HOLD = 300;
const BEAT = ANNOUNCE + LASERS + EFFECTS + HOLD;
const BEAM_WIDTH = { 1: 1.3, 2: 2.6, 3: 4.2 }; // mm on the table, by power
const TRACE_OPACITY = [0.34, 0.18, 0.08]; // a trace one, two, three or more steps old
const ROCK = "#b08d57";
const SHIELD = "#5fe1ff";
const HIT = "#ffd23f";

/**
 * Split an event log into beats: one per `step` event, with the events that follow it.
 * `again` lists the ships of a step that already fired in an earlier one (Hexai ships
 * firing at their second initiative).
 */
function beatsOf(events) {
  const beats = [];
  const fired = new Set();
  for (const event of events) {
    if (event.type === "step") {
      beats.push({ speed: event.speed, ships: event.ships, events: [], again: event.ships.filter((id) => fired.has(id)) });
      for (const id of event.ships) fired.add(id);
    } else if (beats.length) beats[beats.length - 1].events.push(event);
  }
  return beats;
}

/** The counters on the table: rocks per card, damage per ship and player, cards gone. */
function initialState(table) {
  const rocks = {};
  for (const card of table.cards) rocks[card.id] = card.rocks ?? (card.type === "asteroid" ? 12 : 0);
  return { rocks, damage: {}, gone: {}, delays: {} };
}

function copyState(s) {
  return {
    rocks: { ...s.rocks },
    damage: Object.fromEntries(Object.entries(s.damage).map(([k, v]) => [k, { ...v }])),
    gone: { ...s.gone },
    delays: { ...s.delays },
  };
}

/** Apply one beat's events to a copy of `state` (`ownerOf` maps a card to its player). */
function afterBeat(state, beat, ownerOf) {
  const s = copyState(state);
  for (const ev of beat.events) {
    if (ev.type === "laser" && ev.damage && ev.target) {
      const shooter = ownerOf(ev.ship);
      s.damage[ev.target] = s.damage[ev.target] || {};
      s.damage[ev.target][shooter] = (s.damage[ev.target][shooter] || 0) + ev.damage;
    } else if (ev.type === "take" || ev.type === "transfer") {
      s.rocks[ev.source] = Math.max(0, (s.rocks[ev.source] || 0) - ev.count);
      s.rocks[ev.ship] = (s.rocks[ev.ship] || 0) + ev.count;
    } else if (ev.type === "vaporize") {
      s.rocks[ev.card] = Math.max(0, (s.rocks[ev.card] || 0) - ev.count);
    } else if (ev.type === "destroyed") {
      s.gone[ev.ship] = "destroyed";
    } else if (ev.type === "left") {
      s.gone[ev.card] = "left";
    } else if (ev.type === "delay") {
      s.delays[ev.ship] = ev.tokens;
    }
  }
  return s;
}

export class BattlePlayer {
  /**
   * `view`: the TableView (its cards already show `table`); `table`: the final table file;
   * `result`: the resolve result (its `events` are animated); `ships`: definitions by key;
   * `colourOf(player)`; `controls`: an element to fill with the battle controls; `log`:
   * an element for the battle log in words (optional); `onDone()`: called each time the
   * animation reaches its end.
   */
  constructor(view, { table, result, ships, colourOf, controls, log = null, onDone = () => {} }) {
    this.view = view;
    this.table = table;
    this.ships = { ...ships, ...(table.ships || {}) };
    this.colourOf = colourOf;
    this.controls = controls;
    this.onDone = onDone;
    this.cardSize = table.card_size || CARD_SIZE;
    this.stellar = table.ruleset === "stellar";
    this.byId = Object.fromEntries(table.cards.map((c) => [c.id, c]));
    this.beats = beatsOf(result.events || []);
    const ownerOf = (id) => this.byId[id]?.owner;
    this.before = [];
    let state = initialState(table);
    for (const beat of this.beats) {
      this.before.push(state);
      state = afterBeat(state, beat, ownerOf);
    }
    this.final = state;
    this.total = this.beats.length * BEAT;
    this.time = 0;
    this.speed = 1;
    this.playing = false;
    this.finished = false;
    this.shown = null; // [beat index, effects shown?] currently drawn
    this.frame = null;
    this.last = null;
    this.layer = svg("g", { class: "battle-layer" });
    this.traces = this.layer.appendChild(svg("g", { class: "traces" }));
    this.current = this.layer.appendChild(svg("g", { class: "current" }));
    this.effects = this.layer.appendChild(svg("g", { class: "effects" }));
    this.tokens = this.layer.appendChild(svg("g", { class: "tokens" }));
    view.battle.append(this.layer);
    view.svg.classList.add("in-battle");
    this.buildControls();
    this.heard = null; // [beat index, part] whose sound was played
    this.log = log ? new BattleLog(log, {
      beats: this.beats, table, ships: this.ships, colourOf,
      onSeek: (index) => {
        this.pause();
        this.seek(index * BEAT + ANNOUNCE + LASERS + EFFECTS);
      },
      onPoint: (ids) => {
        for (const node of this.view.cards.children) node.classList.toggle("spotlight", ids.includes(node.dataset.card));
      },
    }) : null;
  }

  /** Start playing from the beginning. */
  start() {
    this.seek(0);
    this.play();
  }

  /** Stop the animation and remove everything it drew. */
  destroy() {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = null;
    this.layer.remove();
    this.view.svg.classList.remove("in-battle");
    clear(this.controls);
    this.log?.destroy();
    for (const node of this.view.cards.children) {
      node.classList.remove("destroyed", "gone", "firing", "second-fire", "spotlight");
      const card = this.byId[node.dataset.card];
      if (card?.type === "asteroid") setAsteroidRocks(node, card.rocks ?? 12);
    }
  }

  play() {
    if (this.time >= this.total) this.seek(0);
    this.playing = true;
    this.last = null;
    this.updateButtons();
    if (!this.frame) this.frame = requestAnimationFrame((t) => this.tick(t));
  }

  pause() {
    this.playing = false;
    this.updateButtons();
  }

  /** Pause and show the next step complete (lasers drawn, effects applied). */
  step() {
    this.pause();
    const next = Math.floor(this.time / BEAT + 1e-6) * BEAT + ANNOUNCE + LASERS + EFFECTS;
    this.seek(next > this.time + 1 ? next : next + BEAT);
  }

  /** Jump to the end. */
  skip() {
    this.pause();
    this.seek(this.total);
  }

  seek(time) {
    this.time = Math.max(0, Math.min(time, this.total));
    this.render();
  }

  tick(now) {
    this.frame = null;
    if (!this.playing) return;
    if (this.last !== null) this.time = Math.min(this.total, this.time + (now - this.last) * this.speed);
    this.last = now;
    this.render();
    if (this.time >= this.total) {
      this.playing = false;
      this.updateButtons();
      return;
    }
    this.frame = requestAnimationFrame((t) => this.tick(t));
  }

  // -- drawing ---------------------------------------------------------------------------

  render() {
    const n = this.beats.length;
    if (n === 0) {
      this.showStep(null);
      this.finish();
      return;
    }
    const index = Math.min(Math.floor(this.time / BEAT), n - 1);
    const local = this.time - index * BEAT;
    const effectsOn = local >= ANNOUNCE + LASERS;
    if (!this.shown || this.shown[0] !== index) this.drawBeat(index);
    if (this.shown[1] !== effectsOn) {
      this.showCounters(effectsOn ? this.afterOf(index) : this.before[index]);
      this.shown[1] = effectsOn;
    }
    this.animate(index, local);
    const told = local >= ANNOUNCE + LASERS * 0.8;
    this.log?.show(index, told);
    const caption = this.controls.querySelector(".step-told");
    if (caption) showText(caption, told && this.log ? this.log.summary(index) : ""); // once a step, not each frame
    if (this.playing) this.sound(index, local);
    if (this.time >= this.total) this.finish();
    else this.finished = false;
  }

  /** Play the sounds of beat `index` as the clock passes them: shots, then what they did. */
  sound(index, local) {
    const part = local >= ANNOUNCE + LASERS ? 2 : local >= ANNOUNCE ? 1 : 0;
    const [was, heard] = this.heard || [-1, 0];
    if (was === index && heard >= part) return;
    this.heard = [index, part];
    const events = this.beats[index].events;
    const lasers = events.filter((e) => e.type === "laser");
    if (part >= 1 && (was !== index || heard < 1) && lasers.length) {
      sounds.fire(Math.max(...lasers.map((e) => e.power)));
    }
    if (part === 2) {
      if (events.some((e) => e.type === "destroyed")) sounds.explosion();
      else if (lasers.some((e) => e.result === "damage")) sounds.hit();
      else if (lasers.some((e) => e.result === "blocked")) sounds.shield();
    }
  }

  afterOf(index) {
    return index + 1 < this.beats.length ? this.before[index + 1] : this.final;
  }

  finish() {
    if (this.finished) return;
    this.finished = true;
    this.controls.querySelector("#battle-step")?.classList.add("done");
    this.onDone();
  }

  /** Rebuild the layers for beat `index`: earlier lasers as faint traces, this beat's parts. */
  drawBeat(index) {
    this.shown = [index, null];
    clear(this.traces);
    clear(this.current);
    clear(this.effects);
    for (let i = 0; i < index; i += 1) {
      const opacity = TRACE_OPACITY[Math.min(index - i - 1, TRACE_OPACITY.length - 1)];
      for (const ev of this.beats[i].events) {
        if (ev.type === "laser") this.traces.append(this.laserBeam(ev, 1, "trace", opacity));
      }
    }
    const beat = this.beats[index];
    this.showStep(beat);
    const firing = new Set(beat.ships);
    const again = new Set(beat.again);
    for (const node of this.view.cards.children) {
      node.classList.toggle("firing", firing.has(node.dataset.card));
      node.classList.toggle("second-fire", again.has(node.dataset.card));
    }
    this.parts = { lasers: [], flashes: [], rocks: [], explosions: [], bursts: [] };
    for (const ev of beat.events) {
      if (ev.type === "laser") {
        const [a, b] = this.laserEnds(ev);
        const g = this.laserBeam(ev, 0, "live");
        this.current.append(g);
        this.parts.lasers.push({ g, a, b });
        const mark = this.laserMark(ev, b);
        if (mark) {
          this.effects.append(mark);
          this.parts.flashes.push(mark);
        }
      } else if (ev.type === "take" || ev.type === "transfer") {
        const from = this.byId[ev.source];
        const to = this.byId[ev.ship];
        if (!from || !to) continue;
        for (let k = 0; k < ev.count; k += 1) {
          const data = { source: ev.source, ship: ev.ship };
          const dot = this.stellar
            ? svg("rect", { class: "flying-cube", width: 8, height: 8, rx: 1, fill: CUBE, stroke: "#ffffff",
              "stroke-width": 0.8, dataset: data })
            : svg("circle", { class: "flying-rock", r: 4, fill: ROCK, stroke: "#ffffff", "stroke-width": 0.8,
              dataset: data });
          this.effects.append(dot);
          this.parts.rocks.push({ dot, from: [from.x, from.y], to: [to.x, to.y], delay: k * 0.12 });
        }
      } else if (ev.type === "vaporize") {
        const card = this.byId[ev.card];
        if (card) this.burst(card, ev);
      } else if (ev.type === "delay") {
        const card = this.byId[ev.ship];
        if (!card) continue;
        const mark = svg("g", { class: "delay-mark", dataset: { ship: ev.ship, tokens: ev.tokens },
          transform: `translate(${fmt(card.x)} ${fmt(-card.y)})` },
        svg("circle", { r: 13, fill: "#0a0f1f", "fill-opacity": 0.75, stroke: "#39a7ff", "stroke-width": 2 }),
        svg("text", { y: 4.5, "font-size": 12, "text-anchor": "middle", "font-weight": "bold", fill: "#9fd4ff" },
          `+${2 * ev.tokens}`));
        this.effects.append(mark);
        this.parts.flashes.push(mark);
      } else if (ev.type === "destroyed") {
        const card = this.byId[ev.ship];
        if (!card) continue;
        const boom = svg("g", { class: "explosion", dataset: { card: ev.ship },
          transform: `translate(${fmt(card.x)} ${fmt(-card.y)})` },
        svg("circle", { r: 30, fill: "#ff7a1a", "fill-opacity": 0.8 }),
        svg("circle", { r: 18, fill: HIT }),
        svg("circle", { r: 8, fill: "#ffffff" }));
        this.effects.append(boom);
        this.parts.explosions.push(boom);
      }
    }
  }

  /** Cubes (or rocks) vaporized on `card`: small squares that fly apart and fade. */
  burst(card, ev) {
    const g = svg("g", { class: "vaporized", dataset: { card: ev.card, count: ev.count, reason: ev.reason },
      transform: `translate(${fmt(card.x)} ${fmt(-card.y)})` });
    const bits = [];
    const n = Math.min(ev.count, 12);
    for (let k = 0; k < n; k += 1) {
      const angle = (2 * Math.PI * k) / n + 0.4;
      const bit = svg("rect", { width: 6, height: 6, x: -3, y: -3, fill: this.stellar ? CUBE : ROCK });
      g.append(bit);
      bits.push({ bit, dx: Math.cos(angle), dy: Math.sin(angle) });
    }
    g.append(svg("text", { y: -16, "font-size": 10, "text-anchor": "middle", "font-weight": "bold", fill: "#ffb1b1",
      stroke: "#0a0f1f", "stroke-width": 2.5, "paint-order": "stroke" }, t("−{n} vaporized", { n: ev.count })));
    this.effects.append(g);
    this.parts.bursts.push({ g, bits });
  }

  /**
   * The beam of a laser event in its owner's colour (`phase` trace: a faint finished line
   * of `opacity`; live: grows).
   */
  laserBeam(ev, fraction, phase, opacity = 1) {
    const [a, b] = this.laserEnds(ev);
    const end = [a[0] + (b[0] - a[0]) * fraction, a[1] + (b[1] - a[1]) * fraction];
    const owner = this.byId[ev.ship]?.owner;
    const g = ownerBeam([a[0], -a[1]], [end[0], -end[1]], ev.power, ev.kind || "normal", this.colourOf(owner), {
      class: `laser ${phase} power-${ev.power} kind-${ev.kind || "normal"} result-${ev.result} step-${ev.speed}`,
      dataset: { ship: ev.ship, laser: ev.laser, target: ev.target || "", owner: owner || "" },
    });
    if (phase === "trace") g.setAttribute("opacity", String(opacity));
    return g;
  }

  /** A laser's start and end in table coordinates; a shot into space runs to the view edge. */
  laserEnds(ev) {
    const a = ev.origin;
    if (ev.end) return [a, ev.end];
    const card = this.byId[ev.ship];
    const def = card && this.ships[card.ship];
    const laser = def?.lasers?.[ev.laser];
    const d = laser ? direction(card, laser.angle) : [0, 1];
    return [a, exitPoint(this.view.box, a, d)];
  }

  /** What shows where a laser stopped: a shield flash, a hit star or a mining spark. */
  laserMark(ev, end) {
    const at = `translate(${fmt(end[0])} ${fmt(-end[1])})`;
    const data = { target: ev.target || "", ship: ev.ship };
    if (ev.result === "blocked") {
      const target = this.byId[ev.target];
      const along = target ? -target.rotation + (ev.edge === "front" || ev.edge === "back" ? 0 : 90) : 0;
      return svg("g", { class: "shield-block", transform: `${at} rotate(${fmt(along)})`, dataset: data },
        svg("circle", { r: 9, fill: "#ffffff", "fill-opacity": 0.35 }),
        svg("line", { x1: -12, y1: 0, x2: 12, y2: 0, stroke: SHIELD, "stroke-width": 5, "stroke-linecap": "round" }),
        svg("line", { x1: -12, y1: 0, x2: 12, y2: 0, stroke: "#ffffff", "stroke-width": 1.5, "stroke-linecap": "round" }));
    }
    if (ev.result === "damage" || ev.result === "ion") {
      const points = [];
      for (let i = 0; i < 16; i += 1) {
        const r = i % 2 === 0 ? 9 : 4;
        const a = (i * Math.PI) / 8;
        points.push(`${fmt(Math.cos(a) * r)},${fmt(Math.sin(a) * r)}`);
      }
      const hit = ev.result === "damage";
      const pierce = hit && ev.kind === "penetrating";
      const kind = pierce ? "hit pierce" : hit ? "hit" : "ion-hit";
      return svg("g", { class: kind, transform: at, dataset: { ...data, damage: ev.damage } },
        svg("polygon", { points: points.join(" "), fill: pierce ? "#ff8c1a" : hit ? HIT : "#39a7ff",
          stroke: pierce ? "#ffffff" : "#ff6b00", "stroke-width": 0.6 }),
        hit ? svg("text", { y: 3, "font-size": 8, "text-anchor": "middle", "font-weight": "bold", fill: "#1d2230" }, String(ev.damage)) : null);
    }
    if (ev.result === "mine") {
      return svg("g", { class: "mine-hit", transform: at, dataset: data },
        svg("circle", { r: 6, fill: ROCK, "fill-opacity": 0.6 }),
        svg("circle", { r: 3, fill: "#ffffff" }));
    }
    return null;
  }

  /** Move the animated parts to time `local` (ms into the beat). */
  animate(index, local) {
    const grow = clamp((local - ANNOUNCE) / LASERS);
    for (const { g, a, b } of this.parts.lasers) {
      const x = a[0] + (b[0] - a[0]) * grow;
      const y = a[1] + (b[1] - a[1]) * grow;
      for (const line of g.children) {
        showAttr(line, "x2", fmt(x));
        showAttr(line, "y2", fmt(-y));
      }
      showAttr(g, "opacity", grow > 0 ? "1" : "0");
    }
    const e = (local - ANNOUNCE - LASERS) / EFFECTS;
    for (const mark of this.parts.flashes) {
      showAttr(mark, "opacity", e < 0 ? "0" : fmt(0.55 + 0.45 * Math.abs(Math.cos(e * Math.PI * 3))));
    }
    for (const { dot, from, to, delay } of this.parts.rocks) {
      const f = clamp((e - delay) / 0.6);
      showAttr(dot, "cx", fmt(from[0] + (to[0] - from[0]) * f));
      showAttr(dot, "cy", fmt(-(from[1] + (to[1] - from[1]) * f)));
      showAttr(dot, "opacity", e < delay || f >= 1 ? "0" : "1");
    }
    for (const { g, bits } of this.parts.bursts) {
      const f = clamp((e - 0.15) / 0.7);
      showAttr(g, "opacity", f <= 0 || f >= 1 ? "0" : fmt(1 - f * f));
      for (const { bit, dx, dy } of bits) {
        showAttr(bit, "transform", `translate(${fmt(dx * 30 * f)} ${fmt(dy * 30 * f)})`);
      }
    }
    for (const boom of this.parts.explosions) {
      const f = clamp((e - 0.3) / 0.7);
      showAttr(boom, "opacity", f <= 0 || f >= 1 ? "0" : fmt(1 - f * f));
      for (const [i, circle] of [...boom.children].entries()) {
        showAttr(circle, "r", fmt([30, 18, 8][i] * (0.3 + 1.2 * f)));
      }
    }
    // Ships destroyed in this beat leave once their explosion has flashed.
    const gone = e >= 0.6 ? this.afterOf(index).gone : this.before[index].gone;
    for (const node of this.view.cards.children) {
      const reason = gone[node.dataset.card];
      node.classList.toggle("destroyed", reason === "destroyed");
      node.classList.toggle("gone", Boolean(reason));
    }
  }

  /** Draw the counters of `state`: damage in each shooter's colour, rocks, delay tokens. */
  showCounters(state) {
    clear(this.tokens);
    for (const card of this.table.cards) {
      const node = this.view.cardElement(card.id);
      const rocks = state.rocks[card.id] ?? 0;
      if (card.type === "asteroid") {
        if (node) setAsteroidRocks(node, rocks);
        continue;
      }
      const damage = Object.entries(state.damage[card.id] || {}).filter(([, n]) => n > 0);
      damage.forEach(([player, count], i) => {
        const x = card.x + (i - (damage.length - 1) / 2) * 13;
        this.tokens.append(svg("g", { class: "damage", dataset: { card: card.id, player, count } },
          svg("rect", { x: fmt(x - 5.5), y: fmt(-card.y + 2), width: 11, height: 11, rx: 1.5,
            fill: this.colourOf(player), stroke: "#ffffff", "stroke-width": 0.9 }),
          svg("text", { x: fmt(x), y: fmt(-card.y + 11), "font-size": 8.5, "text-anchor": "middle",
            "font-weight": "bold", fill: "#ffffff" }, String(count))));
      });
      if (rocks > 0 && !state.gone[card.id]) {
        const data = { class: "rocks", dataset: { card: card.id, count: rocks } };
        this.tokens.append(this.stellar
          ? cubesToken(card.x - 20, -card.y - 12, rocks, data)
          : token(card, -12, String(rocks), ROCK, data));
      }
      if (state.delays[card.id]) {
        this.tokens.append(token(card, 12, `D${state.delays[card.id]}`, "#c9a400",
          { class: "delay", dataset: { card: card.id, tokens: state.delays[card.id] } }));
      }
    }
  }

  // -- controls --------------------------------------------------------------------------

  showStep(beat) {
    const label = this.controls.querySelector("#battle-step");
    if (!label) return;
    if (!beat) {
      label.textContent = t("No ship fires");
      label.dataset.speed = "";
      return;
    }
    const index = this.beats.indexOf(beat);
    const delays = this.before[index]?.delays || {};
    const names = beat.ships.map((id) => {
      const card = this.byId[id];
      const name = card ? t("{owner}'s {ship}", { owner: card.owner, ship: this.ships[card.ship]?.name || card.ship }) : id;
      const notes = [];
      if (beat.again.includes(id)) notes.push(t("fires again"));
      if (delays[id]) notes.push(t("delayed +{n}", { n: 2 * delays[id] }));
      return notes.length ? `${name} (${notes.join(", ")})` : name;
    });
    label.dataset.speed = String(beat.speed);
    label.dataset.again = beat.again.join(" ");
    label.classList.remove("done");
    const word = this.stellar ? t("Initiative") : t("Speed");
    clear(label).append(el("strong", { text: `${word} ${beat.speed}` }), el("span", { class: "firing-ships", text: names.join(", ") }),
      el("span", { class: "step-told", "aria-hidden": "true" }));
  }

  buildControls() {
    clear(this.controls);
    const speeds = el("select", { id: "battle-speed", title: t("animation speed"),
      on: { change: (e) => { this.speed = Number(e.target.value); } } },
    ...[0.5, 1, 2, 4, 8].map((v) => el("option", { value: v, selected: v === 1, text: `${v}x` })));
    this.controls.append(
      el("div", { id: "battle-step", class: "battle-step", "aria-live": "polite" }),
      el("div", { class: "battle-buttons" },
        el("button", { id: "battle-play", type: "button", on: { click: () => (this.playing ? this.pause() : this.play()) } }, t("Pause")),
        el("button", { id: "battle-next", type: "button", title: t("show the next speed step"), on: { click: () => this.step() } }, t("Step")),
        el("button", { id: "battle-replay", type: "button", on: { click: () => this.start() } }, t("Replay")),
        el("button", { id: "battle-skip", type: "button", title: t("jump to the end"), on: { click: () => this.skip() } }, t("End")),
        el("label", { class: "speed-select" }, t("speed") + " ", speeds),
        muteButton()),
    );
  }

  updateButtons() {
    const button = this.controls.querySelector("#battle-play");
    if (button) button.textContent = this.playing ? t("Pause") : t("Play");
  }
}

/**
 * A beam in the shooter's `colour`, as wide as its `power`: a soft glow, the coloured beam
 * and a white core; ion lasers have a dotted core, penetrating ones a dashed one.
 */
function ownerBeam(a, b, power, kind, colour, attrs) {
  const w = BEAM_WIDTH[power] ?? BEAM_WIDTH[3] * (power / 3);
  const line = (stroke, width, extra = {}) => svg("line", { x1: fmt(a[0]), y1: fmt(a[1]), x2: fmt(b[0]), y2: fmt(b[1]),
    stroke, "stroke-width": fmt(width), "stroke-linecap": extra.dash ? "butt" : "round",
    "stroke-opacity": extra.opacity ?? null, "stroke-dasharray": extra.dash ?? null });
  const core = kind === "ion" ? { dash: `${fmt(w * 0.4)} ${fmt(w * 0.9)}` }
    : kind === "penetrating" ? { dash: `${fmt(w * 2)} ${fmt(w)}` } : {};
  return svg("g", { ...attrs, "data-colour": colour },
    line(colour, w * 2.6, { opacity: 0.3 }),
    line(colour, w),
    line("#ffffff", Math.max(0.5, w * 0.32), core));
}

function token(card, dx, label, fill, attrs) {
  const x = card.x + dx;
  const y = -card.y - 12;
  return svg("g", attrs,
    svg("circle", { cx: fmt(x), cy: fmt(y), r: 6.5, fill, stroke: "#ffffff", "stroke-width": 0.9 }),
    svg("text", { x: fmt(x), y: fmt(y + 3), "font-size": 8, "text-anchor": "middle", "font-weight": "bold", fill: "#ffffff" }, label));
}

function clamp(v) {
  return Math.max(0, Math.min(1, v));
}
