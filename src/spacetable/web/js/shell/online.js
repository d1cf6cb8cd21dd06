// The lobby's "Online now" panel (issue 69 item 1): the registered players online on
// every server process, each linking to his profile, with what he is doing ("in the
// lobby", "playing Light Speed", "watching Light Speed": a link to the room), the players
// you follow marked, and how many guests are online. Fed live by the page's lobby socket
// (`online` messages, after `watch_online`: shell/lobbysocket.js).
//
// Others add to each player's line (a "Challenge" button, say) through `onPlayerLine`, and
// mark the players the reader follows through `markFollowing(names)`.

import { t, tn } from "./i18n.js";
import { $, clear, el, fetchJSON } from "./dom.js";
import { gameList } from "../games/index.js";
import { account } from "./account.js";
import { lobbySocket } from "./lobbysocket.js";

/** The names the reader follows (markFollowing), case aside; empty for a guest. */
let following = new Set();
/** The last `online` message, drawn again when the followed names come. */
let last = null;
/** The games' titles by key. */
let titles = new Map();
/** Called with (li, player) for every line drawn: what other parts add to it. */
const lineHooks = [];

/**
 * Call `hook(li, player)` for each player's line of the online list as it is drawn
 * (`player`: `{name, status, game, room}`), e.g. to add a "Challenge" button.
 * @param {(li: HTMLElement, player: {name: string, status: string, game: string|null, room: string|null}) => void} hook
 */
export function onPlayerLine(hook) {
  lineHooks.push(hook);
  if (last) draw(last);
}

/** What `player` is doing, in words (the game's title in the reader's language). */
function doing(player) {
  const game = titles.get(player.game) || player.game || "";
  if (player.status === "playing") return t("playing {game}", { game });
  if (player.status === "watching") return t("watching {game}", { game });
  return t("in the lobby");
}

function line(player) {
  const profile = el("a", { href: `/players/${encodeURIComponent(player.name)}`, class: "online-name", text: player.name });
  profile.setAttribute("translate", "no");
  const li = el("li", { class: "online-player", dataset: { name: player.name, status: player.status } }, profile);
  if (player.name === account) li.append(" ", el("span", { class: "muted online-you", text: t("(you)") }));
  if (following.has(player.name.toLowerCase())) {
    li.classList.add("friend");
    li.append(" ", el("span", { class: "online-friend", text: t("followed"), title: t("You follow {name}", { name: player.name }) }));
  }
  const what = player.room && player.status !== "lobby"
    ? el("a", { href: `/rooms/${encodeURIComponent(player.room)}`, class: "online-status", text: doing(player) })
    : el("span", { class: "online-status", text: doing(player) });
  li.append(" ", what);
  for (const hook of lineHooks) hook(li, player);
  return li;
}

function draw(message) {
  last = message;
  const list = clear($("#online-list"));
  for (const player of message.players) list.append(line(player));
  const players = message.players.length;
  const guests = message.guests;
  const playersText = tn("{n} player", "{n} players", players);
  const guestsText = tn("{n} guest", "{n} guests", guests);
  $("#online-summary").textContent = t("{players} and {guests} online", { players: playersText, guests: guestsText });
  $("#online-none").hidden = players > 0;
}

/**
 * Mark the players the reader follows, by name (the hook for the friends' list: it calls
 * this with the names of GET /api/following once it has them; until then nobody is marked).
 * @param {string[]} names
 */
export function markFollowing(names) {
  following = new Set(names.map((name) => String(name).toLowerCase()));
  if (last) draw(last);
}

/** Fill the lobby's "Online now" panel (`#online-panel`) and keep it live. */
export async function mountOnlinePanel() {
  if (!$("#online-panel")) return;
  const socket = lobbySocket();
  socket.on("online", draw);
  socket.watchOnline();
  if (account) {
    // The players the reader follows are marked (GET /api/following: the friends' list).
    fetchJSON("/api/following").then((list) => markFollowing(list.map((f) => f.name))).catch(() => {});
  }
  try {
    titles = new Map((await gameList()).map((game) => [game.key, game.title]));
    if (last) draw(last); // (the socket's list may have come first: its games by title now)
  } catch {
    // The keys stand for the titles.
  }
  try {
    const now = await fetchJSON("/api/online");
    if (!last) draw({ type: "online", ...now }); // (unless the socket's came first)
  } catch {
    // The socket's list comes instead.
  }
}
