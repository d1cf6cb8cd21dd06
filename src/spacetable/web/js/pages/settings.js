// /me/settings: a logged-in player's settings, one section each (issue 70 item 5): his
// e-mail address (GET/PUT/DELETE /api/accounts/me/email: docs/notifications.md), whether
// it is verified, the link sent again; how to reset or delete. A guest is asked to log in.
// On a server without e-mail (no --smtp) the section says so and offers nothing to save.

import { t } from "../shell/i18n.js"; // (and the page's language switch)
import { $, fetchJSON } from "../shell/dom.js";
import { refusalText } from "../shell/phrase.js";
import { account } from "../shell/account.js";

const JSON_HEADERS = { "Content-Type": "application/json" };

function showError(failure) {
  const error = $("#email-error");
  error.textContent = failure ? refusalText(failure) : "";
  error.hidden = !failure;
}

/** The section as the server's answer says: the address, verified or waiting. */
function show(state) {
  const said = $("#email-state");
  $("#email-off").hidden = state.enabled;
  $("#email-form").hidden = !state.enabled;
  $("#email-remove").hidden = !state.address;
  $("#email-resend").hidden = !state.enabled || !state.address || state.verified;
  if (state.address) {
    $("#email-address").value = state.address;
    said.textContent = state.verified
      ? t("{address} is verified: a forgotten password can be reset by mail.", { address: state.address })
      : t("{address} is not verified yet: follow the link we mailed to it.", { address: state.address });
    said.className = state.verified ? "email-verified" : "email-waiting";
  }
  said.hidden = !state.address;
}

async function refresh() {
  show(await fetchJSON("/api/accounts/me/email"));
}

async function act(button, request, after) {
  button.disabled = true;
  showError(null);
  try {
    const answer = await request();
    await refresh();
    if (after) after(answer);
  } catch (failure) {
    showError(failure);
  } finally {
    button.disabled = false;
  }
}

function sent() {
  const said = $("#email-state");
  said.textContent = `${said.textContent} ${t("A link is on its way: look in your mailbox.")}`;
}

async function main() {
  if (!account) {
    $("#settings-guest").hidden = false;
    return;
  }
  $("#settings-email").hidden = false;
  $("#settings-password").hidden = false;
  $("#email-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const body = JSON.stringify({ email: $("#email-address").value });
    act($("#email-save"), () => fetchJSON("/api/accounts/me/email", { method: "PUT", headers: JSON_HEADERS, body }),
      (answer) => { if (!answer.verified) sent(); });
  });
  $("#email-resend").addEventListener("click", () => act($("#email-resend"),
    () => fetchJSON("/api/accounts/me/email/resend", { method: "POST", headers: JSON_HEADERS, body: "{}" }), sent));
  $("#email-remove").addEventListener("click", () => act($("#email-remove"), async () => {
    await fetch("/api/accounts/me/email", { method: "DELETE", headers: JSON_HEADERS, body: "{}" });
    $("#email-address").value = "";
  }));
  try {
    await refresh();
  } catch (failure) {
    showError(failure);
  }
}

main();
