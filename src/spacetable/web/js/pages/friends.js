// /me/friends (issue 69 item 4): the players a logged-in player follows, the online ones
// first, each with what he is doing (in the lobby, playing or watching a game: a link to
// the room), a link to his page, Challenge (shell/challenges.js) and Unfollow; a field to
// follow a player by name; and the players he blocks, each with Unblock. Presence comes
// from GET /api/following, asked again when the lobby socket's list of who is online
// says otherwise of one of them (shell/lobbysocket.js). A guest is asked to log in.

import { t } from "../shell/i18n.js";
import { $, clear, el, fetchJSON, showError } from "../shell/dom.js";
import { errorText } from "../shell/phrase.js";
import { account } from "../shell/account.js";
import { challengeButton } from "../shell/challenges.js";
import { lobbySocket } from "../shell/lobbysocket.js";
import { gameList } from "../games/index.js";

/** The games' titles by key (the keys stand in until they come). */
let titles = new Map();
/** What the page shows of each followed player, by name case aside: "status game room",
 * or "" offline. */
let shown = new Map();

function presence(player) {
  return player ? [player.status, player.game, player.room].join(" ") : "";
}

/** What a followed player is doing, in words. */
function doing(friend) {
  if (!friend.online) return t("offline");
  const game = titles.get(friend.game) || friend.game || "";
  if (friend.status === "playing") return t("playing {game}", { game });
  if (friend.status === "watching") return t("watching {game}", { game });
  if (friend.status === "lobby") return t("in the lobby");
  return t("online"); // (online, doing what the server's list does not say)
}

/** A button that asks `method` of `path/name`, then draws both lists again. */
function change(path, method, name, words, label) {
  const button = el("button", { type: "button", class: "secondary", "aria-label": label, text: words });
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      await fetchJSON(`${path}/${encodeURIComponent(name)}`, { method });
      $("#friends-error").hidden = true;
      await refresh();
    } catch (error) {
      showError($("#friends-error"), errorText(error));
      button.disabled = false;
    }
  });
  return button;
}

function profileLink(name) {
  const link = el("a", { href: `/players/${encodeURIComponent(name)}`, class: "friend-name", text: name });
  link.setAttribute("translate", "no");
  return link;
}

function friendLine(friend) {
  const status = friend.online && friend.room && friend.status !== "lobby"
    ? el("a", { href: `/rooms/${encodeURIComponent(friend.room)}`, class: "friend-status", text: doing(friend) })
    : el("span", { class: "friend-status", text: doing(friend) });
  const dot = el("span", { class: "friend-dot", "aria-hidden": "true" });
  const actions = el("span", { class: "friend-actions" },
    challengeButton(friend.name),
    change("/api/following", "DELETE", friend.name, t("Unfollow"), t("Unfollow {name}", { name: friend.name })));
  return el("li", { class: `friend${friend.online ? " online" : ""}`, dataset: { name: friend.name } },
    el("span", { class: "friend-who" }, dot, profileLink(friend.name)), status, actions);
}

function blockedLine(blocked) {
  return el("li", { class: "friend blocked", dataset: { name: blocked.name } },
    el("span", { class: "friend-who" }, profileLink(blocked.name)),
    el("span", { class: "friend-actions" },
      change("/api/blocking", "DELETE", blocked.name, t("Unblock"), t("Unblock {name}", { name: blocked.name }))));
}

/** How many times the lists were asked for: only the latest answer is drawn. */
let asked = 0;

async function refresh() {
  const mine = ++asked;
  const [following, blocking] = await Promise.all([fetchJSON("/api/following"), fetchJSON("/api/blocking")]);
  // A refresh asked before a follow or an unfollow may answer after it: it is out of date.
  if (mine !== asked) return;
  const list = clear($("#following"));
  for (const friend of following) list.append(friendLine(friend));
  shown = new Map(following.map((friend) => [friend.name.toLowerCase(), friend.online ? presence(friend) : ""]));
  $("#no-following").hidden = following.length > 0;
  const blocked = clear($("#blocking"));
  for (const entry of blocking) blocked.append(blockedLine(entry));
  $("#no-blocking").hidden = blocking.length > 0;
  $("#blocked-panel").hidden = false;
}

/** Ask for the list again once who is online settles (a burst of news: one request), when
 * the lobby socket's list says otherwise of a followed player than the page shows. */
let pending = null;
function heard(message) {
  const online = new Map(message.players.map((player) => [player.name.toLowerCase(), player]));
  const changed = [...shown].some(([name, was]) => presence(online.get(name)) !== was);
  if (!changed) return;
  clearTimeout(pending);
  pending = setTimeout(() => refresh().catch(() => {}), 500);
}

async function follow(event) {
  event.preventDefault();
  const input = $("#follow-name");
  const name = input.value.trim();
  if (!name) return;
  try {
    await fetchJSON(`/api/following/${encodeURIComponent(name)}`, { method: "PUT" });
    input.value = "";
    $("#friends-error").hidden = true;
    await refresh();
  } catch (error) {
    showError($("#friends-error"), errorText(error));
  }
}

async function main() {
  if (!account) {
    $("#friends-login").hidden = false;
    return;
  }
  $("#follow-form").hidden = false;
  $("#follow-form").addEventListener("submit", follow);
  try {
    titles = new Map((await gameList()).map((game) => [game.key, game.title]));
  } catch {
    // The keys stand for the titles.
  }
  try {
    await refresh();
  } catch (error) {
    showError($("#friends-error"), errorText(error));
  }
  const socket = lobbySocket();
  socket.on("online", heard);
  socket.watchOnline();
}

main();
