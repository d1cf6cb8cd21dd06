// The pages a mailed link opens (issue 70; docs/notifications.md), and the reset's request:
// /email/verify?token=... posts the token (POST /api/email/verify) and says whether the
// address is verified; /email/unsubscribe?token=... stops the daily digest with a button; /password-reset asks for a link (POST /api/password-reset: the
// answer is the same whether the account exists or not), and /password-reset?token=...
// sets a new password (POST /api/password-reset/confirm), which logs every device out.

import { t } from "../shell/i18n.js"; // (and the page's language switch)
import { $, fetchJSON } from "../shell/dom.js";
import { refusalText } from "../shell/phrase.js";

const JSON_HEADERS = { "Content-Type": "application/json" };
const token = new URLSearchParams(location.search).get("token");

function post(url, body) {
  return fetchJSON(url, { method: "POST", headers: JSON_HEADERS, body: JSON.stringify(body) });
}

/** POST `body` to `url`, whose answer has no body when it is done (202, 204); a refusal
 * throws as fetchJSON's does (its phrase for refusalText). */
async function send(url, body) {
  const response = await fetch(url, { method: "POST", headers: JSON_HEADERS, body: JSON.stringify(body) });
  if (response.ok) return;
  const answer = await response.json().catch(() => null);
  const error = new Error((answer && answer.detail) || String(response.status));
  error.status = response.status;
  if (answer && answer.says) error.says = answer.says;
  throw error;
}

async function verify() {
  const state = $("#verify-state");
  if (!token) {
    state.textContent = t("This link is not valid: copy the whole link from the mail.");
    return;
  }
  try {
    const { address } = await post("/api/email/verify", { token });
    state.textContent = t("Your address {address} is verified.", { address: address || "" });
  } catch (failure) {
    state.hidden = true;
    $("#verify-error").textContent = refusalText(failure);
    $("#verify-error").hidden = false;
  }
}

/** Run `request` from a form's submit, its button disabled meanwhile, its error shown. */
function onSubmit(form, button, error, request) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    button.disabled = true;
    error.hidden = true;
    try {
      await request();
    } catch (failure) {
      error.textContent = refusalText(failure);
      error.hidden = false;
    } finally {
      button.disabled = false;
    }
  });
}

function reset() {
  if (!token) {
    $("#reset-ask").hidden = false;
    onSubmit($("#reset-ask-form"), $("#reset-ask-submit"), $("#reset-ask-error"), async () => {
      await send("/api/password-reset", { name_or_email: $("#reset-who").value });
      $("#reset-ask-form").hidden = true;
      $("#reset-asked").hidden = false;
    });
    $("#reset-who").focus();
    return;
  }
  $("#reset-choose").hidden = false;
  onSubmit($("#reset-form"), $("#reset-submit"), $("#reset-error"), async () => {
    await send("/api/password-reset/confirm", { token, password: $("#reset-password").value });
    $("#reset-choose").hidden = true;
    $("#reset-done").hidden = false;
  });
  $("#reset-password").focus();
}

/** /email/unsubscribe: a button posts the digest's token (a link followed changes nothing). */
function unsubscribe() {
  const button = $("#unsubscribe-button");
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      await send(`/api/email/unsubscribe?token=${encodeURIComponent(token || "")}`, {});
      $("#unsubscribe-ask").hidden = true;
      button.hidden = true;
      $("#unsubscribe-done").hidden = false;
    } catch (failure) {
      $("#unsubscribe-error").textContent = refusalText(failure);
      $("#unsubscribe-error").hidden = false;
      button.disabled = false;
    }
  });
}

if (location.pathname === "/email/verify") verify();
else if (location.pathname === "/email/unsubscribe") unsubscribe();
else reset();
