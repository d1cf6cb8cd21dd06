// /me/delete: a logged-in player deletes his account (DELETE /api/accounts/me with his
// password: docs/accounts.md). The page says what goes and what stays, asks for the
// password and a tick that he means it; done, it opens again as a guest's
// (`?deleted=1`: the top bar shows him logged out) and says so. A wrong password deletes
// nothing and says so.

import "../shell/i18n.js"; // (the page's language switch)
import { $, fetchJSON } from "../shell/dom.js";
import { refusalText } from "../shell/phrase.js";
import { account } from "../shell/account.js";

async function submit(event) {
  event.preventDefault();
  const error = $("#delete-error");
  const button = $("#delete-submit");
  error.hidden = true;
  button.disabled = true;
  try {
    await fetchJSON("/api/accounts/me", {
      method: "DELETE",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ password: $("#delete-password").value }),
    });
    location.replace("/me/delete?deleted=1");
  } catch (failure) {
    error.textContent = refusalText(failure); // (a wrong password: "Wrong password: ...")
    error.hidden = false;
    button.disabled = false;
    $("#delete-password").select();
  }
}

function main() {
  if (account) {
    $("#delete-name").textContent = account;
    $("#delete-keep").href = `/players/${encodeURIComponent(account)}`;
    $("#delete-form").addEventListener("submit", submit);
    $("#delete-panel").hidden = false;
    $("#delete-password").focus();
  } else if (new URLSearchParams(location.search).has("deleted")) {
    $("#delete-done").hidden = false;
  } else {
    $("#delete-guest").hidden = false;
  }
}

main();
