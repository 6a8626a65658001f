// Quick chat on the game page: a row of set phrases (sent by id; the server refuses anything
// else and passes them only to the game's two players) and a mute of the opponent's phrases,
// remembered for the game on this device and told to the server on every connection.  The
// server stores no phrase; the log of the last phrases shown is kept on the device for the
// game, so that a reload shows it again.
import { t } from "./i18n.js";

const SHOWN = 5; // phrases kept in the log

export function setupChat({ gameId, send, seatName, you }) {
  const box = document.getElementById("chat");
  if (!box) return { connected() {}, receive() {} };
  const log = document.getElementById("chat-log");
  const muteButton = document.getElementById("chat-mute");
  const key = `senet-chat-muted-${gameId}`;
  const logKey = `senet-chat-log-${gameId}`;
  let muted = false;
  try { muted = localStorage.getItem(key) === "1"; } catch { /* no storage: not remembered */ }
  let kept = [];
  try { kept = JSON.parse(localStorage.getItem(logKey) || "[]").filter((e) => Number.isInteger(e.seat) && typeof e.phrase === "string"); } catch { kept = []; }

  function show(entry) {
    const own = you().includes(entry.seat);
    const item = document.createElement("li");
    item.dataset.seat = String(entry.seat);
    item.dataset.phrase = entry.phrase;
    item.className = own ? "own" : "theirs";
    const who = own ? t("chat.you") : seatName(entry.seat);
    item.textContent = t("chat.said", { who: who.charAt(0).toUpperCase() + who.slice(1), phrase: t(`chat.${entry.phrase}`) });
    log.append(item);
    while (log.children.length > SHOWN) log.firstElementChild.remove();
  }

  function showMute() {
    muteButton.setAttribute("aria-pressed", String(muted));
    muteButton.textContent = t(muted ? "chat.unmute" : "chat.mute");
  }
  for (const button of box.querySelectorAll("button[data-phrase]")) {
    button.addEventListener("click", () => send({ type: "chat", phrase: button.dataset.phrase }));
  }
  muteButton.addEventListener("click", () => {
    muted = !muted;
    try { localStorage.setItem(key, muted ? "1" : "0"); } catch { /* not remembered */ }
    showMute();
    send({ type: "mute", muted });
  });

  return {
    connected() { // texts are loaded by then
      showMute();
      if (muted) send({ type: "mute", muted: true });
      if (!log.children.length) kept.forEach(show); // the log as it was before a reload
    },
    receive(data) {
      const own = you().includes(data.seat);
      if (muted && !own) return; // said before the server knew of the mute
      const entry = { seat: data.seat, phrase: data.phrase };
      show(entry);
      kept = [...kept, entry].slice(-SHOWN);
      try { localStorage.setItem(logKey, JSON.stringify(kept)); } catch { /* not kept */ }
    },
  };
}
