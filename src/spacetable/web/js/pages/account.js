// /login and /signup: one form each (its `data-action`), posted as JSON to the accounts
// API; on success the browser holds the session cookie and goes back where it came from
// (`?next=`, a path of this site), else to the lobby.

import "../shell/i18n.js"; // (the page's language switch)
import { $, postJSON } from "../shell/dom.js";
import { said } from "../shell/phrase.js";
import { nextPath } from "../shell/account.js";

const ROUTES = { login: "/api/session", signup: "/api/accounts" };

async function submit(event) {
  event.preventDefault();
  const form = event.currentTarget;
  const error = $("#account-error");
  const button = $("#account-submit");
  error.hidden = true;
  button.disabled = true;
  try {
    await postJSON(ROUTES[form.dataset.action], {
      name: $("#account-name").value,
      password: $("#account-password").value,
    });
    location.assign(nextPath());
  } catch (failure) {
    error.textContent = failure.says ? said(failure.says) : failure.message;
    error.hidden = false;
    button.disabled = false;
  }
}

function main() {
  const form = $("#account-form");
  form.addEventListener("submit", submit);
  // The page's HTML holds the button disabled until now: a form sent before this script
  // ran went to the address bar as a GET, the password in it (a slow phone, a quick tap).
  $("#account-submit").disabled = false;
  // The other form keeps where to go back to.
  const other = $("#other-page");
  const next = new URLSearchParams(location.search).get("next");
  if (next) other.href = `${other.pathname}?next=${encodeURIComponent(next)}`;
  $("#account-name").focus();
}

main();
