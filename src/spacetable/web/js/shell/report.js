// The Report dialog (issue 69 item 5; docs/moderation.md): a logged-in player reports
// another to the moderators, from his seat in a room, a line of the chat or his profile.
// He chooses why (the server's fixed list: abuse, cheating, spam, name, other) and may add
// what happened; the room and the chat line reported go with it. POST /api/reports; the
// server's refusal (not logged in, too many reports this hour) shows in the dialog, in the
// reader's language.

import { t } from "./i18n.js";
import { el, postJSON } from "./dom.js";
import { refusalText } from "./phrase.js";
import { toast } from "./notices.js";
import { account } from "./account.js";

/** The reasons, in the server's order, with their words. */
const REASONS = [
  ["abuse", () => t("Abuse or insults")],
  ["cheating", () => t("Cheating")],
  ["spam", () => t("Spam or flooding")],
  ["name", () => t("An offensive name")],
  ["other", () => t("Something else")],
];
/** The longest description the server takes (store/moderation.py TEXT_MAX). */
const TEXT_MAX = 500;

/**
 * Open the Report dialog for the player `name`; `room` (the room's id) and `text` (the
 * chat line reported) go with the report when given. Resolves to true once sent, false
 * when cancelled. A guest is told to log in first.
 */
export function openReportDialog(name, { room = null, text = null } = {}) {
  if (!account) {
    toast(t("Log in to report a player."), 6, { kind: "info" });
    return Promise.resolve(false);
  }
  return new Promise((resolve) => {
    const choices = REASONS.map(([value, words], i) => el("label", { class: "report-reason" },
      el("input", { type: "radio", name: "report-reason", value, required: true, checked: i === 0 }),
      ` ${words()}`));
    const details = el("textarea", { id: "report-text", maxlength: TEXT_MAX, rows: 4,
      placeholder: t("What happened? (optional)") });
    if (text) details.value = text.slice(0, TEXT_MAX);
    const error = el("p", { class: "error", role: "alert", hidden: true });
    const send = el("button", { type: "submit", id: "report-send" }, t("Send the report"));
    const dialog = el("dialog", { id: "report-dialog", class: "report-dialog", "aria-labelledby": "report-title" },
      el("form", { method: "dialog" },
        el("h2", { id: "report-title", text: t("Report {name}", { name }) }),
        el("p", { class: "muted", text: t("The moderators read every report. The player is not told who reported him.") }),
        el("fieldset", { class: "report-reasons" },
          el("legend", { text: t("Why?") }), ...choices),
        el("label", { for: "report-text", text: t("Details") }),
        details,
        error,
        el("p", { class: "report-buttons" },
          send,
          el("button", { type: "button", id: "report-cancel", class: "secondary",
            on: { click: () => dialog.close("cancel") } }, t("Cancel")))));
    let sent = false;
    dialog.addEventListener("submit", async (event) => {
      event.preventDefault();
      const reason = dialog.querySelector("input[name=report-reason]:checked")?.value;
      send.disabled = true;
      error.hidden = true;
      const body = { name, reason };
      if (room) body.room = room;
      if (details.value.trim()) body.text = details.value.trim();
      try {
        await postJSON("/api/reports", body);
        sent = true;
        dialog.close("sent");
        toast(t("Thank you: the moderators will read your report."), 6, { kind: "info" });
      } catch (failure) {
        error.textContent = refusalText(failure);
        error.hidden = false;
        send.disabled = false;
      }
    });
    dialog.addEventListener("close", () => {
      dialog.remove();
      resolve(sent);
    });
    document.body.append(dialog);
    dialog.showModal();
  });
}

/**
 * A small "Report" button that opens the dialog for `name` (with `options`, as
 * `openReportDialog`); none for the reader himself or a guest reader. `label`: its words
 * (default "Report"); `className`: its classes.
 */
export function reportButton(name, options = {}, { label = null, className = "report-button secondary" } = {}) {
  if (!account || !name || name === account) return null;
  return el("button", { type: "button", class: className,
    title: t("Report {name} to the moderators", { name }),
    "aria-label": t("Report {name} to the moderators", { name }),
    on: { click: (event) => { event.stopPropagation(); openReportDialog(name, options); } } },
  label ?? t("Report"));
}
