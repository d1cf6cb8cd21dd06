// /admin: the moderators' page (issue 69 item 5; docs/moderation.md). The report queue
// (open or handled, newest first: who was reported, why, by whom, the room and the words),
// one form that mutes, bans, unmutes, unbans an account or closes a room, always with a
// reason, the mutes and bans in force, and the audit log of every action with who and when.
// A report's buttons fill the form; the server refuses a guest (401) and a player who is no
// moderator (403), and the page says so. Routes: http/moderation.py.

import { lang, t } from "../shell/i18n.js";
import { $, clear, el, fetchJSON, postJSON } from "../shell/dom.js";
import { refusalText } from "../shell/phrase.js";

/** The reasons a report gives, in words (store/moderation.py REASONS). */
const REASONS = () => ({
  abuse: t("Abuse or insults"),
  cheating: t("Cheating"),
  spam: t("Spam or flooding"),
  name: t("An offensive name"),
  other: t("Something else"),
});
/** The audit log's actions, in words. */
const ACTIONS = () => ({
  mute: t("muted"),
  unmute: t("unmuted"),
  ban: t("banned"),
  unban: t("unbanned"),
  close: t("closed the room"),
  handled: t("handled a report on"),
  grant: t("made moderator"),
  revoke: t("took the moderator's role from"),
});

let showing = "open";

function when(seconds) {
  return new Date(seconds * 1000).toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" });
}

function profileLink(name) {
  const link = el("a", { href: `/players/${encodeURIComponent(name)}`, text: name });
  link.setAttribute("translate", "no");
  return link;
}

/** Fill the action form for `kind` on `target` and bring it to the reason. */
function prepare(kind, target) {
  $("#act-kind").value = kind;
  $("#act-target").value = target;
  shapeForm();
  $("#admin-act").scrollIntoView({ block: "start" });
  $("#act-reason").focus();
}

/** The form's fields as its action needs them: a room's id or a name; a duration or none. */
function shapeForm() {
  const kind = $("#act-kind").value;
  $("#act-target-label").textContent = kind === "close" ? t("Room's id") : t("Player's name");
  $("#act-help").textContent = {
    mute: t("The player's chat is refused in every room, on every server, until the mute ends."),
    ban: t("The player is logged out everywhere at once, may not log in, and his seeks and challenges are removed."),
    unmute: t("The player may write in the chats again."),
    unban: t("The player may log in again."),
    close: t("The room's match ends unstored and everyone in it sees the room closed."),
  }[kind];
  const timed = kind === "mute" || kind === "ban";
  $("#act-hours").hidden = !timed;
  $("#act-hours-label").hidden = !timed;
}

function reportItem(report) {
  const reason = REASONS()[report.reason] ?? report.reason;
  const item = el("li", { class: "admin-report", dataset: { id: report.id, name: report.name } },
    el("p", { class: "admin-report-head" },
      profileLink(report.name), " — ", el("strong", { text: reason }),
      report.banned ? el("span", { class: "admin-tag", text: t("banned") }) : null,
      report.muted ? el("span", { class: "admin-tag", text: t("muted") }) : null),
    el("p", { class: "muted" }, t("Reported by {name}, {when}", { name: report.reporter, when: when(report.at) }),
      report.room ? " · " : null,
      report.room ? el("a", { href: `/rooms/${encodeURIComponent(report.room)}`, text: t("room {room}", { room: report.room }) }) : null),
    report.text ? el("blockquote", { class: "admin-report-text", text: report.text }) : null);
  if (report.status === "open") {
    const buttons = el("p", { class: "admin-buttons" },
      el("button", { type: "button", class: "secondary act-mute", on: { click: () => prepare("mute", report.name) } }, t("Mute…")),
      el("button", { type: "button", class: "danger act-ban", on: { click: () => prepare("ban", report.name) } }, t("Ban…")),
      report.room ? el("button", { type: "button", class: "secondary act-close", on: { click: () => prepare("close", report.room) } }, t("Close the room…")) : null,
      el("button", { type: "button", class: "act-handled", on: { click: (event) => handled(report, event.currentTarget) } }, t("Mark handled")));
    item.append(buttons);
  }
  return item;
}

async function handled(report, button) {
  button.disabled = true;
  try {
    await postJSON(`/api/admin/reports/${report.id}/handled`, {});
  } catch (failure) {
    button.disabled = false;
    $("#act-error").textContent = refusalText(failure);
    $("#act-error").hidden = false;
    return;
  }
  await refresh();
}

async function showReports() {
  const { reports } = await fetchJSON(`/api/admin/reports?status=${showing}`);
  const list = clear($("#report-list"));
  list.append(...reports.map(reportItem));
  $("#no-reports").hidden = reports.length > 0;
  for (const [id, which] of [["#show-open", "open"], ["#show-handled", "handled"]]) {
    const on = showing === which;
    $(id).classList.toggle("on", on);
    $(id).classList.toggle("secondary", !on);
    $(id).setAttribute("aria-pressed", String(on));
  }
}

async function showSanctions() {
  const { sanctions } = await fetchJSON("/api/admin/sanctions");
  const list = clear($("#sanction-list"));
  for (const sanction of sanctions) {
    const until = sanction.until == null ? t("for good") : t("until {when}", { when: when(sanction.until) });
    const what = sanction.kind === "ban" ? t("banned") : t("muted");
    const lift = sanction.kind === "ban" ? "unban" : "unmute";
    list.append(el("li", { class: "admin-sanction", dataset: { name: sanction.name, kind: sanction.kind } },
      profileLink(sanction.name), ` — ${what}, ${until} — `, el("q", { text: sanction.reason }), " ",
      el("button", { type: "button", class: "secondary act-lift", on: { click: () => prepare(lift, sanction.name) } },
        sanction.kind === "ban" ? t("Unban…") : t("Unmute…"))));
  }
  $("#no-sanctions").hidden = sanctions.length > 0;
}

async function showAudit() {
  const { audit } = await fetchJSON("/api/admin/audit");
  const rows = clear($("#audit-rows"));
  for (const entry of audit) {
    const target = el("td", { text: entry.target });
    target.setAttribute("translate", "no");
    const actor = el("td", { text: entry.actor === "console" ? t("the command line") : entry.actor });
    rows.append(el("tr", { dataset: { action: entry.action } },
      el("td", { text: when(entry.at) }), actor,
      el("td", { text: ACTIONS()[entry.action] ?? entry.action }), target,
      el("td", { text: entry.reason })));
  }
}

async function refresh() {
  await Promise.all([showReports(), showSanctions(), showAudit()]);
}

async function act(event) {
  event.preventDefault();
  const kind = $("#act-kind").value;
  const target = $("#act-target").value.trim();
  const reason = $("#act-reason").value.trim();
  const error = $("#act-error");
  const done = $("#act-done");
  error.hidden = true;
  done.hidden = true;
  $("#act-submit").disabled = true;
  try {
    if (kind === "close") {
      await postJSON(`/api/admin/rooms/${encodeURIComponent(target)}/close`, { reason });
    } else {
      const body = { name: target, reason };
      const hours = $("#act-hours").value;
      if ((kind === "mute" || kind === "ban") && hours) body.hours = Number(hours);
      await postJSON(`/api/admin/${kind}`, body);
    }
    done.textContent = {
      mute: t("{name} is muted.", { name: target }),
      ban: t("{name} is banned: logged out everywhere.", { name: target }),
      unmute: t("{name} may write again.", { name: target }),
      unban: t("{name} may log in again.", { name: target }),
      close: t("The room {room} is closed.", { room: target }),
    }[kind];
    done.hidden = false;
    $("#act-reason").value = "";
    await refresh();
  } catch (failure) {
    error.textContent = refusalText(failure);
    error.hidden = false;
  } finally {
    $("#act-submit").disabled = false;
  }
}

async function main() {
  try {
    await showReports();
  } catch (failure) {
    $("#admin-refused-why").textContent = failure.status === 401
      ? t("You are not logged in.")
      : failure.status === 403 ? t("This page is for moderators: your account is not one.") : refusalText(failure);
    $("#admin-login").hidden = failure.status !== 401;
    $("#admin-refused").hidden = false;
    return;
  }
  for (const id of ["#admin-reports", "#admin-act", "#admin-sanctions", "#admin-audit"]) $(id).hidden = false;
  $("#show-open").addEventListener("click", () => { showing = "open"; showReports(); });
  $("#show-handled").addEventListener("click", () => { showing = "handled"; showReports(); });
  $("#act-kind").addEventListener("change", shapeForm);
  $("#act-form").addEventListener("submit", act);
  shapeForm();
  await Promise.all([showSanctions(), showAudit()]);
}

main();
