// /me/delete: a logged-in player deletes his account (DELETE /api/accounts/me with his
// password: docs/accounts.md). The page says what goes and what stays, asks for the
// password and a tick that he means it; done, it opens again as a guest's
// (`?deleted=1`: the top bar shows him logged out) and says so. A wrong password deletes
// nothing and says so. Before he confirms, it lists the matches he is playing, which the
// deletion ends by resigning them (GET /api/accounts/me/unfinished).

import { t, tn } from "../shell/i18n.js"; // (and the page's language switch)
import { $, el, fetchJSON } from "../shell/dom.js";
import { refusalText } from "../shell/phrase.js";
import { account, endingSession } from "../shell/account.js";

async function submit(event) {
  event.preventDefault();
  const error = $("#delete-error");
  const button = $("#delete-submit");
  error.hidden = true;
  button.disabled = true;
  endingSession();
  try {
    await fetchJSON("/api/accounts/me", {
      method: "DELETE",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ password: $("#delete-password").value }),
    });
    location.replace("/me/delete?deleted=1");
  } catch (failure) {
    endingSession(false);
    error.textContent = refusalText(failure); // (a wrong password: "Wrong password: ...")
    error.hidden = false;
    button.disabled = false;
    $("#delete-password").select();
  }
}

/** What the deletion ends: each unfinished match, its game and opponents. */
async function showUnfinished() {
  const said = $("#delete-unfinished");
  const list = $("#delete-matches");
  let matches;
  try {
    ({ matches } = await fetchJSON("/api/accounts/me/unfinished"));
  } catch {
    return; // the sentence above still says what happens to them
  }
  said.textContent = matches.length === 0
    ? t("You are playing no match just now: none ends.")
    : tn("Your unfinished match ends: you resign it.",
      "Your {n} unfinished matches end: you resign them.", matches.length, { n: matches.length });
  said.hidden = false;
  list.replaceChildren(...matches.map((match) => el("li", {},
    el("a", { href: `/rooms/${encodeURIComponent(match.room)}`, text: t(match.game) }),
    " ",
    match.correspondence
      ? t("against {names}, by correspondence", { names: match.opponents.join(", ") })
      : t("against {names}", { names: match.opponents.join(", ") }))));
  list.hidden = matches.length === 0;
}

function main() {
  if (account) {
    $("#delete-name").textContent = account;
    $("#delete-keep").href = `/players/${encodeURIComponent(account)}`;
    $("#delete-form").addEventListener("submit", submit);
    $("#delete-panel").hidden = false;
    showUnfinished();
    $("#delete-password").focus();
  } else if (new URLSearchParams(location.search).has("deleted")) {
    $("#delete-done").hidden = false;
  } else {
    $("#delete-guest").hidden = false;
  }
}

main();
