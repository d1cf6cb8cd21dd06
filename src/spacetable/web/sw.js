// The service worker (issue 70, docs/notifications.md): served at /sw.js so that its scope
// is the whole site. A push's payload is JSON {kind, title, body, url, tag}: it is shown
// as a notification (a newer one of the same tag, a room's "your move", replaces the
// older); a tap focuses a page already open at its url, or opens one.

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : "" };
  }
  const title = data.title || "spacetable";
  const options = {
    body: data.body || "",
    tag: data.tag || undefined,
    renotify: Boolean(data.tag),
    icon: "/static/icons/icon-192.png",
    badge: "/static/icons/icon-192.png",
    data: { url: data.url || "/", kind: data.kind || "" },
  };
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url || "/", self.location.origin).href;
  event.waitUntil((async () => {
    const pages = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    for (const page of pages) {
      if (page.url === target && "focus" in page) return page.focus();
    }
    return self.clients.openWindow(target);
  })());
});
