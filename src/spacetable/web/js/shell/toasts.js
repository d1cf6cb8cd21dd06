// What reaches a player on any page (issue 69 items 2 and 3), in a corner of the screen
// that covers nothing else: a challenge to him as it comes (who, which game, rated or not,
// Accept, or Decline with a reason from the list), the challenges he sent (waiting, with
// Cancel; then declined with the reason, expired, or accepted, which opens the room), and
// a seek paired that this page was not the one looking for (a correspondence seek taken,
// another tab's), told with a link to its room. The lobby socket (shell/lobbysocket.js) brings `challenge`,
// `challenge_closed` and `paired`; a logged-in player's page asks GET /api/challenges as it
// opens, so that a challenge sent while he went from page to page shows too.
//
// Started by the shell on every page (web/head.html); it exports nothing.

import { t } from "./i18n.js";
import { el, fetchJSON, postJSON } from "./dom.js";
import { errorText } from "./phrase.js";
import { account } from "./account.js";
import { lobbySocket } from "./lobbysocket.js";
import { DECLINE_REASONS, challengeWords, gameTitle, openPairedRoom, reasonLabel, reasonText, sentChallenges } from "./challenges.js";

/** The challenges shown, by id: {challenge, incoming, box, settled (its end is told)}. */
const shown = new Map();
/** Challenges closed before this page showed them (a bot accepts at once, before the
 * challenge's own answer has come back): their news, told once they are shown. */
const closedEarly = new Map();

/** The corner that holds the toasts (made on the first). */
function corner() {
  let box = document.getElementById("meet-toasts");
  if (!box) {
    box = el("section", { id: "meet-toasts", class: "meet-toasts", "aria-live": "polite", "aria-label": t("Challenges") });
    document.body.append(box);
  }
  return box;
}

/** A toast in the corner: a box of its `lines` and `buttons` (kept up to date by its owner). */
function toast(kind, id) {
  const box = el("div", { class: `meet-toast ${kind}`, role: "group", dataset: id ? { challenge: id } : {} });
  corner().append(box);
  return box;
}

/** Give `box` its words and buttons. */
function fill(box, lines, buttons = []) {
  box.replaceChildren(...lines, buttons.length ? el("div", { class: "meet-toast-buttons" }, buttons) : null);
}

/** Take `box` away (and forget its challenge). */
function drop(box, id) {
  box.remove();
  if (id) shown.delete(id);
}

/** A button that takes the toast away. */
function closeButton(box, id) {
  return el("button", { type: "button", class: "secondary meet-toast-close", on: { click: () => drop(box, id) } }, t("Close"));
}

/** `text`, until the player closes it (he may have been away from the screen). */
function news(box, id, text) {
  fill(box, [el("p", { class: "meet-toast-text", text })], [closeButton(box, id)]);
}

/** A challenge to this player: who, what, Accept and Decline. */
async function showIncoming(challenge) {
  if (shown.has(challenge.id)) return;
  const box = toast("incoming", challenge.id);
  const entry = { challenge, incoming: true, box, settled: false };
  shown.set(challenge.id, entry);
  if (closedBefore(challenge.id)) return;
  const what = await challengeWords(challenge);
  if (entry.settled) return; // over while the games' titles loaded
  const who = t("{name} challenges you", { name: challenge.from });
  const lines = [el("p", { class: "meet-toast-text", text: who }), el("p", { class: "muted meet-toast-what", text: what })];
  const error = el("p", { class: "error", role: "alert", hidden: true });
  const failed = (e) => {
    error.textContent = errorText(e);
    error.hidden = false;
  };
  const accept = el("button", { type: "button", class: "challenge-accept" }, t("Accept"));
  const decline = el("button", { type: "button", class: "secondary challenge-decline" }, t("Decline"));
  accept.addEventListener("click", async () => {
    accept.disabled = true;
    try {
      const answer = await postJSON(`/api/challenges/${encodeURIComponent(challenge.id)}/accept`, {});
      fill(box, [el("p", { class: "meet-toast-text", text: t("Opening the room…") })]);
      openPairedRoom(answer);
    } catch (e) {
      accept.disabled = false;
      failed(e);
    }
  });
  decline.addEventListener("click", () => {
    const label = t("Why?");
    const reasons = el("select", { class: "decline-reason", "aria-label": label },
      DECLINE_REASONS.map((reason) => el("option", { value: reason, text: reasonLabel(reason), title: reasonText(reason) })));
    // What the challenger will read, in full (the menu says it in a few words).
    const preview = el("p", { class: "muted decline-preview" });
    const say = () => {
      const reason = reasonText(reasons.value);
      preview.textContent = t("{name} will read: “{reason}”", { name: challenge.from, reason });
    };
    reasons.addEventListener("change", say);
    say();
    const send = el("button", { type: "button", class: "challenge-decline-send" }, t("Decline"));
    const back = el("button", { type: "button", class: "secondary" }, t("Back"));
    send.addEventListener("click", async () => {
      send.disabled = true;
      try {
        await postJSON(`/api/challenges/${encodeURIComponent(challenge.id)}/decline`, { reason: reasons.value });
        drop(box, challenge.id);
      } catch (e) {
        send.disabled = false;
        failed(e);
      }
    });
    back.addEventListener("click", () => fill(box, [...lines, error], [accept, decline]));
    fill(box, [...lines, el("label", { class: "decline-why" }, el("span", { text: label }), reasons), preview, error], [send, back]);
    reasons.focus();
  });
  fill(box, [...lines, error], [accept, decline]);
}

/** A challenge this player sent: waiting for the answer, with Cancel. */
async function showOutgoing(challenge) {
  if (shown.has(challenge.id)) return;
  const box = toast("outgoing", challenge.id);
  const entry = { challenge, incoming: false, box, settled: false };
  shown.set(challenge.id, entry);
  if (closedBefore(challenge.id)) return;
  const what = await challengeWords(challenge);
  if (entry.settled) return; // over while the games' titles loaded
  const waiting = t("Challenge sent to {name}: waiting for the answer…", { name: challenge.to });
  const cancel = el("button", { type: "button", class: "secondary challenge-cancel" }, t("Cancel"));
  cancel.addEventListener("click", async () => {
    cancel.disabled = true;
    try {
      await fetchJSON(`/api/challenges/${encodeURIComponent(challenge.id)}`, { method: "DELETE" });
      drop(box, challenge.id);
    } catch (e) {
      cancel.disabled = false;
      news(box, challenge.id, errorText(e));
    }
  });
  fill(box, [el("p", { class: "meet-toast-text", text: waiting }), el("p", { class: "muted meet-toast-what", text: what })], [cancel]);
}

/** Tell the end of a challenge that came before the challenge was shown: true if it did. */
function closedBefore(id) {
  const early = closedEarly.get(id);
  if (!early) return false;
  closedEarly.delete(id);
  closed(early);
  return true;
}

/** A challenge is over: say how, or open its room. */
function closed(message) {
  const { id, status, reason, room } = message;
  const entry = shown.get(id);
  if (!entry) {
    closedEarly.set(id, message);
    return;
  }
  entry.settled = true;
  const { challenge, incoming, box } = entry;
  if (status === "accepted" && room && !incoming) {
    const opening = t("{name} accepted your challenge: opening the room…", { name: challenge.to });
    fill(box, [el("p", { class: "meet-toast-text", text: opening })]);
    openPairedRoom({ room });
    return;
  }
  if (incoming) {
    // Answered on this page (which opens the room) or another of his, withdrawn, or run out.
    if (status === "cancelled") news(box, id, t("{name} withdrew the challenge.", { name: challenge.from }));
    else if (status === "expired") news(box, id, t("The challenge from {name} ran out.", { name: challenge.from }));
    else drop(box, id);
    return;
  }
  if (status === "declined") {
    const why = reasonText(reason);
    const said = t("{name} declined your challenge: {reason}", { name: challenge.to, reason: why });
    fill(box, [el("p", { class: "meet-toast-text declined", dataset: { reason: reason || "generic" }, text: said })], [closeButton(box, id)]);
  } else if (status === "expired") {
    const said = t("{name} did not answer your challenge in time.", { name: challenge.to });
    fill(box, [el("p", { class: "meet-toast-text", text: said })], [closeButton(box, id)]);
  } else drop(box, id);
}

/** A seek paired that this page was not looking for (another tab's, a correspondence seek
 * taken) is told, with its room's link. (A challenge accepted is `closed`'s.) */
async function paired(message) {
  if (!message.seek) return;
  if (document.body.dataset.seek !== undefined) return; // this page is looking (shell/playnow.js)
  const box = toast("paired");
  const title = await gameTitle(message.game);
  const ready = t("An opponent is found: your match of {game} is ready.", { game: title });
  const link = el("a", { class: "button", href: `/rooms/${encodeURIComponent(message.room)}`,
    on: { click: (event) => { event.preventDefault(); openPairedRoom(message); } } }, t("Open the room"));
  fill(box, [el("p", { class: "meet-toast-text", text: ready })], [link, closeButton(box)]);
}

/** Listen on the lobby socket; a logged-in player's open challenges shown at once. */
async function start() {
  const socket = lobbySocket();
  socket.on("challenge", (message) => showIncoming(message.challenge));
  socket.on("challenge_closed", closed);
  socket.on("paired", paired);
  sentChallenges.addEventListener("sent", (event) => showOutgoing(event.detail));
  if (!account) return; // a guest is never challenged (he has no name) and sends none
  try {
    const open = await fetchJSON("/api/challenges");
    for (const challenge of open.in || []) showIncoming(challenge);
    for (const challenge of open.out || []) showOutgoing(challenge);
  } catch {
    // The server restarting: the socket's next challenge shows all the same.
  }
}

start();
