// Challenges (issue 69 item 3): the dialog in which a logged-in player challenges another
// by name (a profile's, a leaderboard's row, the online list, the friends list) to a game
// with its options, rated or casual, real time or by correspondence
// (POST /api/challenges), and what both sides say of one: its game and pace in words, the
// reasons a challenge may be declined (their sentences, as the challenger reads them), and
// the room a pairing or an accepted challenge opens. The answers themselves (the toast with
// Accept and Decline, the challenger's news) are shell/toasts.js's, on every page.
//
// API:
//   openChallengeDialog(name)   the dialog; resolves to the challenge sent, or null
//   DECLINE_REASONS, reasonLabel(reason) (the decliner's menu), reasonText(reason) (the
//                               sentence the challenger reads)
//   challengeWords(challenge)   "Light Speed · rated · real time"; gameTitle(key)
//   openPairedRoom({room, token?})   keep the seat's token if any, open the room (once)
//   sentChallenges              an EventTarget: "sent" ({detail: challenge}) for each one sent

import { t, tn } from "./i18n.js";
import { el, postJSON } from "./dom.js";
import { errorText } from "./phrase.js";
import { optionsForm } from "./optionsform.js";
import { account } from "./account.js";
import { storeToken } from "./seattokens.js";
import { gameList } from "../games/index.js";

/** The reasons a challenged player may give (POST /api/challenges/{id}/decline). */
export const DECLINE_REASONS = ["generic", "later", "too_fast", "too_slow", "rated", "casual", "game"];

/** The options a challenge does not choose in its game's form: the seats (two players), the
 * pace (its own field) and the ruleset (the game's). */
const NOT_CHOSEN = ["seats", "turn_hours"];
/** Hours a correspondence turn lasts unless the challenger says otherwise. */
const DEFAULT_TURN_HOURS = 24;

/** A decline reason in a few words, as the declining player picks it from the list (a
 * phone's menu shows its choice on one line); the challenger reads `reasonText`'s. */
export function reasonLabel(reason) {
  const words = {
    generic: t("No, thank you"),
    later: t("Later, please"),
    too_fast: t("Too fast for me"),
    too_slow: t("Too slow for me"),
    rated: t("Rated, please"),
    casual: t("Casual, please"),
    game: t("Not this game"),
  };
  return words[reason] || words.generic;
}

/** A decline reason as the challenger reads it. */
export function reasonText(reason) {
  const words = {
    generic: t("I am not taking challenges just now."),
    later: t("This is not the right time for me: ask me again later."),
    too_fast: t("This is too fast for me: challenge me to a slower game."),
    too_slow: t("This is too slow for me: challenge me to a faster game."),
    rated: t("Send me a rated challenge instead."),
    casual: t("Send me a casual challenge instead."),
    game: t("I am not taking challenges to this game just now."),
  };
  return words[reason] || words.generic;
}

/** "rated · real time", "casual · 24 hours a turn": how a challenge or seek is played. */
export function paceWords({ rated, turn_hours: hours }) {
  const kind = rated ? t("rated") : t("casual");
  const pace = hours ? tn("{n} hour a turn", "{n} hours a turn", hours) : t("real time");
  return `${kind} · ${pace}`;
}

/** The title of the game `key` (its key when the games' list cannot be had). */
export async function gameTitle(key) {
  try {
    return (await gameList()).find((game) => game.key === key)?.title ?? key;
  } catch {
    return key; // the games' list did not come: the game's key says it still
  }
}

/** A challenge's game and pace in words: "Light Speed · rated · real time". */
export async function challengeWords(challenge) {
  return `${await gameTitle(challenge.game)} · ${paceWords(challenge)}`;
}

let opening = false;

/** Open the room a pairing or an accepted challenge made (its seat's token kept, for a
 * guest's seat); a second call while the page leaves does nothing. */
export function openPairedRoom({ room, token }) {
  if (opening || !room) return;
  opening = true;
  if (token) storeToken(room, token, account);
  location.assign(`/rooms/${encodeURIComponent(room)}`);
}

/** Where the challenges this page sends are told ("sent", its detail the challenge). */
export const sentChallenges = new EventTarget();

/** The bounds of a game's hours a turn when it can be played by correspondence, else null. */
function turnHours(game) {
  const field = game.options.properties.turn_hours;
  const hours = field && (field.anyOf || [field]).find((o) => o.type === "integer" || o.type === "number");
  return hours ? { min: hours.minimum ?? 1, max: hours.maximum ?? 168 } : null;
}

/** The ruleset constant of a game's options. */
function rulesetOf(game) {
  return game.options.properties.ruleset?.const ?? game.rulesets[0];
}

/** The dialog's part for one game: its options form, and whether it offers correspondence. */
function gamePart(game) {
  const form = optionsForm(game.options);
  for (const name of NOT_CHOSEN) form.remove(name);
  const box = el("fieldset", { class: "challenge-options", dataset: { game: game.key } },
    el("legend", { text: t("Options") }), form.element);
  if (!form.element.children.length) box.hidden = true;
  return { game, form, box, hours: turnHours(game) };
}

/**
 * Challenge `name` (a logged-in player's dialog): pick the game, its options, rated or
 * casual, real time or correspondence, and send. Resolves to the challenge sent, or null
 * when the dialog is closed without one.
 */
export async function openChallengeDialog(name) {
  document.getElementById("challenge-dialog")?.remove();
  const games = (await gameList()).filter((game) => game.playable);
  const parts = new Map(games.map((game) => [game.key, gamePart(game)]));
  const menu = el("select", { id: "challenge-game" }, games.map((g) => el("option", { value: g.key, text: g.title })));
  const optionsBox = el("div", { class: "challenge-game-options" });
  const pace = el("select", { id: "challenge-pace" },
    el("option", { value: "realtime", text: t("Real time") }),
    el("option", { value: "correspondence", text: t("Correspondence") }));
  const hours = el("input", { id: "challenge-hours", type: "number", inputmode: "numeric", step: 1, value: DEFAULT_TURN_HOURS });
  const hoursField = el("label", { class: "option-field" }, el("span", { text: t("Hours a turn") }), hours);
  const paceField = el("div", { class: "challenge-pace" },
    el("label", { class: "option-field" }, el("span", { text: t("Pace") }), pace), hoursField);
  const rated = el("input", { id: "challenge-rated", type: "checkbox", checked: true });
  const error = el("p", { id: "challenge-error", class: "error", role: "alert", hidden: true });
  const send = el("button", { type: "submit", id: "challenge-send", value: "send" }, t("Send the challenge"));
  const close = el("button", { type: "button", id: "challenge-cancel", class: "secondary" }, t("Cancel"));
  const title = t("Challenge {name}", { name });
  const ratedWord = t("Rated");
  const form = el("form", { method: "dialog" },
    el("h2", { id: "challenge-title", text: title }),
    el("p", { class: "muted", text: t("If the challenge is accepted, you are both seated in a new room.") }),
    el("label", { class: "option-field" }, el("span", { text: t("Game") }), menu),
    optionsBox, paceField,
    el("label", { class: "check" }, rated, ` ${ratedWord}`),
    error,
    el("p", { class: "dialog-buttons" }, send, close));
  const dialog = el("dialog", { id: "challenge-dialog", class: "meet-dialog", "aria-labelledby": "challenge-title" }, form);
  const show = () => {
    const part = parts.get(menu.value);
    optionsBox.replaceChildren(part.box);
    paceField.hidden = !part.hours;
    if (!part.hours) pace.value = "realtime";
    else {
      hours.min = part.hours.min;
      hours.max = part.hours.max;
    }
    hoursField.hidden = pace.value !== "correspondence";
  };
  menu.addEventListener("change", show);
  pace.addEventListener("change", show);
  show();
  return new Promise((resolve) => {
    let sent = null;
    close.addEventListener("click", () => dialog.close());
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      error.hidden = true;
      const part = parts.get(menu.value);
      const body = { to: name, game: part.game.key, rated: rated.checked };
      try {
        body.options = { ruleset: rulesetOf(part.game), ...part.form.values() };
        if (pace.value === "correspondence") body.turn_hours = Number(hours.value);
      } catch (e) {
        error.textContent = errorText(e);
        error.hidden = false;
        return;
      }
      send.disabled = true;
      try {
        const { id } = await postJSON("/api/challenges", body);
        sent = { id, from: account, to: name, game: body.game, options: body.options, rated: body.rated,
          turn_hours: body.turn_hours ?? null };
        sentChallenges.dispatchEvent(new CustomEvent("sent", { detail: sent }));
        dialog.close();
      } catch (e) {
        const why = errorText(e);
        error.textContent = t("Cannot send the challenge: {error}", { error: why });
        error.hidden = false;
      } finally {
        send.disabled = false;
      }
    });
    dialog.addEventListener("close", () => {
      dialog.remove();
      resolve(sent);
    });
    document.body.append(dialog);
    dialog.showModal();
    menu.focus();
  });
}

/** A "Challenge" button that opens the dialog for `name` (for a logged-in player, on
 * another player's name: null else). */
export function challengeButton(name, attrs = {}) {
  if (!account || name === account) return null;
  const label = t("Challenge {name}", { name });
  return el("button", { type: "button", class: "secondary challenge-button", "aria-label": label,
    dataset: { challenge: name }, ...attrs, on: { click: () => openChallengeDialog(name) } }, t("Challenge"));
}
