// "Personal access tokens", a section of the settings page (/me/settings#tokens; issue 72
// item 1, docs/bots.md): the account's tokens for its bots (GET /api/tokens), a form that
// makes one (POST /api/tokens: the token is shown this once) and a button that revokes
// each (DELETE /api/tokens/{id}: it stops at once).

import { t } from "./i18n.js";
import { el, fetchJSON } from "./dom.js";
import { refusalText } from "./phrase.js";

const JSON_HEADERS = { "Content-Type": "application/json" };
const SCOPES = ["bot:play", "challenge:read", "challenge:write"];

/** Build the section and put it in `main` before `before` (or at its end). */
export async function mountTokens(main, before = null) {
  const list = el("ul", { id: "tokens-list", class: "settings-links" });
  const error = el("p", { id: "tokens-error", class: "error", role: "alert", hidden: true });
  const made = el("p", { id: "tokens-made", role: "status", hidden: true });
  const description = el("input", { id: "tokens-description", type: "text", maxlength: "200", required: true });
  const boxes = SCOPES.map((scope) => el("input", { type: "checkbox", id: `tokens-scope-${scope.replace(":", "-")}`, value: scope, checked: true, style: "width: auto" }));
  const create = el("button", { type: "submit", id: "tokens-create", text: t("Make a token") });
  const form = el("form", { id: "tokens-form", class: "account-form" },
    el("label", { for: "tokens-description", text: t("What it is for") }), description,
    el("fieldset", { class: "notify-kinds" }, el("legend", { text: t("It may") }),
      ...SCOPES.map((scope, i) => el("label", { for: boxes[i].id, class: "notify-kind", style: "font-weight: normal; margin: 0" }, boxes[i], el("code", { text: scope })))),
    create);
  const section = el("section", { class: "panel account-panel settings-section", id: "tokens" },
    el("h2", { text: t("Personal access tokens") }),
    el("p", { class: "muted", text: t("A token lets a program, such as a bot, play for your account. It is shown once: copy it then. Revoke it when you no longer need it.") }),
    list, form, made, error);
  main.insertBefore(section, before);

  const fail = (failure) => {
    error.textContent = failure ? refusalText(failure) : "";
    error.hidden = !failure;
  };
  const refresh = async () => {
    const tokens = await fetchJSON("/api/tokens");
    list.replaceChildren(...tokens.map((token) => {
      const revoke = el("button", { type: "button", class: "secondary", text: t("Revoke") });
      revoke.addEventListener("click", async () => {
        revoke.disabled = true;
        fail(null);
        try {
          await fetchJSON(`/api/tokens/${encodeURIComponent(token.id)}`, { method: "DELETE", headers: JSON_HEADERS });
          made.hidden = true;
          await refresh();
        } catch (failure) {
          fail(failure);
          revoke.disabled = false;
        }
      });
      return el("li", { class: "token" }, el("span", { text: `${token.description || "—"} (${token.scopes.join(", ")}) ` }), revoke);
    }));
    if (!tokens.length) list.replaceChildren(el("li", { class: "muted", text: t("No token yet.") }));
  };
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    create.disabled = true;
    fail(null);
    try {
      const scopes = boxes.filter((box) => box.checked).map((box) => box.value);
      const body = JSON.stringify({ description: description.value, scopes });
      const answer = await fetchJSON("/api/tokens", { method: "POST", headers: JSON_HEADERS, body });
      made.replaceChildren(el("span", { text: t("Your new token, shown this once:") }), " ", el("code", { id: "tokens-new", text: answer.token, style: "word-break: break-all" }));
      made.hidden = false;
      description.value = "";
      await refresh();
    } catch (failure) {
      fail(failure);
    } finally {
      create.disabled = false;
    }
  });
  try {
    await refresh();
  } catch (failure) {
    fail(failure);
  }
}
