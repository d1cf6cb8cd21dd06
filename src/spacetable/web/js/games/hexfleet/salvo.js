// Hex fleet cards on screen: the playing cards one action turned, as real card faces that
// flip face up one by one.
//
// API (kept stable: the room page and the replay import it):
//   export async function showCards(container, frame, { speed = 1, sound = true } = {})
//     container: an element the cards are drawn into (emptied first).
//     frame: one `acted` frame (or a stored replay frame): uses frame.events (the `shields`,
//       `hail`, `fire`, `damage` and `reshuffle` events) and frame.ships (names, classes,
//       shield points), and frame.deck ({pile, discards, reshuffles}) for the deck indicator.
//     Lays out, for a salvo, the fire cards (those whose suit got through the shields lit,
//     the others dimmed) with a caption, then one damage card per hit labelled with the
//     system it strikes and what is left (a club set aside: "♣ drawn again"); for a shields
//     try or a hail, the two cards and whether they matched. Resolves when every card is
//     face up (at once if the frame turned no card). `speed` scales the pace (2 = twice as
//     fast); prefers-reduced-motion shows the cards without flipping.
//   export function cardFace(name) -> HTMLElement: one card face ("10S", "KH").
//   export function turnsCards(frame) -> boolean: whether the frame turned any card.

import "./sheet.js";
import { el, reducedMotion } from "../../shell/dom.js";
import { t, tn } from "../../shell/i18n.js";
import { sounds } from "../../shell/sounds.js";
import { SUITS, rankShown } from "./cardnames.js";


/** Milliseconds between two cards turned, and the pause between the fire and damage rows. */
const FLIP_MS = 420;
const PAUSE_MS = 700;

const rankOf = (card) => card.slice(0, -1);
const suitOf = (card) => card.slice(-1);
const isRed = (card) => "HD".includes(suitOf(card));

/** A card's name in words: "10S" -> "10 of spades". */
export function cardWords(card) {
  const rank = rankOf(card);
  const ranks = { A: t("ace"), J: t("jack"), Q: t("queen"), K: t("king") };
  const suits = { S: t("spades"), H: t("hearts"), D: t("diamonds"), C: t("clubs") };
  return t("{rank} of {suit}", { rank: ranks[rank] || rank, suit: suits[suitOf(card)] });
}

/**
 * One playing card, face down until `.up` is set on it: rank and suit in two corners and a
 * large suit in the middle, red for hearts and diamonds.
 */
export function cardFace(name) {
  const rank = rankShown(rankOf(name));
  const suit = SUITS[suitOf(name)];
  const corner = (cls) => el("span", { class: `hx-corner ${cls}` }, el("b", { text: rank }), el("span", { text: suit }));
  return el("div", { class: `hx-card ${isRed(name) ? "red" : "black"}`, dataset: { card: name }, role: "img", "aria-label": cardWords(name) },
    el("div", { class: "hx-card-inner" },
      el("div", { class: "hx-card-back", "aria-hidden": "true" }),
      el("div", { class: "hx-card-front", "aria-hidden": "true" },
        corner("top"), el("span", { class: "hx-pip", text: suit }), corner("bottom"))));
}

/** The plays of a frame that turned cards, in order: shields, hail, fire (with its damage). */
function playsOf(events) {
  const plays = [];
  let salvo = null;
  let reshuffled = false;
  for (const event of events || []) {
    if (event.type === "reshuffle") {
      reshuffled = true;
      if (salvo) salvo.reshuffles.push(salvo.damage.length);
      continue;
    }
    if (event.type === "damage" && salvo) {
      salvo.damage.push(event);
      continue;
    }
    salvo = null;
    if (event.type === "fire") {
      salvo = { kind: "fire", event, damage: [], reshuffles: [], reshuffledBefore: reshuffled };
      plays.push(salvo);
    } else if (event.type === "shields" || event.type === "hail") {
      plays.push({ kind: event.type, event, reshuffledBefore: reshuffled });
    }
    reshuffled = false;
  }
  return plays;
}

/** Whether a frame turned any playing card (a shields try, a hail or a salvo). */
export function turnsCards(frame) {
  return playsOf(frame?.events).length > 0;
}

const suitList = (suits) => [...suits].map((s) => SUITS[s]).join("");

/**
 * What the target's shields were when the salvo was fired, in words: "shields up 16/16: only
 * ♠ hit". The fire event says it (`shields_up`, `shields`: as the log tells it, one source);
 * a battle stored before the event carried them is told from the ships after the salvo.
 */
function shieldWords(target, salvo) {
  const { suits } = salvo.event;
  const hitting = suits === "SHDC" ? t("every card hits") : suits.length === 1 ? t("only {suits} hit", { suits: suitList(suits) })
    : t("{suits} hit", { suits: suitList(suits) });
  let up = salvo.event.shields_up;
  let points = salvo.event.shields;
  if (up === undefined || points === undefined) {
    if (!target) return hitting;
    points = target.shields + salvo.damage.filter((d) => d.system === "shields").length;
    up = suits !== "SHDC" || target.shields_up;
  }
  if (!up || points === 0) return t("shields down: {hitting}", { hitting });
  return target ? t("shields up {points}/{max}: {hitting}", { points, max: target.shields_max, hitting })
    : t("shields up {points}: {hitting}", { points, hitting });
}

/** What a damage card did, for its label: "shields 15/16", "♣ drawn again". */
function damageWords(damage, target) {
  if (!damage.system) return "♣ " + t("drawn again");
  const max = target ? target[`${damage.system === "weapons" ? "weapon_systems" : damage.system}_max`] : null;
  const system = { shields: t("shields"), weapons: t("weapons"), propulsion: t("propulsion") }[damage.system] || damage.system;
  return max ? t("{system} {left}/{max}", { system, left: damage.left, max }) : t("{system} {left}", { system, left: damage.left });
}

/** Why a two-card try matched: "a pair" or "same colour (both red)". */
function matchWords(cards) {
  const [a, b] = cards;
  return rankOf(a) === rankOf(b) ? t("a pair") : isRed(a) ? t("same colour (both red)") : t("same colour (both black)");
}

/** The deck as it stands: cards left in the pile, discards, and whether it was reshuffled. */
function deckIndicator(deck, reshuffled) {
  if (!deck) return null;
  const discards = Array.isArray(deck.discards) ? deck.discards.length : deck.discards;
  const pileWords = tn("{n} card", "{n} cards", deck.pile);
  const discardWords = tn("{n} discard", "{n} discards", discards);
  return el("p", { class: `hx-deck${reshuffled ? " reshuffled" : ""}` },
    el("span", { class: "hx-deck-pile", "aria-hidden": "true" }),
    el("span", { text: t("deck: {pile} left · {discards}", { pile: pileWords, discards: discardWords }) }),
    reshuffled ? el("b", { class: "hx-reshuffled", text: " · " + t("reshuffled!") }) : null);
}

/** Lay out one play (hidden cards, captions) and return it with the steps that reveal it. */
function layOut(play, names, ships) {
  const nameOf = (id) => names[id] || t("ship {id}", { id });
  const event = play.event;
  const steps = [];
  const ranOut = play.reshuffledBefore
    ? el("p", { class: "hx-reshuffle-note", text: t("reshuffled! The pile ran out as these cards were turned: the discards became a new pile.") })
    : null;
  if (play.kind === "fire") {
    const target = ships[event.target];
    const fireRow = el("div", { class: "hx-cards hx-fire-cards" });
    for (const card of event.cards) {
      const lit = event.suits.includes(suitOf(card));
      const face = cardFace(card);
      face.classList.add(lit ? "hit" : "miss");
      face.title = lit ? t("{card}: gets through the shields — a hit", { card: cardWords(card) }) : t("{card}: stopped by the shields", { card: cardWords(card) });
      fireRow.append(face);
      steps.push({ node: face, sound: lit ? "fire" : "place" });
    }
    // The number of hits shows once the fire cards are all up.
    const hits = el("b", { class: "hx-hits", text: `— ${event.hits === 0 ? t("no hit") : tn("{n} hit", "{n} hits", event.hits)}` });
    hits.hidden = true;
    steps.push({ node: hits, reveal: true });
    const caption = el("p", { class: "hx-caption" },
      tn("{ship} fires {n} card at {target} — {shields}", "{ship} fires {n} cards at {target} — {shields}", event.cards.length,
        { ship: nameOf(event.ship), target: nameOf(event.target), shields: shieldWords(target, play) }) + " ",
      hits);
    const figure = el("figure", { class: "hx-play hx-salvo", dataset: { kind: "fire", ship: event.ship, target: event.target } },
      caption, ranOut, fireRow);
    if (play.damage.length) {
      const damageRow = el("div", { class: "hx-cards hx-damage-cards" });
      const damageBox = el("div", { class: "hx-damage" });
      damageBox.hidden = true;
      steps.push({ node: damageBox, reveal: true, pauseBefore: true });
      play.damage.forEach((damage, i) => {
        if (play.reshuffles.includes(i)) damageRow.append(el("span", { class: "hx-reshuffle-note", title: t("the pile ran out: the discards became a new pile"), text: t("reshuffled!") }));
        const face = cardFace(damage.card);
        face.classList.add(damage.system ? "damage" : "club");
        const label = el("span", { class: "hx-label", text: damageWords(damage, target) });
        const slot = el("div", { class: `hx-slot${damage.system ? "" : " set-aside"}`, dataset: { system: damage.system || "club" } }, face, label);
        const loses = { weapons: t("a weapon system"), shields: t("a shield point"), propulsion: t("a propulsion cell") }[damage.system];
        face.title = damage.system ? t("{card}: {ship} loses {system}", { card: cardWords(damage.card), ship: nameOf(damage.target), system: loses })
          : t("{card}: a club does nothing, another card is drawn", { card: cardWords(damage.card) });
        damageRow.append(slot);
        steps.push({ node: slot, sound: damage.system ? "hit" : "place" });
      });
      damageBox.append(el("p", { class: "hx-subcaption", text: t("Damage: one card per hit (♦ weapons, ♥ shields, ♠ propulsion, ♣ drawn again)") }), damageRow);
      figure.append(damageBox);
    } else if (play.reshuffles.length) {
      figure.append(el("p", { class: "hx-reshuffle-note", text: t("reshuffled!") }));
    }
    return { figure, steps };
  }
  const row = el("div", { class: "hx-cards hx-try-cards" });
  for (const card of event.cards) {
    const face = cardFace(card);
    face.classList.add(event.success ? "hit" : "miss");
    row.append(face);
    steps.push({ node: face, sound: "place" });
  }
  const what = play.kind === "shields" ? t("{ship} tries to raise shields", { ship: nameOf(event.ship) })
    : t("{ship} hails {target}", { ship: nameOf(event.ship), target: nameOf(event.target) });
  const outcome = event.success
    ? `${matchWords(event.cards)} — ${play.kind === "shields" ? t("shields up") : t("communications open")}`
    : `${t("no match")} — ${play.kind === "shields" ? t("shields stay down") : t("no answer")}`;
  const result = el("p", { class: `hx-outcome ${event.success ? "success" : "failure"}`, text: outcome });
  result.hidden = true;
  steps.push({ node: result, reveal: true, sound: event.success && play.kind === "shields" ? "shield" : null });
  const figure = el("figure", { class: "hx-play hx-try", dataset: { kind: play.kind, ship: event.ship } },
    el("p", { class: "hx-caption", text: t("{what}: two cards, same colour or a pair succeeds", { what }) }), ranOut, row, result);
  return { figure, steps };
}

const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Show the cards the frame's actions turned, flipping them face up one by one; resolves when
 * all are up. See the module header.
 */
export async function showCards(container, frame, { speed = 1, sound = true } = {}) {
  container.replaceChildren();
  container.classList.add("hx-table-cards");
  container.classList.remove("hx-done");
  // A later call on the same container takes over: this one stops turning cards.
  const run = Symbol("cards");
  container.hxRun = run;
  const plays = playsOf(frame?.events);
  const ships = Object.fromEntries((frame?.ships || []).map((s) => [s.id, s]));
  const names = Object.fromEntries((frame?.ships || []).map((s) => [s.id, s.name]));
  const reshuffled = (frame?.events || []).some((e) => e.type === "reshuffle");
  const deck = deckIndicator(frame?.deck, reshuffled);
  if (!plays.length) {
    if (deck) container.append(deck);
    container.classList.add("hx-done");
    return;
  }
  const laid = plays.map((play) => layOut(play, names, ships));
  for (const { figure } of laid) container.append(figure);
  if (deck) container.append(deck);
  const instant = reducedMotion() || !(speed > 0) || speed === Infinity;
  container.classList.toggle("hx-instant", instant);
  const pace = instant ? 0 : 1 / speed;
  container.style.setProperty("--hx-flip", `${(0.32 * pace).toFixed(3)}s`); // a flip as fast as the pace
  for (const { steps } of laid) {
    for (const step of steps) {
      if (pace && step.pauseBefore) await wait(PAUSE_MS * pace);
      if (container.hxRun !== run) return;
      if (step.reveal) step.node.hidden = false;
      else for (const node of [step.node, ...step.node.querySelectorAll(".hx-card")]) node.classList.add("up");
      if (sound && step.sound && !instant) sounds[step.sound]?.();
      if (pace && !step.reveal) await wait(FLIP_MS * pace);
    }
    if (pace) await wait(PAUSE_MS * pace * 0.5);
  }
  if (container.hxRun === run) container.classList.add("hx-done");
}
