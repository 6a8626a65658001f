// The site's service worker, served at /sw.js (its scope is the whole site). It does one
// thing: show the notices the server pushes to this device ("Your move in Kendall-style Senet
// against Anna") and, on a click, open the notice's page, or bring forward a tab that shows it.
// The server writes the words, in the language of the page that turned notifications on.

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

// A path of this site, else the home page: a notice never opens another site.
function pageOf(url) {
  try {
    const target = new URL(url || "/", self.location.origin);
    return target.origin === self.location.origin ? target.href : self.location.origin + "/";
  } catch {
    return self.location.origin + "/";
  }
}

self.addEventListener("push", (event) => {
  let notice = {};
  try { notice = event.data ? event.data.json() : {}; } catch { notice = {}; }
  const url = pageOf(notice.url);
  event.waitUntil(self.registration.showNotification(notice.title || "Senet", {
    body: notice.body || "",
    tag: notice.tag || url,
    lang: notice.lang || "",
    icon: "/static/favicon.svg",
    data: { url },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = pageOf(event.notification.data && event.notification.data.url);
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const open = windows.find((w) => w.url === url || w.url.startsWith(url + "?") || w.url.startsWith(url + "#"));
    if (open) return open.focus();
    return self.clients.openWindow(url);
  })());
});

// The push service replaced the subscription (it expired, or keys were renewed): tell the
// server the new one and forget the old one. The device's name cookie says whose it is.
self.addEventListener("pushsubscriptionchange", (event) => {
  event.waitUntil((async () => {
    const old = event.oldSubscription;
    const options = old ? old.options : null;
    const fresh = event.newSubscription || (options ? await self.registration.pushManager.subscribe(options) : null);
    const send = (method, body) => fetch("/api/push/subscriptions", {
      method, credentials: "same-origin",
      headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
    if (old) await send("DELETE", { endpoint: old.endpoint });
    if (fresh) await send("POST", fresh.toJSON());
  })());
});
