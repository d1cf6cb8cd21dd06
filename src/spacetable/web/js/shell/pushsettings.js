// "Push on this device", a section of the settings page (/me/settings#push; issue 70 item
// 2, docs/notifications.md): a switch that registers the service worker (/sw.js) and
// subscribes this browser with the server's VAPID key (GET /api/push/key, POST
// /api/push/subscriptions), or unsubscribes it (DELETE). Said plainly when the browser
// cannot (an iPhone needs the site added to its home screen first), when the player blocked
// notifications for the site, and when the server sends no push.

import { lang, t } from "./i18n.js";
import { el, fetchJSON } from "./dom.js";
import { said } from "./phrase.js";

/** The base64url VAPID key as the bytes `pushManager.subscribe` takes. */
function keyBytes(key) {
  const padded = (key + "=".repeat((4 - (key.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}

function isAppleMobile() {
  return /iPhone|iPad|iPod/.test(navigator.userAgent) || (navigator.platform === "MacIntel" && navigator.maxTouchPoints > 1);
}

/** How long a browser's push service may take to subscribe before the page gives up (ms). */
const SUBSCRIBE_WAIT_MS = 30000;

/** A subscription failed in the browser (not refused by our server): said plainly. */
class NoPushService extends Error {}

/** Subscribe with the browser's push service; a refusal or no answer is a NoPushService. */
async function subscribeHere(registration, key) {
  let timer = null;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new NoPushService("no answer")), SUBSCRIBE_WAIT_MS);
  });
  try {
    return await Promise.race([registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) }), late]);
  } catch (failure) {
    throw failure instanceof NoPushService ? failure : new NoPushService(String(failure));
  } finally {
    clearTimeout(timer);
  }
}

async function send(method, body) {
  return fetchJSON("/api/push/subscriptions", {
    method,
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
}

/** Build the section and put it in `main` before `before` (or at its end). */
export async function mountPushSettings(main, before = null) {
  const toggle = el("input", { type: "checkbox", id: "push-toggle", role: "switch" });
  const label = el("label", { for: "push-toggle", class: "push-switch" }, toggle, el("span", { text: t("Send notifications to this device") }));
  const state = el("p", { id: "push-state", class: "hint muted", role: "status" });
  const error = el("p", { id: "push-error", class: "error", role: "alert", hidden: true });
  const section = el("section", { class: "panel account-panel settings-section", id: "push" },
    el("h2", { text: t("Push on this device") }),
    el("p", { class: "muted", text: t("Your move in a correspondence game, a turn that ran out, a challenge: told on this phone or computer even when no page of spacetable is open. Each device is switched on by itself; logging out switches it off.") }),
    label, state, error);
  main.insertBefore(section, before);

  const say = (text) => { state.textContent = text; };
  const fail = (text) => { error.textContent = text; error.hidden = !text; };
  toggle.disabled = true;

  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    say(isAppleMobile()
      ? t("On an iPhone or iPad, add spacetable to your home screen first (Share, then Add to Home Screen), open it from there, and switch this on.")
      : t("This browser cannot receive push notifications."));
    return;
  }
  let key = null;
  try {
    key = (await fetchJSON("/api/push/key")).public_key;
  } catch {
    key = null;
  }
  if (!key) {
    say(t("This server sends no push notifications."));
    return;
  }
  const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  await navigator.serviceWorker.ready;
  let current = await registration.pushManager.getSubscription();
  const show = () => {
    toggle.checked = Boolean(current) && Notification.permission === "granted";
    if (Notification.permission === "denied") say(t("Notifications are blocked for this site: allow them in your browser's site settings, then switch this on."));
    else say(toggle.checked ? t("On: this device is told.") : t("Off: this device is not told."));
  };
  if (current && Notification.permission === "granted") {
    // The server may have dropped it (another session, a logout): tell it again.
    await send("POST", { ...current.toJSON(), lang }).catch(() => {});
  }
  show();
  toggle.disabled = false;

  toggle.addEventListener("change", async () => {
    toggle.disabled = true;
    fail("");
    try {
      if (toggle.checked) {
        const allowed = await Notification.requestPermission();
        if (allowed !== "granted") {
          current = null;
          return;
        }
        current = current || await subscribeHere(registration, key);
        await send("POST", { ...current.toJSON(), lang });
      } else if (current) {
        const endpoint = current.endpoint;
        await current.unsubscribe();
        current = null;
        await send("DELETE", { endpoint });
      }
    } catch (failure) {
      if (failure instanceof NoPushService) {
        current = null;
        fail(t("This browser could not subscribe to its push service, so push stays off on this device. A private window cannot receive push; otherwise try again later, or in another browser."));
      } else {
        fail(failure.says ? said(failure.says) : failure.message || String(failure));
      }
    } finally {
      show();
      toggle.disabled = false;
    }
  });
}
