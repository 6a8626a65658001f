// Notifications on this device (Web Push): turned on only by a click — the game page offers it
// after the player's first move in a turn-based game, the name page has the switch — never on
// loading a page. The service worker (/sw.js) shows what the server pushes.
import { errorText, loadTexts, t } from "./i18n.js";

const OFFER_KEY = "senet.push.offer"; // "no": the player said "Not now" on this device

export function pushSupported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

function fromB64url(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const raw = atob(b64 + "===".slice((b64.length + 3) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

async function call(method, body) {
  const answer = await fetch("/api/push/subscriptions", {
    method,
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
  });
  const data = await answer.json().catch(() => ({}));
  if (!answer.ok) throw Object.assign(new Error(data.code || "failed"), { answer: data });
  return data;
}

// This device's subscription, if notifications are on here.
export async function currentSubscription() {
  if (!pushSupported()) return null;
  const registration = await navigator.serviceWorker.getRegistration("/");
  return registration ? registration.pushManager.getSubscription() : null;
}

// Turn notifications on: the browser's permission (asked now, after a click), the service
// worker, a subscription with the server's key, given to the server for this device's name.
export async function turnOn() {
  const permission = await Notification.requestPermission();
  if (permission !== "granted") throw new Error("blocked");
  await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  const registration = await navigator.serviceWorker.ready;
  let subscription = await registration.pushManager.getSubscription();
  if (!subscription) {
    const { key } = await (await fetch("/api/push/key")).json();
    subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: fromB64url(key) });
  }
  await call("POST", subscription.toJSON());
  return subscription;
}

// Turn them off on this device: the server forgets the subscription, the browser drops it.
export async function turnOff() {
  const subscription = await currentSubscription();
  if (!subscription) return;
  await call("DELETE", { endpoint: subscription.endpoint });
  await subscription.unsubscribe();
}

function declined() {
  try { return localStorage.getItem(OFFER_KEY) === "no"; } catch { return false; }
}

// The game page, after the player's move in a turn-based game: offer notifications once the
// device has a name, can have them, has not refused them and does not have them yet.
export async function offerAfterMove(box) {
  if (!box || !box.hidden || box.dataset.done || declined() || !pushSupported()) return;
  if (Notification.permission === "denied" || await currentSubscription()) return;
  box.hidden = false;
  box.querySelector("[data-push=no]").onclick = () => {
    try { localStorage.setItem(OFFER_KEY, "no"); } catch { /* storage off */ }
    box.hidden = true; box.dataset.done = "1";
  };
  box.querySelector("[data-push=yes]").onclick = async () => {
    const status = box.querySelector("[data-push=status]");
    try {
      await turnOn();
      box.hidden = true; box.dataset.done = "1";
    } catch (err) {
      status.textContent = failure(err);
    }
  };
}

function failure(err) {
  if (err && err.message === "blocked") return t("push.blocked");
  if (err && err.answer && err.answer.code) return errorText(err.answer);
  return t("push.failed");
}

// The name page's switch for this device.
async function settings(section) {
  await loadTexts(document.documentElement.lang || "en");
  const status = section.querySelector("[data-push=status]");
  const on = section.querySelector("[data-push=on]");
  const off = section.querySelector("[data-push=off]");
  async function show(note) {
    if (!pushSupported()) { status.textContent = t("push.unsupported"); on.hidden = off.hidden = true; return; }
    const subscribed = Boolean(await currentSubscription());
    section.dataset.state = subscribed ? "on" : "off";
    status.textContent = note || t(subscribed ? "push.on" : "push.off");
    on.hidden = subscribed || Notification.permission === "denied";
    off.hidden = !subscribed;
    if (!subscribed && Notification.permission === "denied") status.textContent = t("push.blocked");
  }
  on.addEventListener("click", async () => {
    try { await turnOn(); await show(); } catch (err) { await show(failure(err)); }
  });
  off.addEventListener("click", async () => {
    try { await turnOff(); await show(); } catch (err) { await show(failure(err)); }
  });
  await show();
}

// Signing out (here, everywhere) or deleting the name: the server forgets this device's
// subscription with its session; the browser drops it too, so that no other name signing in
// here later inherits it.
for (const form of document.querySelectorAll("form[data-push-forget]")) {
  form.addEventListener("submit", async (event) => {
    if (form.dataset.forgotten) return;
    event.preventDefault();
    try { const subscription = await currentSubscription(); if (subscription) await subscription.unsubscribe(); } catch { /* gone already */ }
    form.dataset.forgotten = "1";
    form.requestSubmit();
  });
}

const section = document.getElementById("push-settings");
if (section) settings(section);
