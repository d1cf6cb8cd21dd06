// The account area of every page's top bar (issue 37): "Log in · Sign up" for a guest,
// the account's name for a logged-in player, a menu of his profile, his games, the
// leaderboard and "Log out". The server writes who is logged in on the page
// (`<html data-account="...">`, http/pages.py): the session cookie itself is out of the
// page's reach (HttpOnly). Logging out revokes the session on the server, and forgets the
// account's seat tokens in this browser (shell/seattokens.js).

import { t } from "./i18n.js";
import { el, saveName } from "./dom.js";
import { forgetAccountTokens } from "./seattokens.js";
import { lobbySocket } from "./lobbysocket.js";

/** The logged-in player's account name, or null for a guest. */
export const account = document.documentElement.dataset.account || null;

// The name the pages offer to sit under is the account's (the server seats him under it).
if (account) saveName(account);

/** Where to go after logging in: `?next=` when it is a path of this site, else the lobby. */
export function nextPath() {
  const next = new URLSearchParams(location.search).get("next");
  return next && next.startsWith("/") && !next.startsWith("//") ? next : "/";
}

/** This page's path, for `?next=` (the account pages send back to the page before them). */
function here() {
  if (location.pathname === "/login" || location.pathname === "/signup") return nextPath();
  return location.pathname + location.search;
}

/** Set while this page logs out or deletes the account: the lobby socket's news of it is
 * this page's own doing. */
let loggingOut = false;

/** Whether this page is ending its own session (the account's deletion, while it is
 * asked): the lobby socket's `session_ended` is then its own doing, and the page goes on
 * by itself. */
export function endingSession(ending = true) {
  loggingOut = ending;
}

async function logOut(button) {
  button.disabled = true;
  loggingOut = true;
  // The seats the account holds stay its own: this browser forgets their tokens.
  forgetAccountTokens(account);
  try {
    await fetch("/api/session", { method: "DELETE" });
  } finally {
    location.reload();
  }
}

function area() {
  const box = el("div", { class: "account", "aria-label": t("Your account"), role: "group" });
  if (account) {
    // The name opens a small menu (one line on a phone too) that holds "Log out".
    const name = el("summary", { class: "account-name", text: account, title: t("Logged in as {name}", { name: account }) });
    name.setAttribute("translate", "no");
    const button = el("button", { type: "button", class: "secondary account-logout", text: t("Log out") });
    button.addEventListener("click", () => logOut(button));
    const profile = el("a", { href: `/players/${encodeURIComponent(account)}`, class: "account-profile", text: t("Your profile") });
    const games = el("a", { href: "/me/games", class: "account-games", text: t("My games") });
    const friends = el("a", { href: "/me/friends", class: "account-friends", text: t("Friends") });
    const board = el("a", { href: "/leaderboard", class: "account-leaderboard", text: t("Leaderboard") });
    const settings = el("a", { href: "/me/settings", class: "account-settings", text: t("Settings") });
    const popup = el("div", { class: "account-popup" }, profile, games, friends, board, settings, button);
    const menu = el("details", { class: "account-menu" }, name, popup);
    // A phone's wrapped bar may put the name at its left: the menu hangs on that side then
    // (on the click that opens it: a `toggle` event comes a task later).
    name.addEventListener("click", () => {
      const at = name.getBoundingClientRect();
      popup.classList.toggle("from-left", at.left + at.width / 2 < window.innerWidth / 2);
    });
    box.append(menu);
    return box;
  }
  const next = `?next=${encodeURIComponent(here())}`;
  const login = el("a", { href: `/login${next}`, text: t("Log in") });
  const signup = el("a", { href: `/signup${next}`, text: t("Sign up") });
  box.append(login, el("span", { class: "account-more" }, " · ", signup));
  return box;
}

function addArea() {
  const bar = document.querySelector(".topbar");
  if (!bar || bar.querySelector(".account")) return;
  const box = area();
  const languages = bar.querySelector("#lang-switch");
  if (languages) bar.insertBefore(box, languages);
  else bar.append(box);
  // The lobby's name is the account's for a logged-in player: the tables seat him under it.
  const name = document.getElementById("name");
  if (account && name instanceof HTMLInputElement) {
    name.value = account;
    name.readOnly = true;
  }
}

addArea();

// Every page keeps the lobby socket open (shell/lobbysocket.js). A session that ended
// elsewhere (logged out in another tab, the account banned or deleted) is told on it: the
// page reloads as a guest's and says why (the reason kept across the reload).
const ENDED_KEY = "spacetable.sessionEnded";
const ENDED_WORDS = {
  banned: () => t("A moderator banned your account: you are logged out."),
  deleted: () => t("Your account was deleted: you are logged out."),
  logged_out: () => t("You logged out on another page."),
  ended: () => t("Your session ended: you are logged out."),
};

function sessionEnded(message) {
  if (loggingOut) return; // this page logs out and reloads by itself
  if (account) forgetAccountTokens(account);
  try {
    sessionStorage.setItem(ENDED_KEY, message.reason in ENDED_WORDS ? message.reason : "ended");
  } catch {
    // no session storage: the page reloads without saying why
  }
  location.reload();
}

function showEnded() {
  let reason = null;
  try {
    reason = sessionStorage.getItem(ENDED_KEY);
    sessionStorage.removeItem(ENDED_KEY);
  } catch {
    return;
  }
  if (!reason) return;
  const words = (ENDED_WORDS[reason] || ENDED_WORDS.ended)();
  const close = el("button", { type: "button", class: "secondary", text: t("Close") });
  const box = el("div", { class: "session-ended", role: "alert" }, el("span", { text: words }), close);
  close.addEventListener("click", () => box.remove());
  document.body.prepend(box);
}

showEnded();
lobbySocket().on("session_ended", sessionEnded);
