// The bell of every page's top bar (issue 70 item 1; docs/notifications.md): a logged-in
// player's notifications (his move in a correspondence game, a turn that ran out, a
// challenge, a match over), how many are unread, and the list under it, newest first, each
// a link to its page; "Mark all read". Read from GET /api/notifications (written in the
// page's language), kept live by the lobby socket's `notification` message (its words a
// phrase the page writes in its own language: shell/phrase.js).

import { lang, t, tn } from "./i18n.js";
import { el, fetchJSON, postJSON, svg } from "./dom.js";
import { account } from "./account.js";
import { lobbySocket } from "./lobbysocket.js";
import { said } from "./phrase.js";

const PAGE = 20;

/** "3 minutes ago", "yesterday": when, in the page's language. */
function ago(at) {
  const seconds = Math.round(at - Date.now() / 1000);
  const words = new Intl.RelativeTimeFormat(lang, { numeric: "auto" });
  const steps = [[60, "second"], [3600, "minute"], [86400, "hour"], [604800, "day"], [Infinity, "week"]];
  let unit = 1;
  for (const [limit, name] of steps) {
    if (Math.abs(seconds) < limit) return words.format(Math.round(seconds / unit), name);
    unit = limit;
  }
  return "";
}

/** The bell, drawn (an emoji's font may be missing). */
function bellIcon() {
  return svg("svg", { class: "bell-icon", viewBox: "0 0 24 24", width: "20", height: "20", "aria-hidden": "true" },
    svg("path", { d: "M12 3a6 6 0 0 0-6 6v4l-2 3h16l-2-3V9a6 6 0 0 0-6-6z", fill: "none", stroke: "currentColor", "stroke-width": "2", "stroke-linejoin": "round" }),
    svg("path", { d: "M10 19a2 2 0 0 0 4 0", fill: "none", stroke: "currentColor", "stroke-width": "2", "stroke-linecap": "round" }));
}

class Bell {
  constructor(bar) {
    this.unread = 0;
    this.items = new Map();
    this.oldest = null;
    this.more = false;
    this.count = el("span", { class: "bell-count", hidden: true });
    this.summary = el("summary", { class: "bell-button" }, bellIcon(), this.count);
    this.list = el("ul", { class: "bell-list" });
    this.empty = el("p", { class: "bell-empty", text: t("No notifications yet.") });
    this.markAll = el("button", { type: "button", class: "secondary bell-read-all", text: t("Mark all read") });
    this.older = el("button", { type: "button", class: "secondary bell-older", text: t("Older"), hidden: true });
    const head = el("div", { class: "bell-head" }, el("strong", { text: t("Notifications") }), this.markAll);
    const settings = el("a", { class: "bell-settings", href: "/me/settings#push", text: t("Push on this device…") });
    this.popup = el("div", { class: "bell-popup" }, head, this.empty, this.list, this.older, settings);
    this.box = el("details", { class: "bell" }, this.summary, this.popup);
    this.markAll.addEventListener("click", () => this.readAll());
    this.older.addEventListener("click", () => this.load(this.oldest));
    const where = bar.querySelector(".account") || bar.querySelector("#lang-switch");
    if (where) bar.insertBefore(this.box, where);
    else bar.append(this.box);
    this.show();
  }

  show() {
    const n = this.unread;
    this.count.textContent = n > 99 ? "99+" : String(n);
    this.count.hidden = n === 0;
    const label = n
      ? tn("Notifications: {n} unread", "Notifications: {n} unread", n, { n })
      : t("Notifications: none unread");
    this.summary.setAttribute("aria-label", label);
    this.summary.title = label;
    this.box.classList.toggle("has-unread", n > 0);
    this.markAll.disabled = n === 0;
    this.empty.hidden = this.items.size > 0;
    this.older.hidden = !this.more;
  }

  line(item) {
    const link = el("a", { href: item.url, class: "bell-item" + (item.read ? "" : " unread") },
      el("span", { class: "bell-text", text: item.text }),
      el("time", { class: "bell-when", dateTime: new Date(item.at * 1000).toISOString(), text: ago(item.at) }));
    if (!item.read) link.append(el("span", { class: "visually-hidden", text: ` (${t("unread")})` }));
    link.addEventListener("click", () => {
      if (!item.read) postJSON("/api/notifications/read", { ids: [item.id] }).catch(() => {});
    });
    return el("li", { dataset: { id: String(item.id) } }, link);
  }

  add(item, first) {
    if (this.items.has(item.id)) return;
    this.items.set(item.id, item);
    const li = this.line(item);
    if (first) this.list.prepend(li);
    else this.list.append(li);
  }

  async load(before = null) {
    const query = new URLSearchParams({ limit: String(PAGE), lang });
    if (before !== null) query.set("before", String(before));
    const page = await fetchJSON(`/api/notifications?${query}`);
    this.unread = page.unread;
    for (const item of page.items) this.add(item, false);
    if (page.items.length) this.oldest = page.items[page.items.length - 1].id;
    this.more = page.items.length === PAGE;
    this.show();
  }

  heard(message) {
    const text = said(message.says) || message.text;
    this.add({ id: message.id, kind: message.kind, text, url: message.url, at: message.at, read: false }, true);
    this.unread += 1;
    this.show();
  }

  async readAll() {
    this.markAll.disabled = true;
    try {
      const body = await postJSON("/api/notifications/read", { all: true });
      this.unread = body.unread ?? 0;
      for (const node of this.list.querySelectorAll(".bell-item.unread")) {
        node.classList.remove("unread");
        node.querySelector(".visually-hidden")?.remove();
      }
      for (const item of this.items.values()) item.read = true;
    } finally {
      this.show();
    }
  }
}

function mount() {
  const bar = document.querySelector(".topbar");
  if (!account || !bar || bar.querySelector(".bell")) return;
  const main = document.querySelector(".settings-page main");
  if (main) {
    // The settings page's "Push on this device" (shell/pushsettings.js), before its password.
    import("./pushsettings.js").then((push) => push.mountPushSettings(main, document.getElementById("settings-password")));
  }
  const bell = new Bell(bar);
  lobbySocket().on("notification", (message) => bell.heard(message));
  bell.load().catch(() => {
    // The list is a convenience: the page works without it.
  });
}

mount();
