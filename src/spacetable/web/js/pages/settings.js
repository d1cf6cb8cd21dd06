// /me/settings: a logged-in player's settings, one section each (issue 70 item 5): his
// e-mail address (GET/PUT/DELETE /api/accounts/me/email: docs/notifications.md), whether
// it is verified, the link sent again; the daily digest's hour, in the device's time zone
// (PUT /api/accounts/me/email/digest); how to reset or delete. A guest is asked to log in.
// On a server without e-mail (no --smtp) the section says so and offers nothing to save.

import { t } from "../shell/i18n.js"; // (and the page's language switch)
import { $, el, fetchJSON } from "../shell/dom.js";
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
  showDigest(state);
}

/** The device's time zone (the digest's hour is read in it). */
const ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

/** Two digits an hour ("08:00"). */
function clock(hour) {
  return `${String(hour).padStart(2, "0")}:00`;
}

/** The digest's section: its hour (in the zone it was set in), or why it cannot be set. */
function showDigest(state) {
  const ready = state.enabled && state.verified;
  $("#settings-digest").hidden = !state.enabled;
  $("#digest-needs").hidden = ready;
  $("#digest-form").hidden = !ready;
  const select = $("#digest-hour");
  if (select.options.length === 1) {
    for (let hour = 0; hour < 24; hour += 1) select.append(el("option", { value: String(hour), text: clock(hour) }));
  }
  select.value = state.digest_hour === null || state.digest_hour === undefined ? "" : String(state.digest_hour);
  $("#digest-zone").textContent = t("In your device's time zone: {zone}.", { zone: state.digest_zone || ZONE });
}

async function saveDigest() {
  const value = $("#digest-hour").value;
  const hour = value === "" ? null : Number(value);
  const body = JSON.stringify({ hour, zone: ZONE });
  await fetchJSON("/api/accounts/me/email/digest", { method: "PUT", headers: JSON_HEADERS, body });
  const said = $("#digest-state");
  said.textContent = hour === null
    ? t("Saved: no daily digest.")
    : t("Saved: a digest every day at {hour}, if a game waits for your move.", { hour: clock(hour) });
  said.hidden = false;
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
  // "What you are told" (shell/notifychoices.js), before the password.
  import("../shell/notifychoices.js").then((notify) => notify.mountNotifyChoices($("main"), $("#settings-password")));
  // "Personal access tokens" for bots (shell/tokens.js, docs/bots.md), before the password.
  import("../shell/tokens.js").then((tokens) => tokens.mountTokens($("main"), $("#settings-password")));
  $("#email-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const body = JSON.stringify({ email: $("#email-address").value });
    act($("#email-save"), () => fetchJSON("/api/accounts/me/email", { method: "PUT", headers: JSON_HEADERS, body }),
      (answer) => { if (!answer.verified) sent(); });
  });
  $("#digest-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const error = $("#digest-error");
    error.hidden = true;
    $("#digest-save").disabled = true;
    try {
      await saveDigest();
    } catch (failure) {
      error.textContent = refusalText(failure);
      error.hidden = false;
    } finally {
      $("#digest-save").disabled = false;
    }
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
