// The end of a combat in the hex fleet referee: once a recorded step leaves at most one
// side with a ship in the battle, who won, how, and each side's strength left show on a
// card over the table (shell/endcard.js), where the referee looks, with what to do next.

import { el } from "../../shell/dom.js";
import { num, t } from "../../shell/i18n.js";

/** The card's words (kept together for translation). */
const WORDS = {
  wins: (winner) => t("{winner} wins", { winner }),
  draw: t("Draw"),
  lastSide: (winner) => t("{winner} is the only side left with a ship that can fight.", { winner }),
  noSide: t("No side has a ship left that can fight."),
  strength: (sides) => t("Strength left: {sides}", { sides }),
  next: t("Export the script to keep this combat, or start over for the next one."),
  export: t("Export script"),
  restart: t("Start over"),
};

/**
 * How the combat of `script` stands with `now` (each ship's state after the last step):
 * null while two sides or more have a ship in the battle (a wreck and a ship that jumped
 * out are out), or before any step; else {winner (null: nobody is left), strength: [[side,
 * share]]}, each side's systems left (shield points, weapon systems, propulsion cells; a
 * wreck none) as a share of its fleet at full strength, as a match counts them
 * (games/hexfleet/match.py).
 */
export function battleEnd(script, now) {
  const sides = [...new Set(script.ships.map((s) => s.owner))];
  const fighting = new Set(script.ships.filter((s) => now[s.id]?.status === "table").map((s) => s.owner));
  if (!script.steps.length || sides.length < 2 || fighting.size > 1) return null;
  const strength = sides.map((side) => {
    const ships = script.ships.filter((s) => s.owner === side).map((s) => now[s.id]);
    const left = ships.reduce((sum, s) => sum + (s.status === "wrecked" ? 0 : s.shields + s.weapons + s.propulsion), 0);
    const full = ships.reduce((sum, s) => sum + s.shields_max + s.weapons_max + s.propulsion_max, 0);
    return [side, full ? left / full : 0];
  });
  return { winner: fighting.size ? [...fighting][0] : null, strength };
}

/**
 * Show `end` (battleEnd's) on `card` (endCardIn's), its buttons calling `onExport` and
 * `onRestart`; `sideName(side)` is a side's name in the page's language.
 */
export function showBattleEnd(card, end, { colourOf, sideName = (side) => side, onExport, onRestart }) {
  const { winner } = end;
  const named = winner && sideName(winner);
  const title = el("p", { class: `end-title${winner ? " winner" : " draw"}`, id: "winner", dataset: { winner: winner ?? "" },
    style: winner ? `--team: ${colourOf(winner)}` : null, text: winner ? WORDS.wins(named) : WORDS.draw });
  const strength = end.strength.map(([side, share]) => `${sideName(side)} ${num(share, { style: "percent" })}`).join(", ");
  card.show([title,
    el("p", { class: "end-reason", id: "hex-end-reason", text: winner ? WORDS.lastSide(named) : WORDS.noSide }),
    el("p", { class: "end-detail", id: "hex-end-strength", text: WORDS.strength(strength) }),
    el("p", { class: "end-detail muted", text: WORDS.next })], [
    el("button", { type: "button", id: "hex-end-export", on: { click: onExport } }, WORDS.export),
    el("button", { type: "button", id: "hex-end-new", class: "secondary", on: { click: onRestart } }, WORDS.restart),
  ]);
}
