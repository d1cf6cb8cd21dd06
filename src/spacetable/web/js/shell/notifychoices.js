// "What you are told", a section of the settings page (/me/settings#notify; issue 70 item
// 5, docs/notifications.md): per kind of notification, whether it is pushed to the
// player's devices, and one switch that turns everything off (every push and the daily
// digest). GET/PUT /api/accounts/me/notify; each change is saved at once. A kind not pushed
// is still listed under the bell.

import { t } from "./i18n.js";
import { el, fetchJSON } from "./dom.js";
import { refusalText } from "./phrase.js";

/** The kinds, in the server's groups (store/notifications.py's GROUPS), as a player reads them. */
const KINDS = [
  ["your_move", () => t("Your move in a correspondence game")],
  ["ran_out", () => t("One of your turns ran out")],
  ["challenges", () => t("Challenges: received, accepted or declined")],
  ["match_over", () => t("A correspondence match is over")],
  ["tournament_round", () => t("A round of your tournament is paired")],
];

/** Build the section and put it in `main` before `before` (or at its end). */
export async function mountNotifyChoices(main, before = null) {
  const allOff = el("input", { type: "checkbox", id: "notify-all-off", role: "switch" });
  const boxes = new Map(KINDS.map(([kind]) => [kind, el("input", { type: "checkbox", id: `notify-push-${kind}` })]));
  const state = el("p", { id: "notify-state", class: "hint muted", role: "status" });
  const error = el("p", { id: "notify-error", class: "error", role: "alert", hidden: true });
  const kinds = el("fieldset", { class: "notify-kinds" },
    el("legend", { text: t("Pushed to your devices") }),
    ...KINDS.map(([kind, words]) => el("label", { for: `notify-push-${kind}`, class: "notify-kind" }, boxes.get(kind), el("span", { text: words() }))));
  const section = el("section", { class: "panel account-panel settings-section", id: "notify" },
    el("h2", { text: t("What you are told") }),
    el("p", { class: "muted", text: t("Choose which notifications reach your devices as a push. Each one is still listed under the bell. The daily digest lists only the games that wait for your move: pick its hour under Daily digest.") }),
    el("label", { for: "notify-all-off", class: "push-switch" }, allOff, el("span", { text: t("Turn everything off: no push to any device, no daily digest") })),
    kinds, state, error);
  main.insertBefore(section, before);

  const controls = [allOff, ...boxes.values()];
  let kept = null; // the choices the server keeps
  const show = (choices) => {
    kept = choices;
    allOff.checked = choices.all_off;
    for (const [kind, box] of boxes) {
      box.checked = choices.push[kind] !== false;
      box.disabled = choices.all_off;
    }
    kinds.classList.toggle("notify-off", choices.all_off);
  };
  const fail = (failure) => { error.textContent = failure ? refusalText(failure) : ""; error.hidden = !failure; };
  for (const box of controls) box.disabled = true;
  try {
    show(await fetchJSON("/api/accounts/me/notify"));
    allOff.disabled = false;
  } catch (failure) {
    fail(failure);
    return;
  }

  const save = async () => {
    for (const box of controls) box.disabled = true;
    fail(null);
    const push = Object.fromEntries([...boxes].map(([kind, box]) => [kind, box.checked]));
    const body = JSON.stringify({ all_off: allOff.checked, push });
    try {
      show(await fetchJSON("/api/accounts/me/notify", { method: "PUT", headers: { "Content-Type": "application/json" }, body }));
      state.textContent = allOff.checked ? t("Saved: everything is off.") : t("Saved.");
    } catch (failure) {
      fail(failure);
      show(kept); // as they still are on the server
    } finally {
      allOff.disabled = false;
    }
  };
  for (const box of controls) box.addEventListener("change", save);
}
