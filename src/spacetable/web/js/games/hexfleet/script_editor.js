// The hex fleet referee's script editor helpers: playing cards typed by hand ("KS 10s 2h",
// "K♠ 10♥") read one by one, and how many cards a combat step needs by the charts (DESIGN
// section 6), so the referee sees at once which card is wrong and how many are still to
// come. The server settles the step; this only guides the typing.
import { cardShown, rankShown } from "./cardnames.js";
import "./sheet.js";
import { t, tn } from "../../shell/i18n.js";

const SUIT_SIGNS = { "♠": "S", "♤": "S", "♥": "H", "♡": "H", "♦": "D", "♢": "D", "♣": "C", "♧": "C" };
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
/** The suits' names in the page's language. */
export const SUIT_NAMES = () => ({ S: t("spades"), H: t("hearts"), D: t("diamonds"), C: t("clubs") });
/** Weapon systems and full salvo (cards) by weapon size. */
export const WEAPONS = { light: { systems: 8, salvo: 4 }, heavy: { systems: 16, salvo: 8 } };

/**
 * The letters a card is typed with in the page's language: {ranks, suits}, each a map from
 * the letter to the code's ("R" -> "K" in French: roi; "P" -> "S": pique, as French bridge
 * writes the suits: P C K T).
 */
function typedLetters() {
  const ranks = { A: rankShown("A"), J: rankShown("J"), Q: rankShown("Q"), K: rankShown("K") };
  const suits = { S: t("S{rank}", { rank: "" }), H: t("H{rank}", { rank: "" }), D: t("D{rank}", { rank: "" }), C: t("C{rank}", { rank: "" }) };
  const invert = (map) => Object.fromEntries(Object.entries(map).map(([code, letter]) => [letter.toUpperCase(), code]));
  return { ranks: invert(ranks), suits: invert(suits) };
}

const CODE_LETTERS = { ranks: { A: "A", J: "J", Q: "Q", K: "K" }, suits: { S: "S", H: "H", D: "D", C: "C" } };

/** `text` (upper case) read with `letters`: its code, or null. */
function readWith(text, letters) {
  const last = [...text].pop() || "";
  const suit = SUIT_SIGNS[last] || letters.suits[last] || null;
  let rank = text.slice(0, text.length - last.length);
  if (rank === "1") rank = "A";
  rank = letters.ranks[rank] || rank;
  return suit && RANKS.includes(rank) ? `${rank}${suit}` : null;
}

/**
 * One typed card as its canonical name ("10S"), or null with `why` set. Accepts a rank
 * (A or 1, 2..10, then the faces) and a suit letter or sign (♠ ♥ ♦ ♣), any case, in the
 * page's language first (French: V D R, and P C K T), then as the files write them
 * (J Q K, S H D C).
 */
export function readCard(token) {
  const text = token.trim().toUpperCase();
  const card = readWith(text, typedLetters()) || readWith(text, CODE_LETTERS);
  if (!card) {
    return { card: null, why: t("“{token}” is not a card: a rank (A 2…10 J Q K) then a suit (S H D C or ♠ ♥ ♦ ♣)", { token }) };
  }
  return { card, why: null };
}

/**
 * Every token of a typed line ("KS, 10s 2♥"): [{text, card, why}], a card typed twice in
 * the same line flagged (a deck deals each card once).
 */
export function readCards(line) {
  const seen = new Set();
  return line.split(/[\s,;]+/).filter(Boolean).map((text) => {
    const { card, why } = readCard(text);
    if (card && seen.has(card)) return { text, card, why: t("{card} is typed twice: a deck deals each card once", { card: cardShown(card) }) };
    if (card) seen.add(card);
    return { text, card, why };
  });
}

/** The suits that hit a target (DESIGN section 6: by shield points left, as a share). */
export function hittingSuits(up, left, total) {
  if (!up || left <= 0) return "SHDC";
  if (4 * left > 3 * total) return "S";
  if (2 * left > total) return "SH";
  if (4 * left > total) return "SHD";
  return "SHDC";
}

/**
 * What a step needs of `cards` (canonical names): {need, done, text}. `ship` and `target`
 * are the ships as they stand before the step ({salvo, shields, shields_max, shields_up,
 * name}). Fire: the salvo, then one damage card per hit, a club drawn again.
 */
export function cardsNeeded(kind, ship, target, cards) {
  const n = cards.length;
  if (kind === "jump") return { need: 0, done: n === 0, text: t("A jump turns no card.") };
  if (kind === "raise_shields" && ship?.shields_up) return { need: 0, done: false, text: t("{ship}'s shields are already up.", { ship: ship.name }) };
  if (kind === "raise_shields" && ship && ship.shields <= 0) return { need: 0, done: false, text: t("{ship} has no shield points left to raise.", { ship: ship.name }) };
  if (kind !== "fire") {
    const typed = { n: Math.min(n, 2) };
    return { need: 2, done: n === 2, text: kind === "hail" ? t("Two cards to hail ({n} of 2 typed): same colour or same rank succeeds.", typed)
      : t("Two cards to raise shields ({n} of 2 typed): same colour or same rank succeeds.", typed) };
  }
  const salvo = ship?.salvo ?? 0;
  if (!salvo) return { need: 0, done: false, text: t("{ship} has no weapons left: it cannot fire.", { ship: ship?.name ?? "" }) };
  const suits = target ? hittingSuits(target.shields_up, target.shields, target.shields_max) : "SHDC";
  const through = suits === "SHDC" ? t("every card hits") : t("only {suits} hit", { suits: [...suits].map((s) => SUIT_NAMES()[s]).join(", ") });
  const head = tn("{n} fire card ({ship}'s salvo; {through})", "{n} fire cards ({ship}'s salvo; {through})", salvo, { ship: ship.name, through });
  if (n < salvo) return { need: salvo, done: false, text: t("{head}: {n} of {salvo} typed, then one damage card per hit.", { head, n, salvo }) };
  const hits = cards.slice(0, salvo).filter((c) => suits.includes(c.slice(-1))).length;
  let struck = 0;
  let clubs = 0;
  for (const card of cards.slice(salvo)) {
    if (struck === hits) break;
    if (card.endsWith("C")) clubs += 1;
    else struck += 1;
  }
  const need = salvo + hits + clubs;
  const again = clubs ? tn(" ({n} club drawn again)", " ({n} clubs drawn again)", clubs) : "";
  const damage = hits ? tn("{n} hit: {struck} of {n} damage card typed{again}.", "{n} hits: {struck} of {n} damage cards typed{again}.", hits, { struck, again })
    : t("No hit: no damage card.");
  return { need, done: struck === hits && n === need, text: `${head} ✓. ${damage}` };
}

/** Cards a salvo turns with `lost` of `total` weapon systems gone (the charts). */
export function cardsToFire(size, lost, total) {
  const full = WEAPONS[size].salvo;
  if (lost <= 0) return full;
  if (lost >= total) return 0;
  if (4 * lost <= total) return (full * 3) / 4;
  if (2 * lost <= total) return full / 2;
  if (4 * lost <= 3 * total) return full / 4;
  return 1;
}

/**
 * Cards the draft's `typed` cards repeat from the deck as the script deals it (docs/rulings.md
 * H12, H13): each that came out since the deck was last shuffled, with the step that drew it
 * ("draft" for one typed earlier in this step). The server settles such a card as typed and
 * warns of it; the referee is warned before he records the step.
 */
export function dealtAgain(script, typed) {
  let left = script.pile;
  let out = new Map(); // card -> the step that drew it, since the last shuffle
  const deal = (cards, step) => {
    const inPlay = [];
    const again = [];
    for (const card of cards) {
      if (left <= 0) { // the pile ran out: the discards make a new one, the cards in play stay out
        out = new Map(inPlay.map((c) => [c, step]));
        left = 52 - out.size;
      }
      if (out.has(card)) again.push({ card, step: out.get(card) });
      out.set(card, step);
      inPlay.push(card);
      left -= 1;
    }
    return again;
  };
  script.steps.forEach((step, i) => deal(step.cards, i + 1));
  return deal(typed, "draft");
}

/** A card with its suit's sign, its rank in the page's language: "K♠" ("R♠" in French). */
export const pretty = (card) => cardShown(card);
