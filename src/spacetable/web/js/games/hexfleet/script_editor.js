// The hex fleet referee's script editor helpers: playing cards typed by hand ("KS 10s 2h",
// "K♠ 10♥") read one by one, and how many cards a combat step needs by the charts (DESIGN
// section 6), so the referee sees at once which card is wrong and how many are still to
// come. The server settles the step; this only guides the typing.
import "./sheet.js";

const SUIT_SIGNS = { "♠": "S", "♤": "S", "♥": "H", "♡": "H", "♦": "D", "♢": "D", "♣": "C", "♧": "C" };
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
export const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
/** Weapon systems and full salvo (cards) by weapon size. */
export const WEAPONS = { light: { systems: 8, salvo: 4 }, heavy: { systems: 16, salvo: 8 } };

/**
 * One typed card as its canonical name ("10S"), or null with `why` set. Accepts a rank
 * (A or 1, 2..10, J, Q, K, any case) then a suit letter (S H D C) or sign (♠ ♥ ♦ ♣).
 */
export function readCard(token) {
  const text = token.trim().toUpperCase();
  const last = [...text].pop() || "";
  const suit = SUIT_SIGNS[last] || ("SHDC".includes(last) && last ? last : null);
  let rank = text.slice(0, text.length - last.length);
  if (rank === "1") rank = "A";
  if (!suit || !RANKS.includes(rank)) {
    return { card: null, why: `“${token}” is not a card: a rank (A 2…10 J Q K) then a suit (S H D C or ♠ ♥ ♦ ♣)` };
  }
  return { card: `${rank}${suit}`, why: null };
}

/**
 * Every token of a typed line ("KS, 10s 2♥"): [{text, card, why}], a card typed twice in
 * the same line flagged (a deck deals each card once).
 */
export function readCards(line) {
  const seen = new Set();
  return line.split(/[\s,;]+/).filter(Boolean).map((text) => {
    const { card, why } = readCard(text);
    if (card && seen.has(card)) return { text, card, why: `${card} is typed twice: a deck deals each card once` };
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
  if (kind === "jump") return { need: 0, done: n === 0, text: "A jump turns no card." };
  if (kind === "raise_shields" && ship?.shields_up) return { need: 0, done: false, text: `${ship.name}'s shields are already up.` };
  if (kind === "raise_shields" && ship && ship.shields <= 0) return { need: 0, done: false, text: `${ship.name} has no shield points left to raise.` };
  if (kind !== "fire") {
    const what = kind === "hail" ? "hail" : "raise shields";
    return { need: 2, done: n === 2, text: `Two cards to ${what} (${Math.min(n, 2)} of 2 typed): same colour or same rank succeeds.` };
  }
  const salvo = ship?.salvo ?? 0;
  if (!salvo) return { need: 0, done: false, text: `${ship?.name ?? "This ship"} has no weapons left: it cannot fire.` };
  const suits = target ? hittingSuits(target.shields_up, target.shields, target.shields_max) : "SHDC";
  const through = suits === "SHDC" ? "every card hits" : `only ${[...suits].map((s) => SUIT_NAMES[s]).join(", ")} hit`;
  const head = `${salvo} fire card${salvo === 1 ? "" : "s"} (${ship.name}'s salvo; ${through})`;
  if (n < salvo) return { need: salvo, done: false, text: `${head}: ${n} of ${salvo} typed, then one damage card per hit.` };
  const hits = cards.slice(0, salvo).filter((c) => suits.includes(c.slice(-1))).length;
  let struck = 0;
  let clubs = 0;
  for (const card of cards.slice(salvo)) {
    if (struck === hits) break;
    if (card.endsWith("C")) clubs += 1;
    else struck += 1;
  }
  const need = salvo + hits + clubs;
  const damage = hits ? ` ${hits} hit${hits === 1 ? "" : "s"}: ${struck} of ${hits} damage card${hits === 1 ? "" : "s"} typed${clubs ? ` (${clubs} club${clubs === 1 ? "" : "s"} drawn again)` : ""}.` : " No hit: no damage card.";
  return { need, done: struck === hits && n === need, text: `${head} ✓.${damage}` };
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
