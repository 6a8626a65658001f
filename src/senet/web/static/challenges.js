// Challenges, live: the home page's list is fetched again whenever one of the player's
// challenges changes (a new one arrives, one is answered or expires); a challenge's own page
// reloads. A challenger whose challenge is accepted goes to the game: the challenge's page
// takes their seat (a form it sends at once).
import { loadTexts, t } from "./i18n.js";

const box = document.getElementById("challenges");
const page = document.getElementById("challenge");

const seat = document.getElementById("take-seat");
if (seat) seat.requestSubmit();

function follow(query, onMessage, onOpen = () => {}) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  let retry = 1000;
  const open = () => {
    const ws = new WebSocket(`${scheme}://${location.host}/ws/challenges${query}`);
    ws.addEventListener("open", () => { retry = 1000; document.body.dataset.challengesLive = "1"; onOpen(); });
    ws.addEventListener("message", (event) => onMessage(JSON.parse(event.data)));
    ws.addEventListener("close", (event) => {
      document.body.dataset.challengesLive = "";
      if (event.code === 4403) return; // nothing to follow
      setTimeout(open, retry);
      retry = Math.min(retry * 2, 10000);
    });
  };
  open();
}

async function refreshBox() {
  const response = await fetch("/challenges/box", { headers: { Accept: "text/html" } });
  if (!response.ok) return;
  const html = await response.text();
  const fresh = new DOMParser().parseFromString(html, "text/html").getElementById("challenges");
  if (fresh) box.replaceChildren(...fresh.childNodes);
  box.dataset.version = String(Number(box.dataset.version || 0) + 1);
}

if (page && !seat && page.dataset.status === "open") {
  const query = page.dataset.role === "challenger" ? `?id=${encodeURIComponent(page.dataset.challenge)}` : "";
  follow(query, (message) => {
    if (message.challenge && message.challenge.id === page.dataset.challenge) location.reload();
  });
} else if (box && box.dataset.live) {
  follow("", (message) => {
    const sent = box.querySelector(`#outgoing [data-challenge="${CSS.escape(message.challenge.id)}"]`);
    if (message.event === "accepted" && sent) location.assign(`/challenges/${message.challenge.id}`);
    else refreshBox();
  }, () => { if (box.dataset.opened) refreshBox(); box.dataset.opened = "1"; }); // a reconnection may have missed one
}

// The game page: once the game is over, a way to challenge the named opponent to another game
// (drawn by the server when the page is loaded after they took their seat; else added here).
const game = document.getElementById("game");
const you = game ? JSON.parse(game.dataset.you || "[]") : [];
if (game && you.length === 1 && !document.getElementById("challenge-opponent")) {
  let looked = false;
  const look = async () => {
    if (looked || game.dataset.over !== "1") return;
    looked = true;
    const answer = await fetch(`/api/games/${encodeURIComponent(game.dataset.game)}/ratings`, { headers: { Accept: "application/json" } });
    if (!answer.ok) return;
    const opponent = (await answer.json()).seats.find((s) => s.kind === "human" && s.seat !== "AB"[you[0]]);
    if (!opponent || document.getElementById("challenge-opponent")) return;
    await loadTexts(game.dataset.lang);
    const link = document.createElement("a");
    link.id = "challenge-opponent";
    link.href = `/challenge/${encodeURIComponent(opponent.name)}?from=${encodeURIComponent(game.dataset.game)}`;
    link.textContent = t("challenge.again", { name: opponent.name });
    const line = document.createElement("p");
    line.append(link);
    document.getElementById("rematch-link").before(line);
  };
  new MutationObserver(look).observe(game, { attributes: true, attributeFilter: ["data-over"] });
  look();
}
